"""A team's page: its players with their results, its average rating and its history round by
round with each board's players (``projections.history``, ``projections.players``)."""
from __future__ import annotations

from typing import Any

from processors.scoring import home_is_white
from projections.history import build_history
from projections.players import player_results
from projections.views.matches import round_status
from projections.views.paper import average_rating
from projections.views.players import player_row
from projections.views.refs import NotFound, team_refs
from projections.views.snapshot import Snapshot
from schemas.points import fmt_points


def team_view(snap: Snapshot, team_id: str) -> dict[str, Any]:
    """A team's page: its players (nominated board order, each with score, games and rating
    performance: ``player_row``), its average rating (R-I1: the best ``boards`` ratings, unrated
    at the profile's floor, rounded), and round by round opponent, colour, boards (result code,
    the team's player and the opponent on each), GP, MP and its rank and MP in the standings after
    that round; ``status`` of the last paired round. Raises ``NotFound`` for an unknown team."""
    state = snap.state
    if team_id not in state.teams:
        raise NotFound(f"unknown team {team_id!r}")
    refs = team_refs(state)
    team = state.teams[team_id]
    profile = state.profile
    results = player_results(state)
    seated: dict[tuple[int, int], tuple[str | None, str | None]] = {}
    for p in results.values():
        if p.team_id == team_id:
            for g in p.games:
                seated[(g.round, g.board)] = (p.player_id, g.opponent)

    def who(pid: str | None) -> dict[str, Any] | None:
        p = results.get(pid) if pid else None
        return None if p is None else {"player_id": p.player_id, "name": p.name, "title": p.title, "rating": p.rating}

    history = build_history(state, snap.last_round)
    rounds = []
    for tr in history.team_rounds(team_id):
        boards = []
        if tr.table is not None:
            home = state.tables[(tr.round, tr.table)].home == team_id
            for b in range(1, profile.boards + 1):
                code = state.results.get((tr.round, tr.table, b), (None, None))[1]
                mine, theirs = seated.get((tr.round, b), (None, None))
                boards.append({"board": b, "colour": "W" if home_is_white(b) == home else "B", "result": code,
                               "player": who(mine), "opponent": who(theirs)})
        row = next((r for r in snap.standings[tr.round].document["rows"] if r["team_id"] == team_id), None) \
            if tr.round in snap.standings else None
        rounds.append({
            "round": tr.round, "table": tr.table, "kind": tr.kind, "opponent": refs.get(tr.opponent),
            "colour": tr.colour, "gp": fmt_points(tr.gp), "mp": tr.mp if tr.kind != "pending" else None,
            "boards": boards, "rank_after": row["rank"] if row else None, "mp_after": row["mp"] if row else None,
        })
    unrated = profile.unrated_opponent_rating
    return {
        **refs[team_id],
        "average_rating": average_rating(state, team_id),
        "players": [p.model_dump(mode="json") for p in team.players],
        "results": [player_row(p, refs, unrated) for p in results.values()
                    if p.team_id == team_id and (p.games or p.nominated_board is not None)],
        "withdrawn_from_round": state.withdrawn.get(team_id),
        "rounds": rounds,
        "status": round_status(state, snap.last_round) if snap.last_round else None,
    }
