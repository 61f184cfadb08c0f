"""C.07 (2026) art. 14 modifiers of a sum tie-break, with the art. 16.5 exception for VURs.

- Cut-n (14.1, 14.2): drop the n least significant values; Median-n (14.3, 14.4): drop the n least and
  the n most significant. Significance is the opponent's score, then the value (14.1.1 SB-C1 and 14.1.2
  ESB-C1: among opponents tied on the lowest score, the lowest product); for Buchholz both are the
  opponent's score.
- 16.5: a team with voluntarily unplayed rounds has its lowest VUR contribution cut instead of the
  least significant value, as long as that contribution is not lower than the least significant value
  (16.5.1); repeated for each further cut (16.5.2). The high end has no exception.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from schemas.points import ZERO


@dataclass(frozen=True)
class Term:
    """One value of a sum: ``score`` (the opponent's, for significance), ``value`` (what is summed),
    ``vur`` (from a voluntarily unplayed round), ``round``."""

    round: int
    score: Decimal
    value: Decimal
    vur: bool


def modified_sum(terms: list[Term], cut: int = 0, median: int = 0) -> tuple[Decimal, list[int]]:
    """(sum of ``terms`` after ``cut`` low cuts, or ``median`` low and high cuts; the rounds cut)."""
    kept = list(terms)
    removed: list[int] = []
    for _ in range(cut + median):
        if not kept:
            break
        least = min(kept, key=lambda t: (t.score, t.value, t.round))
        vurs = [t for t in kept if t.vur]
        lowest_vur = min(vurs, key=lambda t: (t.value, t.score, t.round)) if vurs else None
        drop = lowest_vur if lowest_vur is not None and lowest_vur.value >= least.value else least
        kept.remove(drop)
        removed.append(drop.round)
    for _ in range(median):
        if not kept:
            break
        most = max(kept, key=lambda t: (t.score, t.value, -t.round))
        kept.remove(most)
        removed.append(most.round)
    return sum((t.value for t in kept), ZERO), removed
