"""Buchholz: the Olympiad's on match points (opponents' MP), and C.07's on MP or GP (and Fore Buchholz).

BH = sum of the opponents' MP; BH-C1 leaves out the cut-1 element, the opponent with the lowest
MP (founding document S1 tie-break b; spec R-T4, 6.2 worked example: BH-C1 = 26). Units: MP.
"""
from __future__ import annotations

from decimal import Decimal

from projections.standings.elements import Element
from projections.standings.modifiers import Term, modified_sum
from projections.standings.unplayed_rounds import RoundValue


def buchholz(elements: list[Element], cut: int | None = None) -> int:
    """Sum of ``opponent_mp`` over ``elements``, leaving out index ``cut`` (None: no cut)."""
    return sum(e.opponent_mp for i, e in enumerate(elements) if i != cut)


def c07_buchholz(values: list[RoundValue], cut: int = 0, median: int = 0) -> Decimal:
    """C.07 2026 art. 8.1 Buchholz (8.3 Fore Buchholz when ``values`` come from a fore
    ``UnplayedRounds``): the sum of the opponents' scores (MP or GP, as ``values`` were built), unplayed
    rounds per art. 16, with ``cut``/``median`` per art. 14 and 16.5. Units: the score's."""
    return modified_sum([Term(v.round, v.opponent_score, v.opponent_score, v.vur) for v in values], cut, median)[0]
