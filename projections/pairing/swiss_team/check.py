"""Checking a published round against C.04.6: every broken rule, with the teams.

C.04.6 prescribes one pairing and one colour allocation per round, so a published round is
right exactly when it is the prescribed one (the verdict of gacrux's ``pairingchecker -c``).
Reported, in this order:
- paired once: every team to pair is paired exactly once, and no other team is;
- [C1] art. 2.1.1 rematch; [C2] art. 2.1.2 a PAB to a team that had one or won by forfeit;
- art. 3.4 the PAB to another team than the one due; an odd or even number of teams wrongly
  with or without a PAB;
- art. 3.5/3.6 each published pair that is not a pair of the prescribed pairing, naming the
  bracket the prescribed pairing forms for its teams;
- art. 4.3 a prescribed pair whose board-1 colours are the other way round, naming the colour
  rule, when the colours are known.
"""
from __future__ import annotations

from typing import Iterable

from projections.history import History
from projections.pairing.violations import Violation, paired_once
from projections.pairing.matching import NoLegalPairing
from projections.pairing.swiss_team.engine import colour_tables, plan_round
from projections.pairing.swiss_team.teams import build_teams
from projections.pairing.trace import Trace
from schemas.events import Table
from schemas.profile import RuleProfile


def check_swiss_team(history: History, profile: RuleProfile, rnd: int, tables: Iterable[Table], bye: str | None = None,
                     absent: Iterable[str] = (), colours: str = "known") -> list[Violation]:
    """The violations of the published round ``rnd`` (``tables``, ``bye``, without ``absent``)
    under the C.04.6 ``profile``; empty when it is the prescribed pairing. ``colours`` as in
    ``projections.pairing.check.check_pairing`` (the art. 4 check only with "known").

    Raises ``ValueError`` for an unusable history.
    """
    tables = list(tables)
    teams = build_teams(history, profile, rnd, absent)
    by_id = {t.team_id: t for t in teams}
    out = paired_once(tables, bye, set(by_id), [t.team_id for t in teams], rnd)
    for t in tables:
        home, away = by_id.get(t.home), by_id.get(t.away)
        if home and away and away.tpn in home.met:
            out.append(Violation("C.04.6 [C1] art. 2.1.1 rematch", (t.home, t.away), f"{t.home} v {t.away}: they have played each other"))
    if bye in by_id and by_id[bye].bye_block:
        out.append(Violation("C.04.6 [C2] art. 2.1.2", (bye,), f"{bye} may not get the PAB: it {by_id[bye].bye_block}"))
    if out:
        return out
    try:
        plan = plan_round(history, profile, rnd, absent)
    except NoLegalPairing as exc:
        return [Violation("C.04.6 art. 3.3.3", (), f"no legal pairing exists: {exc}")]
    due = plan.pab.team_id if plan.pab else None
    if bye != due:
        out.append(Violation("C.04.6 art. 3.4 PAB", tuple(x for x in (bye, due) if x),
                             f"the PAB goes to {due or 'nobody'}, not to {bye or 'nobody'}"))
    trace = Trace(profile.pairing_source)
    prescribed = {frozenset((t.home, t.away)): t for t in colour_tables(plan, profile, trace)}
    bracket_of = {}
    for top, bottom in plan.pairs:
        bracket_of[top.team_id] = bracket_of[bottom.team_id] = max(top.score, bottom.score)
    rules = {frozenset(line.teams): line.rule for line in trace.lines}
    for t in tables:
        key = frozenset((t.home, t.away))
        want = prescribed.get(key)
        if want is None:
            partner = {x: next(iter(k - {x})) for k in prescribed for x in k}
            text = "; ".join(f"{x} meets {partner[x]} in the bracket of {bracket_of[x]}" for x in (t.home, t.away) if x in partner)
            out.append(Violation("C.04.6 art. 3.5, 3.6 pairing", (t.home, t.away), f"{t.home} v {t.away} is not the prescribed pairing: {text}"))
        elif colours == "known" and want.home != t.home:
            out.append(Violation(f"{rules.get(key, 'C.04.6 art. 4.3')} colours", (t.home, t.away),
                                 f"{t.home} - {t.away}: art. 4 gives White on board 1 to {want.home}"))
    return out
