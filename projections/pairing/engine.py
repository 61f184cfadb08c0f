"""The pairing engine: the proposed pairing of the next round, as a pure function of the history.

``propose_d02(history, profile, round)`` (FIDE D.02, the Olympiad rules; the registry
``projections.pairing.systems`` hands it every profile without ``swiss_team``) runs the steps of
the profile in order:
entrants and pairing order (``entrants``, ``score_groups``, ``acceleration``), the bye (``bye``),
the score groups in processing order with their floaters (``floaters``, ``subgroup``), board-1
colours (``colours``) and the publication order (``publication``); every decision is traced
(``trace``). Same history and profile, same pairing and trace, byte for byte.
"""
from __future__ import annotations

from typing import Iterable

from projections.history import History
from projections.pairing.bye import choose_bye
from projections.pairing.colours import BLACK, WHITE, allocate
from projections.pairing.constraints import Constraints
from projections.pairing.entrants import Entrant, build_entrants
from projections.pairing.floaters import GroupMethod, pair_group
from projections.pairing.matching import NoLegalPairing
from projections.pairing.publication import publication_key
from projections.pairing.score_groups import DOWN, describe_order, processing_order
from projections.pairing.proposed import Pairing
from projections.pairing.trace import Rule, Trace
from schemas.events import Table
from schemas.profile import RuleProfile


def propose_d02(history: History, profile: RuleProfile, rnd: int, absent: Iterable[str] = ()) -> Pairing:
    """Pair round ``rnd`` from ``history`` (rounds 1..rnd-1, all complete) under ``profile`` by FIDE D.02.

    ``absent``: teams known not to play ``rnd`` (withdrawn teams are left out anyway).
    Callers pair through ``projections.pairing.systems.propose_pairing``, which picks the system.
    Raises ``ValueError`` for an unusable history, and
    ``projections.pairing.matching.NoLegalPairing`` naming the rule that cannot be met when no
    legal pairing exists.
    """
    absent = tuple(sorted(set(absent)))
    trace = Trace(profile.pairing_source)
    entrants = build_entrants(history, profile, rnd, absent)
    names = [e.team_id for e in entrants]
    rule, text = describe_order(profile, rnd)
    waiting = [t for t, info in history.teams.items() if info.entered > rnd]
    trace.add(rule, (), f"round {rnd}, profile {profile.name}: {len(entrants)} teams to pair"
              + (f" (absent: {', '.join(absent)})" if absent else "")
              + (f" (not yet entered: {', '.join(waiting)})" if waiting else "") + f"; {text}")
    accelerated = [e.team_id for e in entrants if e.imaginary]
    if accelerated:
        trace.add(Rule("spec R-A1, R-A2, R-A3"), tuple(accelerated),
                  f"imaginary MP (+{profile.acceleration_mp}, pairing score only): {', '.join(accelerated)}")
    cons = Constraints(entrants, profile)
    bye, hint = choose_bye(entrants, cons.may_meet, trace, cons.rule)
    to_pair = [e for e in entrants if e.place != bye]
    steps = processing_order([(e.place, e.score) for e in to_pair], profile.group_order, profile.median_sides)
    how = _group_method(profile, rnd)
    remainder = [e.place for e in to_pair]
    carried = {DOWN: [], "up": []}
    pairs: list[tuple[int, int]] = []
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if last and profile.group_order == "median-first":
            incoming = sorted(carried[DOWN]) + sorted(carried["up"], reverse=True)
        else:
            incoming = sorted(carried[step.direction], reverse=step.direction != DOWN)
        label = f"group {step.score}" + (" (pairing score)" if accelerated and rnd <= profile.acceleration_rounds else " MP")
        result = pair_group(step, incoming, remainder, hint, how, cons, trace, label)
        carried[step.direction] = result.floaters
        if last and result.floaters:  # GroupPlan keeps the round pairable, so this cannot happen
            raise NoLegalPairing(f"{label}, the last group, left {len(result.floaters)} teams unpaired")
        done = {p for pair in result.pairs for p in pair}
        remainder = [p for p in remainder if p not in done]
        hint = result.hint
        pairs += result.pairs
    tables = _tables(pairs, entrants, profile, trace)
    return Pairing(rnd, profile.name, tables, names[bye] if bye is not None else None, absent, tuple(trace.lines))


def _group_method(profile: RuleProfile, rnd: int) -> GroupMethod:
    if profile.group_pairing == "exchange-2022":
        return GroupMethod("exchange", "highest")
    if rnd < profile.fold_from_round:
        return GroupMethod("split" if profile.early_round_conflicts == "s2-transpositions" else "exchange", "highest")
    return GroupMethod("fold", profile.fold_floater_meets)


def _tables(pairs: list[tuple[int, int]], entrants: list[Entrant], profile: RuleProfile, trace: Trace) -> tuple[Table, ...]:
    order = sorted(
        ((entrants[min(a, b)], entrants[max(a, b)]) for a, b in pairs),
        key=lambda hl: publication_key(profile.publication_order, *hl),
    )
    tables = []
    for n, (higher, lower) in enumerate(order, start=1):
        home, away, rule, why = board_one(higher, lower, n, profile)
        tables.append(Table(table=n, home=home.team_id, away=away.team_id))
        trace.add(rule, (home.team_id, away.team_id),
                  f"table {n}: {home.team_id} - {away.team_id} ({home.team_id} White on board 1: {why})")
    return tuple(tables)


def board_one(higher: Entrant, lower: Entrant, table: int, profile: RuleProfile) -> tuple[Entrant, Entrant, str, str]:
    """``(home, away, rule, reason)`` of a pair at ``table``: home has White on board 1 (R-C1, R-C2)."""
    lot = WHITE if profile.first_colour == "white" else BLACK
    parity = higher.pairing_number if profile.first_round_colours == "pairing-number" else table
    colour, rule, why = allocate(higher.colours, lower.colours, parity, lot)
    cited = rule.cite(profile.pairing_source)
    return (higher, lower, cited, why) if colour == WHITE else (lower, higher, cited, why)
