"""A what-if as it is shown: plain JSON for the API, the scoreboard page and ``olympiad whatif --json``.

``whatif_view`` renders a ``projections.whatif.WhatIf`` (standings in the scoreboard's columns,
the round in play with the hypothetical tables marked, the next round's pairing once the round
is complete on the branch), with, when asked, what a team needs (``projections.whatif_needs``)
and the chances (``projections.whatif_chances``). Every answer says it is hypothetical. Points are
decimal strings; shares and chances are fractions 0..1.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from processors.tournament import RuleViolation, TournamentState
from projections.replay import RoundStandings
from projections.standings.columns import standings_columns
from projections.views.matches import pairings_view
from projections.views.ranking import ranked_rows
from projections.views.refs import team_refs
from projections.views.snapshot import Snapshot
from projections.views.standings import SCOREBOARD_FIELDS
from projections.whatif import HYPOTHETICAL, WhatIf, settings_of, what_if
from projections.whatif_chances import Chances, chances
from projections.whatif_needs import BandVerdict, Needs, team_needs
from schemas.points import fmt_points

NOTE = "hypothetical: nothing is recorded"
MODEL = ("board results drawn from the players' ratings: Elo's expected score with 35 points for White, a draw "
         "rate scaled by the closeness of the game (projections.rating_model); later rounds paired by the engine")


def band_name(band: int) -> str:
    """"first place" for 1, "top N" otherwise."""
    return "first place" if band == 1 else f"top {band}"


def whatif_view(result: WhatIf, needs: Needs | None = None, odds: Chances | None = None,
                bands: tuple[int, ...] = (1, 3)) -> dict[str, Any]:
    """``{hypothetical, note, round, settings, standings, round_in_play, next_pairing,
    pairing_refused, needs, chances}``: ``standings`` as ``scoreboard_view`` gives them (label
    prefixed "What if:", rows with "decided by"), ``round_in_play`` the round's tables with the
    branch's results (each ``hypothetical`` when set), ``next_pairing`` the engine's proposal of
    the next round or None, ``needs`` (``needs_view``) and ``chances`` (``chances_view``, with
    ``bands``) when given."""
    state = result.state
    refs = team_refs(state)
    tiebreaks, primary = state.profile.tiebreaks, state.profile.primary_score.upper()
    board = result.board
    st = board.standings
    rows = ranked_rows(st.document["rows"], tiebreaks, SCOREBOARD_FIELDS, primary) if st else []
    set_tables = {(s.round, s.table) for s in result.settings}
    in_play = pairings_view(Snapshot(state, {}), result.round) if result.round else None
    if in_play is not None:
        for m in in_play["tables"]:
            m["hypothetical"] = (m["round"], m["table"]) in set_tables
            for b in m["boards"]:
                event = state.applied.get(b["event_id"])
                b["hypothetical"] = getattr(event, "note", "") == HYPOTHETICAL
    mp = {r["team_id"]: r["mp"] for r in rows}
    nxt = None
    if result.pairing is not None:
        p = result.pairing
        nxt = {"round": p.round, "profile": p.profile, "proposed": True,
               "tables": [{"table": t.table, "home": {**refs[t.home], "mp": mp.get(t.home)},
                           "away": {**refs[t.away], "mp": mp.get(t.away)}} for t in p.tables],
               "bye": refs[p.bye] if p.bye else None, "absent": [refs[a] for a in p.absent]}
    return {
        "hypothetical": True, "note": NOTE, "round": result.round,
        "settings": [{"round": s.round, "table": s.table, "home_gp": fmt_points(s.score[0]), "away_gp": fmt_points(s.score[1]),
                      "boards": [{"board": b, "result": c} for b, c in s.codes.items()]} for s in result.settings],
        "standings": {"label": f"What if: {board.label.lower() if board.label.startswith('Provisional') else board.label}",
                      "round": board.round, "based_on": board.based_on, "decided": board.decided, "tables": board.tables,
                      "provisional": board.provisional, "complete": bool(st and st.complete),
                      "digest": st.digest if st else None, "columns": standings_columns(tiebreaks, primary), "rows": rows},
        "round_in_play": in_play, "next_pairing": nxt, "pairing_refused": result.pairing_refused,
        "needs": needs_view(needs, refs) if needs is not None else None,
        "chances": chances_view(odds, refs, bands) if odds is not None else None,
    }


def verdict_text(v: BandVerdict, sampled: bool = False) -> str:
    """One band's verdict in words: "secured (by match points)", "possible in 42.0 % of the
    outcomes (tie-breaks decide 58.0 %)", "ruled out (tie-breaks decide 3.1 %)"; of a sample
    (``sampled``): "in every sampled outcome" / "in no sampled outcome", never "secured"."""
    tb = f"tie-breaks decide {100 * v.tiebreak_share:.1f} %" if v.by_tiebreaks else "by match points"
    if v.verdict == "possible":
        return f"possible in {100 * v.share:.1f} % of the {'sampled ' if sampled else ''}outcomes ({tb})"
    if sampled:
        return f"{'in the band in every' if v.verdict == 'secured' else 'in the band in no'} sampled outcome ({tb})"
    return f"{v.verdict} ({tb})"


def needs_view(needs: Needs, refs: dict[str, dict]) -> dict[str, Any]:
    """What a team needs as JSON: the team, its table and opponent, the outcomes each own score
    was judged on (and whether they were sampled), and per own score the verdict on each band
    (``verdict``, ``share``, ``tiebreak_share``, ``text``); ``lines``: a sentence per band."""
    return {
        "team": refs[needs.team], "round": needs.round, "final": needs.final, "table": needs.table,
        "opponent": refs[needs.opponent] if needs.opponent else None, "bands": list(needs.bands),
        "outcomes": needs.outcomes, "sampled": needs.sampled, "seed": needs.seed,
        "results": [{"own_gp": fmt_points(r.own_gp), "opponent_gp": fmt_points(r.opponent_gp), "mp": r.mp,
                     "bands": [{"band": v.band, "name": band_name(v.band), "verdict": v.verdict, "inside": v.inside,
                                "by_tiebreaks": v.by_tiebreaks, "outcomes": v.outcomes, "share": v.share,
                                "tiebreak_share": v.tiebreak_share, "text": verdict_text(v, needs.sampled)} for v in r.bands]}
                    for r in needs.results],
        "lines": needs_lines(needs, refs),
    }


def needs_lines(needs: Needs, refs: dict[str, dict]) -> list[str]:
    """A sentence per band: which of the team's scores secure it, allow it, rule it out."""
    name = refs[needs.team]["name"]
    when = "final place" if needs.final else f"place after round {needs.round}"
    space = (f"{needs.outcomes} sampled outcomes of the other matches (seed {needs.seed})" if needs.sampled
             else f"all {needs.outcomes} outcomes of the other matches")
    out = []
    for i, band in enumerate(needs.bands):
        parts = []
        for r in needs.results:
            v = r.bands[i]
            score = f"{fmt_points(r.own_gp)}-{fmt_points(r.opponent_gp)}" if needs.table else "no match (bye or absent)"
            parts.append(f"{score}: {verdict_text(v, needs.sampled)}")
        out.append(f"{name}, {band_name(band)} ({when}; {space}): " + "; ".join(parts))
    return out


