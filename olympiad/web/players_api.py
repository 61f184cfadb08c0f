"""Routes of the players and what goes on paper: player results, a player's card, the board
prizes, the crosstable, a round's pairing with its players, and the CSV exports
(``projections.views``: the rows ``olympiad prizes`` prints)."""
from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from olympiad.web.api_errors import READ_ERRORS, REFUSALS
from olympiad.web.deps import WebDoor, door, served, token
from olympiad.web.models import PlayerCard, PlayersPage, Prizes, TerminalScope
from processors.rules import role_may
from projections.views.crosstable import crosstable_view
from projections.views.export import pairings_csv, players_csv, standings_csv
from projections.views.paper import round_pairings_view
from projections.views.players import player_view, players_view, prizes_view

router = APIRouter()


@router.get("/api/tournaments/{tid}/players", response_model=PlayersPage, responses=READ_ERRORS, tags=["read"])
def players(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """Every player's score, games, boards, nominated board and rating performance (Rp = Ra + dp)."""
    with web.backend.read() as snap:
        return players_view(snap)


@router.get("/api/tournaments/{tid}/players/{pid}", response_model=PlayerCard, responses=READ_ERRORS, tags=["read"])
def player(pid: str, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """A player's card: the player's line and every game (``<team id>.<board order>``)."""
    with web.backend.read() as snap:
        return player_view(snap, pid)


@router.get("/api/tournaments/{tid}/prizes", response_model=Prizes, responses=READ_ERRORS, tags=["read"])
def prizes(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """The board prizes: per nominated board the best rating performances of the players with
    the profile's minimum of games (the rows ``olympiad prizes --json`` prints)."""
    with web.backend.read() as snap:
        return prizes_view(snap)


@router.get("/api/tournaments/{tid}/crosstable", responses=READ_ERRORS, tags=["read"])
def crosstable(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """Every team in standings order with each round's opponent, colour and match score."""
    with web.backend.read() as snap:
        return crosstable_view(snap)


@router.get("/api/tournaments/{tid}/rounds/{rnd}/players", responses=READ_ERRORS, tags=["read"])
def round_players(rnd: int, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """A round's pairing with the players on every board, its status and the teams by name."""
    with web.backend.read() as snap:
        return round_pairings_view(snap, rnd)


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/tournaments/{tid}/export/standings.csv", responses=READ_ERRORS, tags=["read"],
            response_class=Response)
def export_standings(tid: str = Depends(served), round: Optional[int] = None, web: WebDoor = Depends(door)) -> Response:
    """The standings after ``round`` (default: the last paired round) as CSV (formulas escaped)."""
    with web.backend.read() as snap:
        return _csv(standings_csv(snap, round or snap.last_round), f"{tid}-standings.csv")


@router.get("/api/tournaments/{tid}/export/pairings.csv", responses=READ_ERRORS, tags=["read"],
            response_class=Response)
def export_pairings(tid: str = Depends(served), round: Optional[int] = None, web: WebDoor = Depends(door)) -> Response:
    """The pairing of ``round`` (default: the last paired round) as CSV (formulas escaped)."""
    with web.backend.read() as snap:
        return _csv(pairings_csv(snap, round or snap.last_round), f"{tid}-pairings.csv")


@router.get("/api/tournaments/{tid}/export/players.csv", responses=READ_ERRORS, tags=["read"],
            response_class=Response)
def export_players(tid: str = Depends(served), web: WebDoor = Depends(door)) -> Response:
    """Every player's results as CSV (formulas escaped)."""
    with web.backend.read() as snap:
        return _csv(players_csv(snap), f"{tid}-players.csv")


@router.get("/api/tournaments/{tid}/terminals/me", response_model=TerminalScope, responses=REFUSALS, tags=["terminals"])
def whoami(tid: str = Depends(served), bearer: str | None = Depends(token), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """What the holder of the bearer token may enter: its terminal id, role, tables (None: every
    table), and whether it may correct a stored result and record a forfeited match
    (``processors.rules.role_may``), so that the entry page offers only what the server accepts."""
    holder = web.tokens.holder(bearer, tid)
    role = holder.actor()["role"]
    return {"terminal_id": holder.terminal_id, "role": role,
            "tables": sorted(holder.tables) if holder.tables is not None else None,
            "corrections": role_may(role, "CorrectResult"), "forfeits": role_may(role, "RecordForfeit")}
