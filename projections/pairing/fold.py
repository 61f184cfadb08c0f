"""The 2008 pairing inside a group from round 3 on: "top v bottom" (spec R-W3, R-W4).

The first team of the ordered group meets the last, the second the second-last, and so on
(R-W3: the Burstein-type fold used at Dresden 2008). On a conflict the highest unpaired team
takes the lowest-ranked opponent it may meet such that the rest of the group can still be paired
(R-W4 [I], as bbpPairings' Burstein: "find the lowest player that preserves the matching").
"""
from __future__ import annotations

from typing import Sequence, TypeVar

T = TypeVar("T")


def fold_candidates(arranged: Sequence[T]) -> list[T]:
    """The opponents the first of ``arranged`` (ranking order) tries: the lowest-ranked first."""
    return list(arranged[:0:-1])
