"""Cut-1: the one element a "-C1" tie-break leaves out.

Founding document (S1) and spec R-T2: drop the term of the opponent with the lowest MP; if
several opponents share the lowest MP, drop the smallest of their terms (C.07 2024 art. 14.1.2).
A round without an opponent is the lowest element when the unplayed policy values it at 0
(spec README Samarkand 7). Cut-1 applies from round 1: with one element, nothing is left.
"""
from __future__ import annotations

from projections.standings.elements import Element


def cut_index(elements: list[Element]) -> int | None:
    """Index of the element cut-1 removes: lowest ``opponent_mp``, then smallest ``osb_term``,
    then the earliest round (so the choice is deterministic). None for an empty list."""
    if not elements:
        return None
    return min(range(len(elements)), key=lambda i: (elements[i].opponent_mp, elements[i].osb_term, elements[i].round))
