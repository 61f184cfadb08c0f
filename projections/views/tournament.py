"""The tournament's summary, and the arbiter's view: what the arbiter page shows to run a round."""
from __future__ import annotations

from typing import Any

from processors.tournament import TournamentState
from projections.standings.columns import standings_columns
from projections.views.refs import team_refs
from projections.views.snapshot import Snapshot
from schemas.events import RESULT_CODES


def tournament_view(snap: Snapshot) -> dict[str, Any]:
    """The tournament: name, rule profile, tie-break order, rounds paired, the live round."""
    state = snap.state
    profile = state.profile
    return {
        "tournament_id": state.tournament_id, "name": state.created.name, "profile": profile.name,
        "tiebreaks": list(profile.tiebreaks), "columns": standings_columns(profile.tiebreaks, profile.primary_score.upper()), "boards": profile.boards,
        "rounds": profile.rounds, "paired_rounds": sorted(state.rounds), "current_round": snap.last_round,
        "teams": len(state.teams), "result_codes": list(RESULT_CODES),
    }


def arbiter_view(state: TournamentState) -> dict[str, Any]:
    """The tournament as the arbiter runs it: teams (by pairing number) with their nominated players,
    entry round, withdrawal, absence and line-up for the round to prepare; the nomination deadline;
    the round to pair and to prepare; the pending proposal with the checker's report; published and
    closed rounds. Plain JSON."""
    refs = team_refs(state)
    created = state.created
    nxt = state.last_round + 1 if state.last_round < state.profile.rounds else None
    prepare = nxt if nxt is not None else state.last_round
    teams = []
    for tid, t in state.teams.items():
        teams.append({
            **refs[tid], "players": [p.model_dump(mode="json") for p in t.players],
            "from_round": state.entered.get(tid, 1), "withdrawn_from": state.withdrawn.get(tid),
            "absent": tid in state.absences.get(prepare, {}),
            "lineup": list(state.lineup(prepare, tid)), "lineup_submitted": (prepare, tid) in state.lineups,
        })
    proposal = state.proposals.get(nxt) if nxt else None
    rounds = [{"round": r, "tables": len(p.tables), "complete": state.round_complete(r), "closed": r in state.closed}
              for r, p in sorted(state.rounds.items())]
    return {
        "tournament_id": state.tournament_id, "name": created.name, "profile": state.profile.name,
        "rounds": state.profile.rounds, "boards": state.profile.boards, "venue": created.venue,
        "chief_arbiter": created.chief_arbiter,
        "nomination_deadline": created.model_dump(mode="json")["nomination_deadline"],
        "rosters_open": state.last_round == 0, "starting_ranks_set": state.starting_ranks is not None,
        "last_round": state.last_round, "next_round": nxt, "prepare_round": prepare,
        "previous_complete": state.last_round == 0 or state.round_complete(state.last_round),
        "closed": sorted(state.closed), "published": rounds, "teams": sorted(teams, key=lambda x: x["pairing_number"]),
        "proposal": None if proposal is None else {
            "type": proposal.type, "round": proposal.round, "event_id": proposal.event_id,
            "tables": [{"table": t.table, "home": refs[t.home], "away": refs[t.away]} for t in proposal.tables],
            "bye": refs[proposal.bye] if proposal.bye else None, "absent": [refs[a] for a in proposal.absent],
            "not_entered": [refs[t] for t in state.teams if state.entered.get(t, 1) > proposal.round],
            "reason": getattr(proposal, "reason", ""), "report": list(getattr(proposal, "report", ())),
        },
    }
