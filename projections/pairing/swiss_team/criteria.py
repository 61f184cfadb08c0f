"""The quality criteria a pair carries, and the pairing of one bracket (C.04.6 art. 2.3, 3.6).

A bracket is the top scoregroup and its upfloaters (art. 1.3.2); a team of it is an upfloater
when its score is below the bracket's score. Per pair:
- [C8] art. 2.3.5: the two teams prefer the same colour (one of them will not get it);
- [C9] art. 2.3.6, Type B only: and both preferences are strong;
- [C10] art. 2.3.7, not in the last two rounds: for each upfloater of the pair, its opponent
  floated in the previous round.

Art. 3.6: in each pair the team with the smaller TPN is the top member; a pairing's identifier
is its top members' TPNs in ascending order followed by its bottom members' TPNs in the order of
their top members; the bracket's pairing is the first identifier, in lexicographic order, among
the pairings without a rematch ([C1]) that minimise [C8], then [C9], then [C10].
"""
from __future__ import annotations

from decimal import Decimal
from typing import Callable, Sequence

import networkx as nx

from projections.pairing.matching import can_still_pair, perfect_matching
from projections.pairing.swiss_team.teams import SwissTeam

Compat = Callable[[int, int], bool]


def pair_costs(a: SwissTeam, b: SwissTeam, level: Decimal, typeb: bool, floats_count: bool) -> tuple[int, int, int]:
    """``([C8], [C9], [C10])`` of the pair ``a`` v ``b`` in a bracket of score ``level``.

    ``floats_count``: [C10] applies (not one of the last two rounds, art. 2.3.7).
    """
    same = a.preference.colour is not None and a.preference.colour == b.preference.colour
    c9 = 1 if typeb and same and a.preference.strong and b.preference.strong else 0
    c10 = 0
    if floats_count:
        c10 = (b.floated if a.score < level else 0) + (a.floated if b.score < level else 0)
    return int(same), c9, c10


