"""Routes of the pages: the scoreboard rendered on the server (``pages``), and the static pages of
result entry, the audit trail, a team, the arbiter and a captain (their scripts read the API)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse, HTMLResponse

from olympiad.web.deps import WebDoor, door
from olympiad.web.pages import scoreboard_page

STATIC = Path(__file__).resolve().parent / "static"

router = APIRouter(include_in_schema=False)


@router.get("/")
def scoreboard(round: Optional[int] = None, web: WebDoor = Depends(door)) -> HTMLResponse:
    """The scoreboard: standings and pairings in the HTML; the page's script keeps them live."""
    with web.backend.read() as snap:
        return HTMLResponse(scoreboard_page(snap, round))


@router.get("/entry")
def entry() -> FileResponse:
    return FileResponse(STATIC / "entry.html")


@router.get("/audit")
def audit() -> FileResponse:
    return FileResponse(STATIC / "audit.html")


@router.get("/teams/{team_id}")
def team(team_id: str) -> FileResponse:
    return FileResponse(STATIC / "team.html")


@router.get("/arbiter")
def arbiter() -> FileResponse:
    return FileResponse(STATIC / "arbiter.html")


@router.get("/captain")
def captain() -> FileResponse:
    return FileResponse(STATIC / "captain.html")
