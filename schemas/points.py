"""Exact point values: game points move in half-points, never in floats.

Game points (GP) and every value derived from them (Olympiad Sonneborn-Berger terms) are
``decimal.Decimal`` values that are whole multiples of 0.5. The canonical text form is the
shortest decimal: ``"2"``, ``"2.5"``, ``"46"``.
"""
from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer

HALF = Decimal("0.5")
ZERO = Decimal(0)
ONE = Decimal(1)


def to_points(value: Any) -> Decimal:
    """Parse a point value (``int``, ``str`` such as ``"2.5"`` or ``"½"``, ``Decimal``).

    Floats are accepted only when they are exact halves (``2.5``), since they come from JSON
    sources such as chess-results scrapes. Raises ``ValueError`` naming the rule
    "points are whole multiples of 1/2" otherwise.
    """
    if isinstance(value, Decimal):
        d = value
    elif isinstance(value, bool):
        raise ValueError("points must be a number, not a boolean")
    elif isinstance(value, int):
        d = Decimal(value)
    elif isinstance(value, float):
        d = Decimal(repr(value))
    elif isinstance(value, str):
        text = value.strip().replace("½", ".5")
        if text.startswith(".5"):
            text = "0" + text
        try:
            d = Decimal(text)
        except Exception as exc:  # decimal.InvalidOperation
            raise ValueError(f"not a point value: {value!r}") from exc
    else:
        raise ValueError(f"not a point value: {value!r}")
    if not d.is_finite() or (d * 2) % 1 != 0:
        raise ValueError(f"{value!r}: points are whole multiples of 1/2")
    return normalize(d)


def normalize(d: Decimal) -> Decimal:
    """Return ``d`` with no trailing zeros and no exponent (``Decimal('2.50')`` -> ``2.5``)."""
    if d == d.to_integral_value():
        return Decimal(int(d))
    return d.quantize(HALF) if d.as_tuple().exponent < -1 else d.normalize()


@lru_cache(maxsize=65536)
def fmt_points(d: Decimal | int) -> str:
    """Canonical text of a point value: ``"0"``, ``"2.5"``, ``"46"``.

    Cached: a standings document formats thousands of values drawn from a few hundred distinct
    ones (equal values, e.g. ``2`` and ``Decimal("2.0")``, share an entry and a text).
    """
    return format(Decimal(d).normalize(), "f")


Points = Annotated[
    Decimal,
    BeforeValidator(to_points),
    PlainSerializer(fmt_points, return_type=str, when_used="json"),
]
"""A pydantic field type for GP and GP-derived values: exact, serialised as a decimal string."""