def pair_bracket(members: Sequence[SwissTeam], level: Decimal, compat: Compat, typeb: bool,
                 floats_count: bool) -> list[tuple[SwissTeam, SwissTeam]] | None:
    """The pairing of a bracket by art. 3.6 as ``[(top, bottom), ...]`` in top-member order, or
    None when the bracket has no pairing without a rematch.

    When some pairing without a rematch reaches the least cost a bracket can have (the usual
    case), the first identifier among those is built team by team (``first_identifier``);
    otherwise one minimum-cost perfect matching answers it (``_cheapest``).
    """
    teams = sorted(members, key=lambda s: s.tpn)
    if len(teams) % 2:
        return None
    # The least cost a pairing can have: no [C9] or [C10] cost, and [C8] only as the colour more
    # than half the bracket wants forces it (k teams of 2h wanting it: at least k - h pairs of them).
    # The pairings that reach it are exactly the perfect matchings over the pairs without [C9]
    # or [C10] cost that are not two teams both wanting the other colour or none (the counting
    # then leaves k - h pairs wanting the forced colour), so the first identifier among those
    # is the bracket's pairing when there is one.
    wants = [t.preference.colour for t in teams]
    forced = next((c for c in ("W", "B") if wants.count(c) > len(teams) // 2), None)
    free = [[False] * len(teams) for _ in teams]
    for i, a in enumerate(teams):
        for j in range(i + 1, len(teams)):
            b = teams[j]
            if compat(a.tpn, b.tpn):
                c8, c9, c10 = pair_costs(a, b, level, typeb, floats_count)
                free[i][j] = free[j][i] = not c9 and not c10 and (not c8 or wants[i] == forced) and (
                    forced is None or forced in (wants[i], wants[j]))
    mate = first_identifier(len(teams), lambda i, j: free[i][j])
    if mate is None:
        if perfect_matching(list(range(len(teams))), lambda i, j: compat(teams[i].tpn, teams[j].tpn)) is None:
            return None
        mate = _cheapest(teams, level, compat, typeb, floats_count)
    return [(teams[i], teams[j]) for i, j in sorted(mate.items()) if i < j]


def first_identifier(size: int, allowed: Callable[[int, int], bool]) -> dict[int, int] | None:
    """The perfect matching of bracket positions ``0..size-1`` over the ``allowed`` pairs whose
    art. 3.6.2 identifier comes first, as a mate map; None if there is no perfect matching.

    The identifier lists the top members first, so position after position (lowest first) a
    team is made a top member (its opponent comes later) whenever some perfect matching still
    allows it: a top member at an earlier position makes a smaller identifier whatever follows.
    With the top members fixed, each top member in turn takes the earliest bottom member that
    leaves the rest perfectly matchable.
    """
    nodes = list(range(size))
    role: dict[int, bool] = {}  # position -> True: top member, False: bottom member

    def oriented(i: int, j: int) -> bool:
        lo, hi = (i, j) if i < j else (j, i)
        return allowed(lo, hi) and role.get(lo, True) and not role.get(hi, False)

    witness = perfect_matching(nodes, oriented)
    if witness is None:
        return None
    tops = 0
    for p in nodes:
        if tops == size // 2:  # every top member is known: the rest are bottom members
            role[p] = False
            continue
        role[p] = True
        if witness[p] > p:
            tops += 1
            continue
        if not any(oriented(p, q) for q in range(p + 1, size)):
            role[p] = False
            continue
        found = perfect_matching(nodes, oriented, witness)
        if found is None:
            role[p] = False
        else:
            witness = found
            tops += 1
    mate: dict[int, int] = {}
    rest = list(nodes)
    for p in nodes:
        if not role[p] or p in mate:
            continue
        for q in range(p + 1, size):
            if q in mate or role[q] or not oriented(p, q):
                continue
            if witness[p] == q or can_still_pair(rest, oriented, witness, p, q):
                mate[p], mate[q] = q, p
                rest = [v for v in rest if v != p and v != q]
                break
    return mate


def _cheapest(teams: list[SwissTeam], level: Decimal, compat: Compat, typeb: bool, floats_count: bool) -> dict[int, int]:
    """The cheapest perfect matching of a pairable bracket (positions in TPN order), the criteria
    and the identifier encoded as digits of one integer cost per pair.

    Cost of a pair (top at bracket position t, bottom at b; positions 1..B): the sum over the
    pairs of a pairing compares as the tuple ([C8], [C9], [C10], top members, bottom members).
    Bottom members: b * R**(B - t) with R = B + 1, a base-R number whose digits are the bottom
    positions in the order of their tops (every digit < R). Top members: a bottom member at
    position b costs 2**(B - b) units of R**B, so the fewer early positions are bottom members,
    the smaller. Each criterion's unit exceeds everything below it: [C10] counts at most B,
    [C9] and [C8] at most B/2.
    """
    size = len(teams)
    radix = size + 1
    unit_top = radix ** size
    unit_c10 = unit_top * 2 ** size
    unit_c9 = unit_c10 * radix
    unit_c8 = unit_c9 * radix
    costs = {}
    for i in range(size):
        for j in range(i + 1, size):
            a, b = teams[i], teams[j]
            if compat(a.tpn, b.tpn):
                c8, c9, c10 = pair_costs(a, b, level, typeb, floats_count)
                costs[(i, j)] = (c8 * unit_c8 + c9 * unit_c9 + c10 * unit_c10 + unit_top * 2 ** (size - j - 1)
                                 + (j + 1) * radix ** (size - i - 1))
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    for (i, j), cost in costs.items():
        graph.add_edge(i, j, weight=ceiling - cost)
    # Every perfect matching has B/2 pairs: the heaviest of maximum cardinality is the cheapest.
    mate: dict[int, int] = {}
    for i, j in nx.max_weight_matching(graph, maxcardinality=True):
        mate[i], mate[j] = j, i
    return mate