def chances_view(odds: Chances, refs: dict[str, dict], bands: tuple[int, ...]) -> dict[str, Any]:
    """The chances as JSON: how they were drawn (``simulations``, ``counted``, ``seed``,
    ``model``), and per team (most likely first) its chance and standard error of each band and
    ``places``: in how many simulations it finished in each place."""
    teams = sorted(odds.places, key=lambda t: tuple(-odds.places[t][k] for k in range(len(odds.places[t]))))
    return {
        "round": odds.round, "last_round": odds.last_round, "simulations": odds.simulations, "counted": odds.counted,
        "unpaired": odds.unpaired, "seed": odds.seed, "model": MODEL, "bands": list(bands),
        "teams": [{"team": refs[t], "chances": {str(b): odds.chance(t, b) for b in bands},
                   "errors": {str(b): odds.error(t, b) for b in bands}, "places": list(odds.places[t])} for t in teams],
    }


def team_named(state: TournamentState, given: str) -> str:
    """The id of the team ``given`` names: its id (any case) or its full name. Raises
    ``RuleViolation`` (field ``team``) for anything else, listing the teams whose name contains it."""
    key = given.strip().lower()
    for tid, team in state.teams.items():
        if key in (tid.lower(), team.name.lower()):
            return tid
    near = sorted(f"{t.name} ({tid})" for tid, t in state.teams.items() if key and key in t.name.lower())
    hint = f"; did you mean {', '.join(near[:6])}?" if near else "; give a team id or a full team name"
    raise RuleViolation(f"{given!r}: no such team{hint}", field="team", rule="a registered team")


def whatif_answer(state: TournamentState, official: Mapping[int, RoundStandings] | None = None, settings: Iterable[str] = (), *,
                  needs: str | None = None, bands: Iterable[int] = (1, 3), simulations: int | None = None,
                  seed: int = 1) -> dict[str, Any]:
    """The one application function of a what-if, every door's (``olympiad whatif``, ``GET
    .../whatif``, the scoreboard page): the ``settings`` texts ("11/5=2.5-1.5",
    ``projections.whatif.settings_of``) laid over ``state`` on a branch (``what_if``, with the
    ``official`` standings of the rounds before), what the team ``needs`` names needs (id or full
    name; ``team_needs`` for ``bands``), the chances over ``simulations`` simulations from ``seed``
    (``projections.whatif_chances``), as ``whatif_view`` renders them. ``state`` is not changed;
    nothing is written and no command is sent.

    Raises ``RuleViolation`` naming the field and the rule for a bad setting, team, band or
    number of simulations.
    """
    chosen = settings_of(state, settings)
    bands = tuple(sorted(set(bands)))
    result = what_if(state, chosen, official)
    wanted = team_needs(state, team_named(state, needs), bands, chosen) if needs else None
    odds = chances(state, simulations, seed, chosen) if simulations else None
    return whatif_view(result, wanted, odds, bands)
