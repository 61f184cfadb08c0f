"""Buchholz on match points (opponents' MP).

BH = sum of the opponents' MP; BH-C1 leaves out the cut-1 element, the opponent with the lowest
MP (founding document S1 tie-break b; spec R-T4, 6.2 worked example: BH-C1 = 26). Units: MP.
"""
from __future__ import annotations

from projections.standings.elements import Element


def buchholz(elements: list[Element], cut: int | None = None) -> int:
    """Sum of ``opponent_mp`` over ``elements``, leaving out index ``cut`` (None: no cut)."""
    return sum(e.opponent_mp for i, e in enumerate(elements) if i != cut)
