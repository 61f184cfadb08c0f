"""Olympiad Sonneborn-Berger (OSB; C.07 calls the uncut sum EMGSB).

OSB = sum over the team's rounds of (opponent's MP x the team's GP in that match);
OSB-C1 leaves out the cut-1 element (founding document S1 tie-break a; spec R-T2, 6.2 worked
example: OSB-C1 = 46). Units: MP x GP, a multiple of 1/2.
"""
from __future__ import annotations

from decimal import Decimal

from projections.standings.elements import Element
from schemas.points import ZERO


def olympiad_sonneborn_berger(elements: list[Element], cut: int | None = None) -> Decimal:
    """Sum of ``osb_term`` over ``elements``, leaving out index ``cut`` (None: no cut)."""
    return sum((e.osb_term for i, e in enumerate(elements) if i != cut), ZERO)
