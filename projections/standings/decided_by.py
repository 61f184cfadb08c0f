""""Decided by": for two neighbouring rows of a standings table, the first key that separates them.

Keys in the standings order (R-T1; C.07 2026 art. 4.2): the primary score (``MP``, or ``GP`` when
the profile makes game points primary: C.04.6 art. 1.2), then the profile's tie-breaks in turn; two rows equal on every key share the place (R-T5), which is ``SHARED``, the pairing number
only listing them. The first row has nothing above it (None). Rows from ``compute_standings``
(``decided_by``) and rows of a standings document (``decided_by_documents``: values compared as their
canonical texts, which are equal exactly when the values are) give the same list.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from projections.standings.ranking import StandingRow

SHARED = "equal on every key, shared place"


def _first_difference(above: tuple, below: tuple, names: Sequence[str]) -> str:
    for name, a, b in zip(names, above, below):
        if a != b:
            return name
    return SHARED


def decided_by(rows: Sequence[StandingRow], tiebreaks: Sequence[str], primary: str = "MP") -> list[str | None]:
    """Per row of ``rows`` (rank order): the key that puts it below the row above, ``SHARED``, or None
    for the first row. ``primary``: "MP" or "GP" (``RuleProfile.primary_score`` upper case)."""
    names = (primary, *tiebreaks)
    keys = [(r.gp if primary == "GP" else r.mp, *(r.tiebreaks[t] for t in tiebreaks)) for r in rows]
    return [None] + [_first_difference(a, b, names) for a, b in zip(keys, keys[1:])]


def decided_by_documents(rows: Sequence[Mapping[str, Any]], tiebreaks: Sequence[str], primary: str = "MP") -> list[str | None]:
    """``decided_by`` of standings document rows (``StandingRow.as_dict`` form)."""
    return [None] + [first_difference(a, b, tiebreaks, primary) for a, b in zip(rows, rows[1:])]


def first_difference(above: Mapping[str, Any], below: Mapping[str, Any], tiebreaks: Sequence[str], primary: str = "MP") -> str:
    """The first key (the primary score ``MP`` or ``GP``, then ``tiebreaks`` in turn) on which two
    standings document rows differ, or ``SHARED``: for neighbouring rows, the ``decided_by`` of the
    lower one."""
    def key(r: Mapping[str, Any]) -> tuple:
        return (r[primary.lower()], *(r["tiebreaks"][t] for t in tiebreaks))

    return _first_difference(key(above), key(below), (primary, *tiebreaks))
