"""One round under C.04.6 (art. 3.3.2): the PAB, then bracket after bracket from the top
scoregroup down, then the colours; the tables ordered by score.

``propose_swiss_team(history, profile, round)`` -> ``projections.pairing.proposed.Pairing``, the
same result the D.02 engine gives (``propose_pairing`` calls this one for a profile with
``swiss_team`` set). Same history and profile, same pairing and trace.
"""
from __future__ import annotations

from typing import Iterable

from projections.history import History
from projections.pairing.acceleration import baku_round
from projections.pairing.entrants import teams_to_pair
from projections.pairing.matching import NoLegalPairing
from projections.pairing.swiss_team.brackets import choose_bracket, choose_pab, pairable
from projections.pairing.swiss_team.colours import allocate
from projections.pairing.swiss_team.criteria import pair_bracket
from projections.pairing.swiss_team.teams import SwissTeam, build_teams
from projections.pairing.proposed import Pairing
from projections.pairing.trace import Trace
from schemas.events import Table
from schemas.profile import RuleProfile


class RoundPlan:
    """The pairs of one round before colours: ``pab`` (a team or None) and ``pairs`` as
    ``(top, bottom)`` per bracket, in bracket order; ``teams`` by TPN."""

    def __init__(self, teams: list[SwissTeam], pab: SwissTeam | None, pairs: list[tuple[SwissTeam, SwissTeam]]):
        self.teams = teams
        self.pab = pab
        self.pairs = pairs


def last_two_rounds(profile: RuleProfile, rnd: int) -> bool:
    """[C7] art. 2.3.4 and [C10] art. 2.3.7 do not apply in the last two rounds."""
    return rnd > profile.rounds - 2


def plan_round(history: History, profile: RuleProfile, rnd: int, absent: Iterable[str] = (), trace: Trace | None = None) -> RoundPlan:
    """The PAB and the pairs of round ``rnd`` (art. 3.3.2 steps 1-4).

    Raises ``ValueError`` for an unusable history and ``NoLegalPairing`` (art. 3.3.3) when the
    round cannot be paired.
    """
    trace = trace or Trace(profile.pairing_source)
    rules = profile.swiss_team
    teams = build_teams(history, profile, rnd, absent)
    by_tpn = {t.tpn: t for t in teams}

    def compat(a: int, b: int) -> bool:
        return a != b and b not in by_tpn[a].met

    floats_count = not last_two_rounds(profile, rnd)
    typeb = rules.colour_preferences == "type-b"
    pab = choose_pab(teams, compat)
    if pab is None and not pairable(teams, compat):
        raise NoLegalPairing(f"C.04.6 art. 3.3.3: the {len(teams)} teams to pair cannot all be paired without a rematch ([C1])")
    if pab is not None:
        trace.add("C.04.6 art. 3.4", (pab.team_id,),
                  f"PAB: {pab.team_id} (TPN {pab.tpn}, score {pab.score}, {pab.played} matches played)")
    levels = sorted({t.score for t in teams}, reverse=True)
    remaining = [t for t in teams if t is not pab]
    pairs: list[tuple[SwissTeam, SwissTeam]] = []
    for i, level in enumerate(levels):
        if not any(t.score == level for t in remaining):
            continue
        next_level = levels[i + 1] if i + 1 < len(levels) else None
        bracket = choose_bracket(level, next_level, remaining, compat, floats_count)
        found = pair_bracket(bracket.members, level, compat, typeb, floats_count)
        if found is None:  # choose_bracket only returns pairable brackets
            raise AssertionError(f"bracket {level} has no pairing")
        ups = ", ".join(t.team_id for t in bracket.upfloaters) or "none"
        trace.add("C.04.6 art. 3.5", tuple(t.team_id for t in bracket.members),
                  f"bracket {level}: {len(bracket.residents)} residents, upfloaters: {ups}"
                  + ("" if bracket.c6 else "; [C6] cannot be met"))
        for top, bottom in found:
            trace.add("C.04.6 art. 3.6", (top.team_id, bottom.team_id), f"bracket {level}: {top.team_id} v {bottom.team_id}")
        pairs += found
        inside = {t.tpn for t in bracket.members}
        remaining = [t for t in remaining if t.tpn not in inside]
    return RoundPlan(teams, pab, pairs)


def colour_tables(plan: RoundPlan, profile: RuleProfile, trace: Trace | None = None) -> tuple[Table, ...]:
    """The tables of ``plan`` (art. 4 colours; home = White on board 1), ordered by the higher
    score of the pair, then the sum of both scores (descending), then the smaller TPN: C.04.6
    leaves the board order to the competition (GHR art. 3.6)."""
    trace = trace or Trace(profile.pairing_source)
    rules = profile.swiss_team
    initial = "W" if profile.first_colour == "white" else "B"
    order = sorted(plan.pairs, key=lambda p: (-max(p[0].score, p[1].score), -(p[0].score + p[1].score), min(p[0].tpn, p[1].tpn)))
    tables = []
    for n, (a, b) in enumerate(order, start=1):
        white, black, rule, why = allocate(a, b, initial, typeb=rules.colour_preferences == "type-b",
                                           secondary=rules.secondary_for_colours, history=rules.alternation_history)
        tables.append(Table(table=n, home=white.team_id, away=black.team_id))
        trace.add(rule, (white.team_id, black.team_id), f"table {n}: {white.team_id} - {black.team_id} ({white.team_id} White on board 1: {why})")
    return tuple(tables)


def propose_swiss_team(history: History, profile: RuleProfile, rnd: int, absent: Iterable[str] = ()) -> Pairing:
    """The ``Pairing`` of round ``rnd`` under the C.04.6 profile ``profile`` (see ``plan_round``)."""
    absent = tuple(sorted(set(absent)))
    trace = Trace(profile.pairing_source)
    waiting = [t for t, info in history.teams.items() if info.entered > rnd]
    trace.add("C.04.6 art. 3.3.2", (), f"round {rnd}, profile {profile.name}: C.04.6 Swiss Team pairing, "
              f"{profile.swiss_team.colour_preferences} colour preferences, primary score {profile.swiss_team.primary_score.upper()}"
              + (f" (absent: {', '.join(absent)})" if absent else "")
              + (f" (not yet entered: {', '.join(waiting)})" if waiting else ""))
    baku = baku_round(history, profile, rnd, teams_to_pair(history, rnd, absent))
    if baku is not None:
        trace.add("C.04.7", tuple(sorted(baku.group)), baku.text)
    plan = plan_round(history, profile, rnd, absent, trace)
    tables = colour_tables(plan, profile, trace)
    return Pairing(rnd, profile.name, tables, plan.pab.team_id if plan.pab else None, absent, tuple(trace.lines))
