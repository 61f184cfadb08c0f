"""Players as every door shows them: each player's results and rating performance, a player's
card, the board prizes and the status of a round's tables.

The rows come from ``projections.players`` (who played, games, points), ``projections.performance``
(Rp = Ra + dp, FIDE B.02) and ``projections.board_prizes`` (best performance per nominated board,
the profile's minimum of games). Points are decimal strings ("7.5"); ratings whole numbers;
``percentage`` the fractional score p in hundredths ("0.82").
"""
from __future__ import annotations

from typing import Any, Mapping

from projections.board_prizes import board_prize_tables
from projections.performance import Performance
from projections.players import PlayerResult, player_results
from projections.views.matches import round_status
from projections.views.refs import NotFound, team_refs
from projections.views.snapshot import Snapshot
from schemas.points import fmt_points


def performance_dict(perf: Performance | None) -> dict[str, Any] | None:
    """A ``Performance`` as plain JSON (``rating`` = Rp, ``average`` = Ra, ``percentage`` = p)."""
    if perf is None:
        return None
    return {"rating": perf.rating, "average": perf.average, "percentage": str(perf.percentage), "dp": perf.dp,
            "games": perf.games, "points": fmt_points(perf.points)}


def player_row(p: PlayerResult, refs: Mapping[str, dict], unrated_as: int | None) -> dict[str, Any]:
    """One player's line: id, team, name, title, FIDE id, rating, nominated board, score of all
    games, games, games played over the board, boards played, rating performance."""
    return {
        "player_id": p.player_id, "team": refs[p.team_id], "name": p.name, "title": p.title, "fide_id": p.fide_id,
        "rating": p.rating, "nominated_board": p.nominated_board, "score": fmt_points(p.score),
        "games": len(p.games), "played": len(p.played), "boards": p.boards,
        "performance": performance_dict(p.performance(unrated_as)),
    }


def players_view(snap: Snapshot) -> dict[str, Any]:
    """Every player's results through the last paired round (``status``: that round's, ``round_status``),
    by team starting number and board order."""
    state = snap.state
    refs = team_refs(state)
    unrated = state.profile.unrated_opponent_rating
    results = player_results(state)
    rows = [player_row(p, refs, unrated) for p in results.values() if p.games or p.nominated_board is not None]
    rows.sort(key=lambda r: (r["team"]["pairing_number"], r["nominated_board"] or 99, r["name"]))
    return {"round": snap.last_round, "status": round_status(state, snap.last_round), "rows": rows}


def player_view(snap: Snapshot, pid: str) -> dict[str, Any]:
    """A player's card: the line of ``player_row`` and ``rounds``, each game (round, table, board,
    colour, the opposing team and player with rating, result code, points, played over the board). Raises
    ``NotFound`` for an unknown player id."""
    state = snap.state
    results = player_results(state)
    if pid not in results:
        raise NotFound(f"unknown player {pid!r} (a player id is <team id>.<board order>)")
    refs = team_refs(state)
    p = results[pid]
    games = []
    for g in p.games:
        opp = results.get(g.opponent) if g.opponent else None
        games.append({
            "round": g.round, "table": g.table, "board": g.board, "colour": g.colour, "opponent_team": refs[g.opponent_team],
            "opponent": None if opp is None else {"player_id": opp.player_id, "name": opp.name, "title": opp.title,
                                                   "rating": opp.rating},
            "result": g.code, "points": fmt_points(g.points), "played": g.played,
        })
    return {**player_row(p, refs, state.profile.unrated_opponent_rating), "rounds": games,
            "status": round_status(state, snap.last_round)}


def prizes_view(snap: Snapshot) -> dict[str, Any]:
    """The board prizes (``projections.board_prizes``): per nominated board 1 .. boards + reserves
    a table, best rating performance first, of the players with the profile's minimum of games
    played over the board; the rule in words; the status of the last paired round."""
    state = snap.state
    profile = state.profile
    refs = team_refs(state)
    numbers = {tid: r["pairing_number"] for tid, r in refs.items()}
    unrated = profile.unrated_opponent_rating
    tables = board_prize_tables(player_results(state).values(), profile.boards + profile.reserves,
                                profile.board_prize_min_games, unrated, numbers)
    unrated_text = ("games against unrated opponents left out (Ra: the rated opponents)" if unrated is None
                    else f"unrated opponents at {unrated}")
    rule = (f"best rating performance (Rp = Ra + dp, FIDE B.02) on each nominated board, at least "
            f"{profile.board_prize_min_games} games played over the board; {unrated_text}; ties: more games, "
            "then a shared place")
    boards = [{"board": b, "reserve": b > profile.boards,
               "rows": [{"rank": row.rank, **player_row(row.player, refs, unrated)} for row in rows]}
              for b, rows in tables.items()]
    return {"round": snap.last_round, "status": round_status(state, snap.last_round),
            "min_games": profile.board_prize_min_games, "rule": rule, "boards": boards}
