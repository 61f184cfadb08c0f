"""Routes of the standings: live and after each round, the public scoreboard, which key separates
two teams (``projections.views``), and the standings stream (server-sent events)."""
from __future__ import annotations

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse

from olympiad.web.api_errors import READ_ERRORS, REFUSALS, ApiError
from olympiad.web.deps import WebDoor, door, served
from olympiad.web.models import Comparison, Refusal, Scoreboard, Standings
from projections.views.standings import compare_view, scoreboard_view, standings_view

router = APIRouter()


@router.get("/api/tournaments/{tid}/standings", response_model=Standings, responses=READ_ERRORS, tags=["read"])
def standings_live(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """The standings after the last paired round (live while it is played)."""
    with web.backend.read() as snap:
        return standings_view(snap, snap.last_round)


@router.get("/api/tournaments/{tid}/scoreboard", response_model=Scoreboard, responses=READ_ERRORS, tags=["read"])
def scoreboard(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """What the public scoreboard shows: the standings after the last complete round, or while
    a round is in progress the provisional standings with its decided matches only ("3 of 103
    matches"); an unplayed match never moves a tie-break."""
    with web.backend.read() as snap:
        return scoreboard_view(snap)


@router.get("/api/tournaments/{tid}/standings/{rnd}", response_model=Standings, responses=READ_ERRORS, tags=["read"])
def standings(rnd: int, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """The standings after round ``rnd`` as they stood when the next round was paired: MP, every
    tie-break value with its per-opponent breakdown (cut element marked), GP, and the digest."""
    with web.backend.read() as snap:
        return standings_view(snap, rnd)


@router.get("/api/tournaments/{tid}/standings/{rnd}/compare", response_model=Comparison, responses=REFUSALS,
            tags=["read"])
def compare(rnd: int, tid: str = Depends(served), a: str = Query(description="team id"),
            b: str = Query(description="team id"), web: WebDoor = Depends(door)) -> dict:
    """Which criterion (MP, a tie-break, or the starting number) separates two teams, and why
    (``projections.views.ranking``: the key ``decided_by`` names, for any profile)."""
    if a == b:
        raise ApiError(422, "pick two different teams", field="b", rule="compare two teams")
    with web.backend.read() as snap:
        return compare_view(snap, rnd, a, b)


@router.get("/api/tournaments/{tid}/stream", tags=["stream"], response_class=StreamingResponse, responses={
    200: {"content": {"text/event-stream": {}}, "description": (
        "Server-sent events named `standings`, `id` = update sequence number. The first is the current "
        "standings; then one per accepted write (bursts are merged). `data` is JSON: type "
        "\"StandingsUpdated\", tournament_id, seq, round, complete, digest, caused_by (event ids), "
        "matches (the tables written, as in /rounds/{rnd}/tables/{table}), rows (rank order: rank, "
        "pairing_number, team_id, name, mp, gp, tiebreaks, decided_by; the breakdown is at /standings/{rnd}).")},
    404: {"model": Refusal}})
async def stream(request: Request, tid: str = Depends(served)) -> StreamingResponse:
    """Standings updates as server-sent events."""
    hub, latest = request.app.state.hub, request.app.state.latest
    queue = hub.subscribe()

    async def messages():
        try:
            if "message" in latest:
                yield latest["message"]
            while (message := await queue.get()) is not None:
                yield message
        finally:
            hub.unsubscribe(queue)

    return StreamingResponse(messages(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
