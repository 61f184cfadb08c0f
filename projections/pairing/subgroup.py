"""Pairing the teams that stay in a group: the first team in priority order takes the first
opponent, in the method's order, such that the rest can still be paired; the rest is paired the
same way (D.02 2022 art. 9.3 "or the subgroup is unsolvable"; spec R-W2, R-W4, R-X1).

Methods: ``"exchange"`` (R-X1, ``projections.pairing.exchange``), ``"fold"`` (R-W3/R-W4,
``projections.pairing.fold``), ``"split"`` (R-W1/R-W2, ``projections.pairing.split``; if no S2
transposition is legal at all, the R-X1 exchanges across the halves are used, spec R-W2 [I]).
"""
from __future__ import annotations

from projections.pairing.constraints import Constraints
from projections.pairing.exchange import exchange_candidates
from projections.pairing.fold import fold_candidates
from projections.pairing.matching import Compat, Mate, NoLegalPairing, can_still_pair, perfect_matching
from projections.pairing.split import s2_candidates, split_halves
from projections.pairing.trace import Rule, Trace

RULES = {"exchange": Rule("spec R-X1", "art. 9.3"), "fold": Rule("spec R-W3, R-W4"),
         "split": Rule("spec R-W1, R-W2")}


def pair_subgroup(
    arranged: list[int], method: str, kept: Compat, witness: Mate, cons: Constraints, trace: Trace, label: str
) -> list[tuple[int, int]]:
    """Pair every team of ``arranged`` (places in priority order; an even number, perfectly
    matchable over ``kept``, ``witness`` being such a matching) and return the pairs in the order
    they were made, each ``(chooser, opponent)``.

    Raises ``NoLegalPairing`` if a team has no opponent that leaves the rest pairable (only
    possible when ``witness`` was not a perfect matching of ``arranged``).
    """
    names = cons.names
    if method == "split":
        s1, s2 = split_halves(arranged)
        cross = _across(kept, set(s1))
        bipartite = perfect_matching(arranged, cross, witness)
        if bipartite is None:
            trace.add(RULES["split"], tuple(names[p] for p in arranged),
                      f"{label}: no transposition of S2 gives legal pairs only; exchanges across S1 and S2 in the R-X1 order")
            method = "exchange"
        else:
            kept, witness, s2set = cross, bipartite, set(s2)
    rule = RULES[method]
    remaining = list(arranged)
    witness = {p: witness[p] for p in arranged}
    pairs = []
    while remaining:
        first = remaining[0]
        if method == "exchange":
            candidates = exchange_candidates(remaining)
        elif method == "fold":
            candidates = fold_candidates(remaining)
        else:
            candidates = s2_candidates(remaining, s2set)
        skipped = []
        for n, c in enumerate(candidates, start=1):
            if not kept(first, c):
                skipped.append(f"{names[c]} ({cons.why_not(first, c)})")
            elif can_still_pair(remaining, kept, witness, first, c):
                break
            else:
                skipped.append(f"{names[c]} (the rest could not be paired)")
        else:
            raise NoLegalPairing(f"{trace.cite(rule)}: {names[first]} has no opponent in {label} that leaves the rest "
                                 "pairable")
        why = f"; skipped {', '.join(skipped)}" if skipped else ""
        trace.add(rule, (names[first], names[c]),
                  f"{label}: {names[first]} v {names[c]} ({method} order, candidate {n} of {len(candidates)}{why})")
        pairs.append((first, c))
        remaining.remove(first)
        remaining.remove(c)
        del witness[first], witness[c]
    return pairs


def _across(kept: Compat, s1: set[int]) -> Compat:
    """``kept`` restricted to pairs with one team in S1 and one in S2."""
    def cross(a: int, b: int) -> bool:
        return (a in s1) != (b in s1) and kept(a, b)
    return cross
