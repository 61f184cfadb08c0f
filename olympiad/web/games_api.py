"""Routes of a live game feed (issue 29, ``docs/feeds.md``): the boards in progress (the
scoreboard's), and what the arbiter sees of the feed (results to confirm, flags, problems). The
arbiter confirms with the ``ConfirmResults`` command (``/commands``)."""
from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Depends

from olympiad.web.api_errors import READ_ERRORS
from olympiad.web.deps import WebDoor, door, served
from projections.views.games import feed_view, games_view

router = APIRouter()


@router.get("/api/tournaments/{tid}/games", responses=READ_ERRORS, tags=["read"])
def games(tid: str = Depends(served), round: Optional[int] = None, web: WebDoor = Depends(door)) -> dict[str, Any]:
    """The games a live feed shows in ``round`` (default the last paired round): per board the
    players, move number, last move, clocks, reported and recorded result, and the position as a
    small SVG board."""
    with web.backend.read() as snap:
        return games_view(snap, round)


@router.get("/api/tournaments/{tid}/feed", responses=READ_ERRORS, tags=["read"])
def feed(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """What the arbiter sees of the live feed: reported results to confirm, results that differ
    from the feed's (the arbiter's stand), draw-offer flags (R-D6), possible late arrivals (R-D5),
    and the feed's problems."""
    with web.backend.read() as snap:
        return feed_view(snap)
