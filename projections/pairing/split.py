"""The 2008 pairing inside a group in rounds 1-2: S1 v S2 (spec R-W1, R-W2).

The ordered group of 2k teams is split into S1 (the first k) and S2 (the last k) and S1[i] meets
S2[i] (R-W1; founding document: 1-31 ... 30-60). On a conflict, S2 is transposed in lexicographic
order (R-W2 [I], Dutch-style): the first transposition whose pairs are all legal. That is S1[i]
taking, in turn, the first S2 team it may meet such that the rest of S1 can still meet the rest of
S2, which is how it is computed (``projections.pairing.subgroup``).
"""
from __future__ import annotations

from typing import Sequence, TypeVar

T = TypeVar("T")


def split_halves(arranged: Sequence[T]) -> tuple[list[T], list[T]]:
    """``(S1, S2)`` of an even-sized ordered group."""
    half = len(arranged) // 2
    return list(arranged[:half]), list(arranged[half:])


def s2_candidates(remaining: Sequence[T], s2: set[T]) -> list[T]:
    """The opponents the first of ``remaining`` (an S1 team) tries: the S2 teams left, in S2 order."""
    return [t for t in remaining if t in s2]
