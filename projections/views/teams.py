"""A team's page: its players and its history round by round (``projections.history``)."""
from __future__ import annotations

from typing import Any

from processors.scoring import home_is_white
from projections.history import build_history
from projections.views.refs import NotFound, team_refs
from projections.views.snapshot import Snapshot
from schemas.points import fmt_points


def team_view(snap: Snapshot, team_id: str) -> dict[str, Any]:
    """A team's page: its players and, round by round, opponent, colour, boards, GP, MP and its
    rank and MP in the standings after that round. Raises ``NotFound`` for an unknown team."""
    state = snap.state
    if team_id not in state.teams:
        raise NotFound(f"unknown team {team_id!r}")
    refs = team_refs(state)
    team = state.teams[team_id]
    history = build_history(state, snap.last_round)
    rounds = []
    for tr in history.team_rounds(team_id):
        boards = []
        if tr.table is not None:
            home = state.tables[(tr.round, tr.table)].home == team_id
            for b in range(1, state.profile.boards + 1):
                code = state.results.get((tr.round, tr.table, b), (None, None))[1]
                boards.append({"board": b, "colour": "W" if home_is_white(b) == home else "B", "result": code})
        row = next((r for r in snap.standings[tr.round].document["rows"] if r["team_id"] == team_id), None) \
            if tr.round in snap.standings else None
        rounds.append({
            "round": tr.round, "table": tr.table, "kind": tr.kind, "opponent": refs.get(tr.opponent),
            "colour": tr.colour, "gp": fmt_points(tr.gp), "mp": tr.mp if tr.kind != "pending" else None,
            "boards": boards, "rank_after": row["rank"] if row else None, "mp_after": row["mp"] if row else None,
        })
    return {
        **refs[team_id],
        "players": [p.model_dump(mode="json") for p in team.players],
        "withdrawn_from_round": state.withdrawn.get(team_id),
        "rounds": rounds,
    }
