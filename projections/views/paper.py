"""What goes on paper: a round's pairing with the players on every board (by table, and the teams
in alphabetical order), and the match sheet of one table (``projections.players.board_players``)."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from processors.tournament import TournamentState

from projections.players import board_players
from projections.seeding import team_strength
from projections.views.matches import match_view, pairings_view, round_status
from projections.views.refs import paired_table, team_refs
from projections.views.snapshot import Snapshot
from schemas.names import name_key


def average_rating(state: TournamentState, team_id: str) -> int:
    """A team's average rating as the pages show it: R-I1, the best ``boards`` ratings (unrated at
    the profile's floor, ``projections.seeding.team_strength``), rounded half up."""
    profile = state.profile
    average = team_strength(state.teams[team_id], profile.boards, profile.seeding_floor_rating)[0]
    return int(average.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def round_pairings_view(snap: Snapshot, rnd: int) -> dict[str, Any]:
    """The pairing of round ``rnd`` (``pairings_view``) with each board's players (White and
    Black: ``board_players``) and each team's average rating (``average_rating``), the round's
    ``status`` (``round_status``) and ``alphabetical``: every paired team by name with its table,
    colour on board 1 and opponent. Raises ``NotFound``."""
    view = pairings_view(snap, rnd)
    state = snap.state
    seated = board_players(state, rnd)
    alphabetical = []
    for m in view["tables"]:
        m["home_rating"], m["away_rating"] = (average_rating(state, m[side]["team_id"]) for side in ("home", "away"))
        for b, players in zip(m["boards"], seated[m["table"]]):
            b["white_player"], b["black_player"] = players["white"], players["black"]
        for side, other, colour in (("home", "away", "W"), ("away", "home", "B")):
            alphabetical.append({"team": m[side], "table": m["table"], "colour": colour, "opponent": m[other]})
    alphabetical.sort(key=lambda r: name_key(r["team"]["name"]))
    return {**view, "status": round_status(state, rnd), "alphabetical": alphabetical}


def match_sheet_view(snap: Snapshot, rnd: int, table: int) -> dict[str, Any]:
    """The sheet the arbiters print for one table: tournament, round, table, both teams, and per
    board the players with their colours and ratings (``board_players``) and the result if in.
    Raises ``NotFound`` for a round or table that does not exist."""
    state = snap.state
    paired_table(state, rnd, table)
    match = match_view(state, team_refs(state), rnd, table)
    for b, players in zip(match["boards"], board_players(state, rnd, [table])[table]):
        b["white_player"], b["black_player"] = players["white"], players["black"]
    return {"tournament": state.created.name, "round": rnd, "table": table, "home": match["home"], "away": match["away"],
            "boards": match["boards"], "home_gp": match["home_gp"], "away_gp": match["away_gp"],
            "complete": match["complete"], "status": round_status(state, rnd)}
