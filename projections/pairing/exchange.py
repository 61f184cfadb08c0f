"""The exchange order inside a group (spec R-X1; FIDE D.02 2022 art. 9.3).

With 2N teams arranged in priority order, the first tries opponents N+1, N+2, ..., 2N, then N,
N-1, ..., 2, and takes the first that leaves the rest pairable; the rest (2N-2 teams, re-split
into halves) is paired the same way. The printed text says "N-1, N-2" after 2N; its own six-team
table tries 3 before 2, as here (spec R-X1 note). Below the median group the arrangement is the
reversed ranking (D.02 9.2: the lowest-ranked team chooses first), done by the caller.
"""
from __future__ import annotations

from typing import Iterator, Sequence, TypeVar

T = TypeVar("T")


def exchange_candidates(arranged: Sequence[T]) -> list[T]:
    """The opponents the first of ``arranged`` (an even number of teams, priority order) tries, in order."""
    half = len(arranged) // 2
    return list(arranged[half:]) + list(arranged[half - 1:0:-1])


def all_in_exchange_order(arranged: Sequence[T]) -> Iterator[list[tuple[T, T]]]:
    """Every complete pairing of ``arranged`` in the order R-X1 tries them (the 15 rows for six
    teams: 1-4 2-5 3-6, 1-4 2-6 3-5, 1-4 2-3 5-6, 1-5 2-4 3-6, ...)."""
    if not arranged:
        yield []
        return
    first = arranged[0]
    for opponent in exchange_candidates(arranged):
        rest = [t for t in arranged[1:] if t != opponent]
        for tail in all_in_exchange_order(rest):
            yield [(first, opponent), *tail]
