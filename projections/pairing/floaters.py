"""Pairing one score group with its floaters.

The group is its residents plus the floaters moved into it (R-G1, D.02 2022 art. 6.3, 8.1):
1. The group keeps as many pairings as it can while every team still to pair stays pairable
   (D.02 9.5, 8.4; spec R-F1 "the rest pairable"), asked of the whole round (``GroupPlan``).
   Colour limits (R-C3) are observed unless that keeps fewer pairings (D.02 7.4, spec R-C3).
2. Each incoming floater is paired first (spec R-F2, D.02 8.2.1/8.3.1) with the first team it may
   meet, in this order: from above, the highest-ranked resident (the lowest-ranked in the 2008 fold
   rounds, ``fold_floater_meets``); from below, the lowest-ranked resident; then other floaters.
   A floater no team can take moves on (D.02 8.2.4, 8.3.4).
3. The teams the group cannot keep float on (R-F1, R-F3, R-F4; D.02 8.2.2-8.2.3, 8.3.2-8.3.3,
   9.4): a team that may meet someone of the next group first; among those, downward the
   lowest-ranked, upward the highest-ranked, whose float still lets the group keep its pairings.
4. The rest is paired by the group method (``projections.pairing.subgroup``).
"""
from __future__ import annotations

from dataclasses import dataclass

from projections.pairing.constraints import Constraints
from projections.pairing.matching import GroupPlan, Mate, NoLegalPairing
from projections.pairing.score_groups import DOWN, GroupStep
from projections.pairing.subgroup import pair_subgroup
from projections.pairing.trace import Rule, Trace, teams

RULE_GROUP = Rule("spec R-G1, R-F1, R-C3", "art. 6.3, 7.4, 9.5")
RULE_IN = Rule("spec R-F2, R-F3", "art. 8.2.1, 8.3.1")
RULE_OUT = Rule("spec R-F1, R-F3, R-F4", "art. 8.2.2-8.2.4, 8.3.2-8.3.4, 9.4")


@dataclass(frozen=True)
class GroupMethod:
    """How a group is paired in this round: ``method`` ("exchange", "fold", "split") and whom a
    floater from above meets first (``"highest"`` or ``"lowest"`` resident)."""

    method: str
    from_above_meets: str


@dataclass
class GroupResult:
    """The pairs a group made (``(first, second)`` places) and the floaters it passes on."""

    pairs: list[tuple[int, int]]
    floaters: list[int]
    hint: Mate


def pair_group(
    step: GroupStep, incoming: list[int], remainder: list[int], hint: Mate,
    how: GroupMethod, cons: Constraints, trace: Trace, label: str,
) -> GroupResult:
    """Pair ``step``'s residents with the ``incoming`` floaters (in the order they are paired).

    ``remainder``: every team still to pair in the round (this group included); ``hint``: a
    perfect matching of it (speeds up the matching questions). Raises ``NoLegalPairing`` when the
    remainder cannot be paired.
    """
    names = cons.names
    residents = list(step.members)
    members = incoming + residents
    plan, observed = _plan(remainder, members, hint, cons)
    limits = "colour limits observed" if observed else (
        "colour limits dropped: they would keep fewer pairings" if cons.limits_bind(members) else "no colour limit binds")
    incoming_text = f"; incoming floaters {', '.join(names[f] for f in incoming)}" if incoming else ""
    trace.add(RULE_GROUP, tuple(names[p] for p in members),
              f"{label}: {teams(len(residents))} ({', '.join(names[p] for p in residents)}){incoming_text}; "
              f"{limits}; keeps {plan.target} pairing{'' if plan.target == 1 else 's'}")
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    staying = list(members)
    for f in incoming:
        if f not in staying:
            continue  # already taken by an earlier floater
        from_above = f < step.members[0]  # places are in pairing order: above = higher ranked
        order = _floater_candidates(f, residents, incoming, set(staying), from_above, how.from_above_meets)
        skipped = []
        for c in order:
            if plan.allows_pair(f, c):
                plan.fix_pair(f, c)
                pairs.append((f, c))
                staying.remove(f)
                staying.remove(c)
                why = f"; skipped {', '.join(skipped)}" if skipped else ""
                side = "above" if from_above else "below"
                trace.add(RULE_IN, (names[f], names[c]), f"{label}: floater {names[f]} (from {side}) v {names[c]}{why}")
                break
            skipped.append(f"{names[c]} ({cons.why_not(f, c) if not plan.kept(f, c) else 'the group would keep fewer pairings'})")
        else:
            plan.force_out(f)
            floaters.append(f)
            staying.remove(f)
            trace.add(RULE_OUT, (names[f],), f"{label}: no team can take floater {names[f]}; it moves on")
    needed = len(staying) - 2 * plan.target
    if needed:
        adjacent = step.adjacent
        def preference(t: int) -> tuple[bool, int]:
            return (not any(cons.may_meet(t, a) for a in adjacent), -t if step.direction == DOWN else t)
        for _ in range(needed):
            passed = []
            for t in sorted(staying, key=preference):
                if plan.allows_out(t):
                    break
                passed.append(names[t])
            else:
                raise NoLegalPairing(f"{trace.cite(RULE_OUT)}: no floater of {label} leaves the round pairable")
            plan.force_out(t)
            floaters.append(t)
            staying.remove(t)
            why = f"; not {', '.join(passed)} (the group would keep fewer pairings)" if passed else ""
            reach = "" if not adjacent or any(cons.may_meet(t, a) for a in adjacent) else "; it has met every team of the next group"
            trace.add(RULE_OUT, (names[t],), f"{label}: {names[t]} floats {step.direction}{reach}{why}")
    arranged = sorted(staying) if step.direction == DOWN else sorted(staying, reverse=True)
    witness = {p: plan.mate[p] for p in arranged}
    pairs += pair_subgroup(arranged, how.method, plan.kept, witness, cons, trace, label)
    paired = {p for pair in pairs for p in pair}
    rest_hint = {a: b for a, b in plan.mate.items() if a not in paired}
    return GroupResult(pairs, floaters, rest_hint)


def _plan(remainder: list[int], members: list[int], hint: Mate, cons: Constraints) -> tuple[GroupPlan, bool]:
    """The group's plan, and whether colour limits are observed (D.02 7.4: dropped only when
    observing them keeps fewer pairings)."""
    free = GroupPlan(remainder, members, cons.may_meet, cons.may_meet, hint)
    if cons.absolute or not cons.limits_bind(members):
        return free, cons.absolute
    limited = GroupPlan(remainder, members, cons.may_meet, cons.within_limits, free.mate)
    return (limited, True) if limited.target >= free.target else (free, False)


def _floater_candidates(
    f: int, residents: list[int], incoming: list[int], staying: set[int], from_above: bool, meets: str
) -> list[int]:
    # Residents first, then the other floaters (D.02 6.2), each in the order the floater tries them.
    lowest_first = not from_above or meets == "lowest"
    def arrange(teams: list[int]) -> list[int]:
        inside = [t for t in teams if t in staying and t != f]
        return sorted(inside, reverse=lowest_first)
    return arrange(residents) + arrange(incoming)
