"""Matching questions of a pairing: "can the rest still be paired", and "how many pairings can a
score group keep while the rest can still be paired".

Teams are integers (their place in the pairing order), so every graph is built in the same order
on every run. A "yes" is backed by a witness matching: built greedily (from a hint, usually the
previous witness) and repaired by 2-step alternation. A "no", and every case the fast path cannot
settle, is answered by networkx (Edmonds' blossom algorithm, ``max_weight_matching``). The answers
are facts about the graphs, never about the witness, so the pairing does not depend on which
witness the fast path happened to find (determinism).

Used for: D.02 2022 art. 4.1 / spec R-B1 (the bye leaves the rest pairable), art. 8.4 / 9.5 and
spec R-F1 (a group keeps as many pairings as it can while the round stays pairable), art. 9.3 /
spec R-W2, R-W4, R-X1 ("the rest of the subgroup can still be paired").
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import networkx as nx

Compat = Callable[[int, int], bool]
Mate = dict[int, int]
_REPAIR_LIMIT = 16  # exposed nodes the 2-step repair tries; more is not a dense graph: networkx


def perfect_matching(nodes: Sequence[int], compat: Compat, hint: Mapping[int, int] | None = None) -> Mate | None:
    """A perfect matching of ``nodes`` over the pairs ``compat`` allows, as a mate map, or None.

    ``hint`` (a mate map, possibly of other nodes) seeds the greedy fast path. Exact: None means
    no perfect matching exists (checked by networkx).
    """
    if len(nodes) % 2:
        return None
    mate = _greedy(nodes, compat, hint)
    if len(mate) < len(nodes):
        _repair(nodes, compat, mate)
    if len(mate) == len(nodes):
        return mate
    mate = _exact(nodes, lambda a, b: 1 if compat(a, b) else 0)
    return mate if len(mate) == len(nodes) else None


def maximum_matching(nodes: Sequence[int], compat: Compat, hint: Mapping[int, int] | None = None) -> Mate:
    """A maximum matching of ``nodes`` over ``compat`` (mate map; unmatched nodes are absent)."""
    mate = _greedy(nodes, compat, hint)
    if len(mate) < len(nodes) - 1:
        _repair(nodes, compat, mate)
    if len(mate) >= len(nodes) - 1:
        return mate
    # With at most one exposed node that has any partner, no augmenting path exists: maximum.
    matchable = [v for v in nodes if v in mate or any(u != v and compat(v, u) for u in nodes)]
    if len(mate) >= len(matchable) - 1:
        return mate
    return _exact(matchable, lambda a, b: 1 if compat(a, b) else 0)


def best_kept(
    nodes: Sequence[int], members: Sequence[int], compat: Compat, kept: Compat, hint: Mapping[int, int] | None = None
) -> tuple[int, Mate] | None:
    """Of the perfect matchings of ``nodes`` over ``compat``, one with the most ``kept`` pairs.

    ``members`` (a subset of ``nodes``) is the group being paired; ``kept`` implies ``compat`` and
    is only asked of two members. Returns ``(number of kept pairs, mate map)``, or None when
    ``nodes`` cannot be perfectly matched.
    """
    inner = maximum_matching(members, kept, hint)
    rest = [v for v in nodes if v not in inner]
    outer = perfect_matching(rest, compat, hint)
    if outer is not None:
        # ``inner`` is a maximum matching of the kept pairs: no perfect matching keeps more.
        kept_pairs = len(inner) // 2
        inner.update(outer)
        return kept_pairs, inner
    inside = set(members)
    mate = _exact(nodes, lambda a, b: ((2 if a in inside and b in inside and kept(a, b) else 1) if compat(a, b) else 0))
    if len(mate) < len(nodes):
        return None
    return sum(1 for a, b in mate.items() if a < b and a in inside and b in inside and kept(a, b)), mate


def _greedy(nodes: Sequence[int], compat: Compat, hint: Mapping[int, int] | None) -> Mate:
    mate: Mate = {}
    if hint:
        inside = set(nodes)
        for a in nodes:
            b = hint.get(a)
            if b is not None and a not in mate and b in inside and b not in mate and compat(a, b):
                mate[a] = b
                mate[b] = a
    free = [v for v in nodes if v not in mate]
    for i, v in enumerate(free):
        if v in mate:
            continue
        for j in range(i + 1, len(free)):
            u = free[j]
            if u not in mate and compat(v, u):
                mate[v] = u
                mate[u] = v
                break
    return mate


def _repair(nodes: Sequence[int], compat: Compat, mate: Mate) -> None:
    """Match exposed pairs (u, v) through one matched pair (x, y): u-x, v-y (an augmenting path of
    length 3). Only tried for a few exposed nodes (the dense graphs of a Swiss); leaves ``mate``
    as it is where no such pair exists."""
    exposed = [v for v in nodes if v not in mate]
    if len(exposed) > _REPAIR_LIMIT:
        return
    while len(exposed) >= 2:
        found = _alternation(exposed, [v for v in nodes if v in mate], compat, mate)
        if found is None:
            return
        u, x, v, y = found
        mate[u], mate[x], mate[v], mate[y] = x, u, y, v
        exposed = [w for w in exposed if w not in mate]


def _alternation(exposed: list[int], matched: list[int], compat: Compat, mate: Mate) -> tuple[int, int, int, int] | None:
    for i, u in enumerate(exposed):
        for v in exposed[i + 1:]:
            for x in matched:
                y = mate[x]
                if compat(u, x) and compat(v, y):
                    return u, x, v, y
    return None


def _exact(nodes: Sequence[int], weight: Callable[[int, int], int]) -> Mate:
    """Maximum-cardinality matching of the largest total weight (networkx blossom); weight 0 = no pair."""
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            w = weight(a, b)
            if w:
                graph.add_edge(a, b, weight=w)
    mate: Mate = {}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        mate[a] = b
        mate[b] = a
    return mate


class GroupPlan:
    """The pairings a group can keep while every team not yet paired can still be paired.

    ``remainder`` is every team still to pair in the round (the group included), ``group`` the
    group's members; ``compat`` is "may meet" (no rematch, D.02 6.1 / spec R-P1) and ``kept`` the
    pairs that count for the group (both in it; inside the colour limits while they are observed).
    ``target`` is the number of pairings the group keeps (D.02 9.5, 8.4; spec R-F1).

    Raises ``NoLegalPairing`` (from ``__init__``) when the remainder cannot be paired at all.
    """

    def __init__(self, remainder: list[int], group: list[int], compat: Compat, kept: Compat, hint: Mapping[int, int] | None):
        self.remainder = list(remainder)
        self.group = set(group)
        self.compat = compat
        self._kept = kept
        result = best_kept(self.remainder, sorted(self.group), compat, self.kept, hint)
        if result is None:
            raise NoLegalPairing(f"the {len(self.remainder)} teams still to pair cannot all be paired")
        self.target, self.mate = result

    def kept(self, a: int, b: int) -> bool:
        """True if ``a`` v ``b`` is a pairing kept inside the group."""
        return a in self.group and b in self.group and self._kept(a, b)

    def allows_pair(self, a: int, b: int) -> bool:
        """True if pairing ``a`` v ``b`` in the group still lets the group keep ``target`` pairings."""
        if not self.kept(a, b):
            return False
        mate = self.mate
        if mate[a] == b:
            return True
        pa, pb = mate[a], mate[b]
        if self.compat(pa, pb) and 1 + self.kept(pa, pb) >= self.kept(a, pa) + self.kept(b, pb):
            mate[a], mate[b], mate[pa], mate[pb] = b, a, pb, pa
            return True
        rest = [v for v in self.remainder if v != a and v != b]
        saved = self.group
        self.group = saved - {a, b}
        result = best_kept(rest, sorted(self.group), self.compat, self.kept, mate)
        self.group = saved
        if result is None or result[0] != self.target - 1:
            return False
        self.mate = result[1]
        self.mate[a], self.mate[b] = b, a
        return True

    def fix_pair(self, a: int, b: int) -> None:
        """Record ``a`` v ``b`` (after ``allows_pair``) as paired."""
        self.remainder = [v for v in self.remainder if v != a and v != b]
        self.group -= {a, b}
        self.target -= 1
        del self.mate[a], self.mate[b]

    def allows_out(self, t: int) -> bool:
        """True if the group still keeps ``target`` pairings with ``t`` floated out of it."""
        mate = self.mate
        p = mate[t]
        if not self.kept(t, p):
            return True
        for x in sorted(self.group):
            y = mate[x]
            if x != t and x != p and not self.kept(x, y) and self.kept(p, x) and self.compat(t, y):
                mate[p], mate[x], mate[t], mate[y] = x, p, y, t
                return True
        saved = self.group
        self.group = saved - {t}
        result = best_kept(self.remainder, sorted(self.group), self.compat, self.kept, mate)
        self.group = saved
        if result is None or result[0] != self.target:
            return False
        self.mate = result[1]
        return True

    def force_out(self, t: int) -> None:
        """Float ``t`` out of the group (after ``allows_out``, or as an incoming floater no team takes)."""
        self.group.discard(t)


class NoLegalPairing(ValueError):
    """No legal pairing exists; the message names the constraint that cannot be met."""


def can_still_pair(teams: Sequence[int], compat: Compat, witness: Mate, a: int, b: int) -> bool:
    """True if ``teams`` without ``a`` and ``b`` can be perfectly matched over ``compat``.

    ``witness`` is a perfect matching of ``teams``; it is updated in place when the answer is yes
    (so the next question starts from a matching that contains ``a`` v ``b``).
    """
    pa, pb = witness[a], witness[b]
    if pa == b:
        return True
    if compat(pa, pb):
        witness[a], witness[b], witness[pa], witness[pb] = b, a, pb, pa
        return True
    rest = [v for v in teams if v != a and v != b]
    found = perfect_matching(rest, compat, witness)
    if found is None:
        return False
    witness.clear()
    witness.update(found)
    witness[a], witness[b] = b, a
    return True

