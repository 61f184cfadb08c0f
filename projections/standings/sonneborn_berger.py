"""Sonneborn-Berger: the Olympiad's (OSB; C.07 calls the uncut sum EMGSB) and C.07's Extended SB family.

OSB = sum over the team's rounds of (opponent's MP x the team's GP in that match);
OSB-C1 leaves out the cut-1 element (founding document S1 tie-break a; spec R-T2, 6.2 worked
example: OSB-C1 = 46). Units: MP x GP, a multiple of 1/2.
"""
from __future__ import annotations

from decimal import Decimal

from projections.standings.elements import Element
from projections.standings.modifiers import Term, modified_sum
from projections.standings.unplayed_rounds import RoundValue, Score
from schemas.points import ZERO


def olympiad_sonneborn_berger(elements: list[Element], cut: int | None = None) -> Decimal:
    """Sum of ``osb_term`` over ``elements``, leaving out index ``cut`` (None: no cut)."""
    return sum((e.osb_term for i, e in enumerate(elements) if i != cut), ZERO)


def extended_sonneborn_berger(values: list[RoundValue], own: Score, cut: int = 0, median: int = 0) -> Decimal:
    """C.07 2026 art. 13.2 Extended Sonneborn-Berger: the sum over rounds of the opponent's score (MP
    for EMMSB/EMGSB, GP for EGMSB/EGGSB, as ``values`` were built) x the team's own ``own`` score (MP or
    GP) in that round; unplayed rounds per art. 16 (a dummy's score x the points awarded); ``cut`` and
    ``median`` per art. 14.1.2 and 16.5. EMGSB under the ``zero-element`` policy is the Olympiad OSB."""
    terms = [Term(v.round, v.opponent_score, v.opponent_score * v.own(own), v.vur) for v in values]
    return modified_sum(terms, cut, median)[0]
