"""Checking a published pairing against the profile: every violated rule, with the teams.

Rules checked (each ``Violation.rule`` names one):
- every team to pair is paired exactly once, and no other team is (withdrawn, absent, unknown);
- no repeat opponent (spec R-P1, D.02 2022 art. 6.1);
- the bye (R-B1, D.02 4): only with an odd number of teams; never a second bye, never after a
  default win (or a late entry, per the profile); to the lowest-ranked eligible team whose bye
  leaves the others pairable;
- colour limits (R-C3, D.02 7.3/7.4), when the colours are known: the home team may get White and
  the away team Black, unless no colour keeps both inside the limits and observing the limits
  would have kept fewer pairings in the group;
- no unjustified float (R-P2, R-F1, D.02 8.4/9.5): the score groups taken in the profile's order,
  each (with the teams floated into it) keeps as many pairings as any pairing of the teams still
  unpaired can keep.

A profile with ``swiss_team`` set is checked by C.04.6 instead (``swiss_team.check``).
"""
from __future__ import annotations

from typing import Iterable

from projections.history import History
from projections.pairing.bye import choose_bye
from projections.pairing.colours import BLACK, WHITE
from projections.pairing.constraints import Constraints
from projections.pairing.entrants import build_entrants
from projections.pairing.matching import NoLegalPairing, best_kept
from projections.pairing.score_groups import DOWN, processing_order
from projections.pairing.swiss_team.check import check_swiss_team
from projections.pairing.trace import Trace
from projections.pairing.violations import Violation, paired_once
from schemas.events import Table
from schemas.profile import RuleProfile


def check_pairing(
    history: History, profile: RuleProfile, rnd: int, tables: Iterable[Table], bye: str | None = None,
    absent: Iterable[str] = (), colours: str = "known",
) -> list[Violation]:
    """Every rule the pairing of round ``rnd`` (``tables``, ``bye``, made without ``absent``)
    breaks, given the ``history`` of rounds 1..rnd-1. An empty list means the pairing is legal.

    ``colours``: ``"known"`` (the history's colours and the tables' home teams are real: both
    colour checks), ``"inferred"`` (the history's colours were reconstructed and the home teams
    are unknown: only the group-level limit check) or ``"unknown"`` (no colour check).

    Raises ``ValueError`` for an unusable history (see ``build_entrants``).
    """
    tables = list(tables)
    if profile.swiss_team is not None:
        return check_swiss_team(history, profile, rnd, tables, bye, absent, colours)
    entrants = build_entrants(history, profile, rnd, absent)
    place = {e.team_id: e.place for e in entrants}
    cons = Constraints(entrants, profile)
    out = paired_once(tables, bye, set(place), [e.team_id for e in entrants], rnd)
    pairs = [(place[t.home], place[t.away]) for t in tables if t.home in place and t.away in place]
    for t in tables:
        if t.home in place and t.away in place and place[t.away] in entrants[place[t.home]].met:
            r = entrants[place[t.home]].met[place[t.away]]
            out.append(Violation("R-P1 repeat opponent", (t.home, t.away), f"{t.home} v {t.away}: they met in round {r}"))
    out += _bye(entrants, place, bye, cons)
    structural = bool(out)  # the group analysis assumes a complete pairing without rematches
    if colours == "known":
        out += _colours(entrants, place, tables)
    if not structural:
        out += _floats(entrants, pairs, place.get(bye) if bye else None, profile, cons, colours != "unknown")
    return out


def _bye(entrants, place, bye, cons) -> list[Violation]:
    rule = "R-B1 bye"
    if bye is None or bye not in place:
        return []
    e = entrants[place[bye]]
    if len(entrants) % 2 == 0:
        return [Violation(rule, (bye,), f"{bye} has the bye although the number of teams to pair is even")]
    if e.bye_block:
        return [Violation(rule, (bye,), f"{bye} may not get the bye: it {e.bye_block}")]
    try:
        due, _ = choose_bye(entrants, cons.may_meet, Trace(), cons.rule)
    except NoLegalPairing as exc:
        return [Violation(rule, (bye,), str(exc))]
    if due != e.place:
        return [Violation(rule, (bye, entrants[due].team_id),
                          f"the bye goes to {entrants[due].team_id}, the lowest-ranked eligible team, not {bye}")]
    return []


def _colours(entrants, place, tables) -> list[Violation]:
    out = []
    for t in tables:
        if t.home not in place or t.away not in place:
            continue
        home, away = entrants[place[t.home]].colours, entrants[place[t.away]].colours
        if home.may_receive(WHITE) and away.may_receive(BLACK):
            continue
        if home.may_receive(BLACK) and away.may_receive(WHITE):
            out.append(Violation("R-C3 colour limit", (t.home, t.away),
                                 f"{t.home} - {t.away}: White for {t.home} breaks the colour limits; the other colours keep them"))
    return out


def _floats(entrants, pairs, bye, profile: RuleProfile, cons: Constraints, limits: bool) -> list[Violation]:
    names = cons.names
    partner = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    to_pair = [e for e in entrants if e.place != bye]
    remainder = [e.place for e in to_pair]
    carried: dict[str, list[int]] = {DOWN: [], "up": []}
    steps = processing_order([(e.place, e.score) for e in to_pair], profile.group_order, profile.median_sides)
    out = []
    for i, step in enumerate(steps):
        if i == len(steps) - 1 and profile.group_order == "median-first":
            incoming = carried[DOWN] + carried["up"]
        else:
            incoming = carried[step.direction]
        group = incoming + list(step.members)
        inside = set(group)
        kept_pairs = [(a, partner[a]) for a in group if a < partner.get(a, -1) and partner[a] in inside]
        best = best_kept(remainder, sorted(group), cons.may_meet, cons.may_meet)
        possible = best[0] if best else 0
        leaving = sorted(a for a in group if partner.get(a) not in inside)
        if len(kept_pairs) < possible:
            out.append(Violation("R-F1 unjustified float", tuple(names[a] for a in leaving),
                                 f"group {step.score}: {len(kept_pairs)} pairings kept, {possible} possible; "
                                 f"floated: {', '.join(names[a] for a in leaving)}"))
        broken = [(a, b) for a, b in kept_pairs if limits and not cons.absolute and not cons.within_limits(a, b)]
        if broken:
            limited = best_kept(remainder, sorted(group), cons.may_meet, cons.within_limits)
            if limited is not None and limited[0] >= len(kept_pairs):
                for a, b in broken:
                    out.append(Violation("R-C3 colour limit", (names[a], names[b]),
                                         f"{names[a]} v {names[b]}: no colour keeps both inside the limits, and group "
                                         f"{step.score} could keep {limited[0]} pairings within them (D.02 7.4)"))
        done = {p for pair in kept_pairs for p in pair}
        remainder = [p for p in remainder if p not in done]
        carried[step.direction] = leaving
    return out
