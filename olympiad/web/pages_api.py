"""Routes of the pages: the scoreboard and the read pages rendered on the server (``pages``,
``player_pages``: team card, player card, crosstable, board prizes, a round's pairing, a match
sheet), and the static pages of result entry, the audit trail, the arbiter and a captain (their
scripts read the API)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from olympiad.web.deps import WebDoor, door
from olympiad.web.pages import scoreboard_page
from olympiad.web.player_pages import crosstable_page, player_page, prizes_page, round_page, sheet_page, team_page
from projections.views.crosstable import crosstable_view
from projections.views.paper import match_sheet_view, round_pairings_view
from projections.views.players import player_view, prizes_view
from projections.views.refs import NotFound
from projections.views.teams import team_view

STATIC = Path(__file__).resolve().parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
def scoreboard(round: Optional[int] = None, web: WebDoor = Depends(door)) -> HTMLResponse:
    """The scoreboard: standings and pairings in the HTML; the page's script keeps them live."""
    with web.backend.read() as snap:
        return HTMLResponse(scoreboard_page(snap, round))


def _name(snap) -> str:
    if snap.state.created is None:
        raise NotFound("no tournament is served")
    return snap.state.created.name


@router.get("/teams/{team_id}")
def team(team_id: str, web: WebDoor = Depends(door)) -> HTMLResponse:
    """A team's card: roster with results, average rating, each round's line-up and results."""
    with web.backend.read() as snap:
        return HTMLResponse(team_page(_name(snap), team_view(snap, team_id)))


@router.get("/players/{pid}")
def player(pid: str, web: WebDoor = Depends(door)) -> HTMLResponse:
    """A player's card: score, rating performance and every game."""
    with web.backend.read() as snap:
        return HTMLResponse(player_page(_name(snap), player_view(snap, pid)))


@router.get("/crosstable")
def crosstable(web: WebDoor = Depends(door)) -> HTMLResponse:
    """The crosstable: rank by round, opponent, colour and match score."""
    with web.backend.read() as snap:
        return HTMLResponse(crosstable_page(_name(snap), crosstable_view(snap)))


@router.get("/prizes")
def prizes(web: WebDoor = Depends(door)) -> HTMLResponse:
    """The board prizes, one table per nominated board."""
    with web.backend.read() as snap:
        return HTMLResponse(prizes_page(_name(snap), prizes_view(snap)))


@router.get("/rounds")
def rounds(web: WebDoor = Depends(door)) -> RedirectResponse:
    """The pairing of the last paired round."""
    with web.backend.read() as snap:
        return RedirectResponse(f"/rounds/{snap.last_round}", status_code=307)


@router.get("/rounds/{rnd}")
def round_pairings(rnd: int, order: Optional[str] = None, web: WebDoor = Depends(door)) -> HTMLResponse:
    """A round's pairing with the players on every board; ``?order=team``: the teams by name."""
    with web.backend.read() as snap:
        return HTMLResponse(round_page(_name(snap), snap.state.tournament_id or "", round_pairings_view(snap, rnd),
                                       alphabetical=order == "team"))


@router.get("/rounds/{rnd}/tables/{table}/sheet")
def match_sheet(rnd: int, table: int, web: WebDoor = Depends(door)) -> HTMLResponse:
    """The match sheet of a table, print-ready."""
    with web.backend.read() as snap:
        return HTMLResponse(sheet_page(_name(snap), match_sheet_view(snap, rnd, table)))


@router.get("/entry")
def entry() -> FileResponse:
    return FileResponse(STATIC / "entry.html")


@router.get("/audit")
def audit() -> FileResponse:
    return FileResponse(STATIC / "audit.html")


@router.get("/arbiter")
def arbiter() -> FileResponse:
    return FileResponse(STATIC / "arbiter.html")


@router.get("/captain")
def captain() -> FileResponse:
    return FileResponse(STATIC / "captain.html")
