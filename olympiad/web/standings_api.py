"""Routes of the standings: live and after each round, the public scoreboard, which key separates
two teams (``projections.views``), and the standings stream (server-sent events)."""
from __future__ import annotations

import re
from typing import Any, Callable

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response, StreamingResponse

from olympiad.web.backend import Backend
from olympiad.web.broadcast import Broadcaster, SubscriptionResponse
from olympiad.web.api_errors import READ_ERRORS, REFUSALS, ApiError
from olympiad.web.guards import security_headers
from olympiad.web.deps import WebDoor, door, served
from olympiad.web.models import Comparison, Refusal, Scoreboard, Standings
from projections.views.snapshot import Snapshot
from projections.views.standings import compare_view, scoreboard_view, standings_view

router = APIRouter()
STREAM_PATH = re.compile(r"/api/tournaments/([^/]+)/stream")
STREAM_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                  (b"x-accel-buffering", b"no")]


@router.get("/api/tournaments/{tid}/standings", response_model=Standings, responses=READ_ERRORS, tags=["read"])
def standings_live(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """The standings after the last paired round (live while it is played)."""
    with web.backend.read() as snap:
        return standings_view(snap, snap.last_round)


class BodyCache:
    """The JSON body of one view for the state it was made from: every scoreboard page fetches
    ``/scoreboard`` after each standings update, so 5,000 spectators would otherwise have the same
    view computed, validated and encoded 5,000 times. The key is the tournament, its number of
    applied events and every round's standings digest: a write or a new standings changes it."""

    def __init__(self) -> None:
        self._entry: tuple[Any, bytes] | None = None

    @staticmethod
    def key(snap: Snapshot) -> tuple:
        return (snap.state.tournament_id, len(snap.state.applied),
                tuple((r, s.digest, s.complete) for r, s in sorted(snap.standings.items())))

    def body(self, snap: Snapshot, make: Callable[[], bytes]) -> bytes:
        """The body for ``snap``: the one kept if its key is unchanged, else ``make()`` (kept)."""
        key, entry = self.key(snap), self._entry
        if entry is not None and entry[0] == key:
            return entry[1]
        body = make()
        self._entry = (key, body)  # one assignment: a concurrent reader sees the old entry or the new
        return body


@router.get("/api/tournaments/{tid}/scoreboard", response_model=Scoreboard, responses=READ_ERRORS, tags=["read"])
def scoreboard(request: Request, tid: str = Depends(served), web: WebDoor = Depends(door)) -> Response:
    """What the public scoreboard shows: the standings after the last complete round, or while
    a round is in progress the provisional standings with its decided matches only ("3 of 103
    matches"); an unplayed match never moves a tie-break. Encoded once per state (``BodyCache``)."""
    with web.backend.read() as snap:
        body = request.app.state.scoreboard_body.body(
            snap, lambda: Scoreboard.model_validate(scoreboard_view(snap)).model_dump_json().encode())
    return Response(body, media_type="application/json")


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
async def stream(request: Request, tid: str = Depends(served)) -> SubscriptionResponse:
    """Standings updates as server-sent events."""
    # The current standings first, then always the newest (broadcast.Subscription: drop to latest).
    return SubscriptionResponse(request.app.state.hub, STREAM_HEADERS)


class StreamFastPath:
    """ASGI middleware outside all others (``app.create_app``): ``GET /api/tournaments/{tid}/stream``
    of the tournament served goes straight to a ``SubscriptionResponse``, past FastAPI's routing and
    dependency solving, whose per-request objects would otherwise live as long as the stream, and
    past the middlewares' wrappers of ``send``, so that the fan-out can write to the connection
    itself (``broadcast.transport_of``). It answers what the route above answers, with the
    ``guards`` security headers; anything else (another tournament's stream: the route's 404) goes
    on to the app."""

    def __init__(self, app: Any, hub: Broadcaster, backend: Backend) -> None:
        self.app, self.hub, self.backend = app, hub, backend

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if (scope["type"] == "http" and scope["method"] == "GET" and (m := STREAM_PATH.fullmatch(scope["path"]))
                and m[1] == self.backend.tournament_id):
            await SubscriptionResponse(self.hub, STREAM_HEADERS + security_headers(scope["path"]))(scope, receive, send)
        else:
            await self.app(scope, receive, send)
