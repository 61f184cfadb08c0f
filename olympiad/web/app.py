"""The HTTP app: a documented JSON API, a standings stream (SSE) and the scoreboard/entry pages.

``create_app(backend, tokens)`` is the web process's composition root: it wires the adapters
(the ``Backend`` serving the tournament: embedded store or Kafka; the ``TokenStore``; the one
clock; the chief arbiter's key) into the shared dependencies (``deps.WebDoor``) and composes the
routers, one per resource, none of which holds a rule:

- ``tournaments_api``: the tournament, its rounds' progress, the audit trail, the published
  checkpoints (``/api/tournaments/{tid}/checkpoints``), the arbiter's view;
- ``rounds_api``: pairings, the engine's proposal and explanation, publication;
- ``results_api``: a table, a preview, line-ups, and result entry (results, corrections, forfeits);
- ``standings_api``: standings, the scoreboard, the comparison of two teams, the stream;
- ``teams_api``: teams, a team's page, a team file import, captains' tokens;
- ``players_api``: player results, a player's card, board prizes, the crosstable, a round with its
  players, the CSV exports, what a token's holder may enter;
- ``terminals_api``: terminal tokens (chief arbiter only);
- ``commands_api``: every command of ``schemas.commands`` (the arbiter page's writes);
- ``whatif_api``: the what-if (hypothetical results over a copy of the state: a read, never a write);
- ``pages_api``: the HTML pages.

Reading is public; every write is one command through ``deps.WebDoor.send``. Every refusal
answers a ``models.Refusal`` body (``api_errors.install_refusals``), and nothing is stored or
published. API docs at ``/docs`` (OpenAPI at ``/openapi.json``).
"""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from olympiad.clock import Clock, now
from olympiad.web import (
    commands_api, games_api, pages_api, players_api, results_api, rounds_api, standings_api, teams_api, terminals_api,
    tournaments_api, whatif_api,
)
from olympiad.web.api_errors import install_refusals
from olympiad.web.auth import TokenStore
from olympiad.web.backend import Backend, StandingsUpdate
from olympiad.web.broadcast import Broadcaster, sse_message
from olympiad.web.deps import WebDoor
from olympiad.web.guards import Guards
from projections.views.standings import compact_rows

STATIC = Path(__file__).resolve().parent / "static"
KEEPALIVE_S = 15.0  # seconds between keep-alive comments on the streams
ROUTERS = (tournaments_api, rounds_api, results_api, standings_api, teams_api, players_api, terminals_api, commands_api,
           whatif_api, games_api, pages_api)


def create_app(backend: Backend, tokens: TokenStore, *, clock: Clock = now, chief_key: Any = None,
               new_event: dict[str, str] | None = None) -> FastAPI:
    """The FastAPI app serving ``backend``'s tournament; ``tokens`` says who asks; ``clock`` stamps
    every command's ``issued_at`` and every token issued (default ``olympiad.clock.now``);
    ``chief_key`` (``producers.signing.ChiefKey``) signs every round closed here (``app.state.chief_key``);
    ``new_event`` (``{"name", "profile"}``): what ``serve --new`` offers to create (``app.state.new_event``)."""
    hub = Broadcaster()  # hub.latest: the last standings message, sent first to every new subscriber
    running: dict[str, asyncio.AbstractEventLoop] = {}

    def publish(update: StandingsUpdate) -> None:
        hub.publish(sse_message("standings", update.payload(), update.seq))  # encoded once for every subscriber

    def snapshot_message() -> bytes | None:
        with backend.read() as snap:
            if snap.last_round == 0 or snap.last_round not in snap.standings:
                return None
            st = snap.standings[snap.last_round]
            update = StandingsUpdate(snap.state.tournament_id, backend.seq, st.round, st.complete, st.digest,
                                     compact_rows(st.document["rows"], snap.state.profile.tiebreaks, snap.state.profile.primary_score.upper()))
        return sse_message("standings", update.payload(), update.seq)

    async def keep_alive() -> None:
        while True:
            await asyncio.sleep(KEEPALIVE_S)
            hub.ping()

    def close_streams() -> None:
        """End every open stream, from any thread: a server that is asked to stop calls it, as it
        would otherwise wait for the streams to end."""
        if "loop" in running:
            running["loop"].call_soon_threadsafe(hub.close)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        running["loop"] = asyncio.get_running_loop()
        await backend.start(publish)
        message = await run_in_threadpool(snapshot_message)
        if message is not None and hub.latest is None:
            hub.latest = message
        pinger = asyncio.create_task(keep_alive(), name="stream-keep-alive")
        yield
        pinger.cancel()
        hub.close()
        await backend.stop()

    app = FastAPIOffline(  # /docs and /redoc with the installed Swagger UI and ReDoc: no CDN, no internet
        title="olympiad-events live",
        version="1",
        description=(
            "Live standings and result entry of an Olympiad-style team Swiss. Reading is public; writes need "
            "a terminal token issued by the chief arbiter (`Authorization: Bearer <token>`), scoped to tables. "
            "Points are decimal strings in half-points; result codes are White-Black; the home team has White "
            "on boards 1 and 3. Standings follow the rule profile of the tournament (MP, then its tie-breaks)."
        ),
        lifespan=lifespan,
        openapi_tags=[
            {"name": "read", "description": "public read models"},
            {"name": "stream", "description": "server-sent events: standings after each accepted write"},
            {"name": "write", "description": "result entry by terminals (token scoped to tables)"},
            {"name": "terminals", "description": "terminal tokens, chief arbiter only"},
        ],
    )
    app.state.door = WebDoor(backend, tokens, clock)
    app.state.hub = hub
    app.state.scoreboard_body = standings_api.BodyCache()
    app.state.close_streams = close_streams
    app.state.chief_key = chief_key
    app.state.new_event = new_event
    install_refusals(app)
    for module in ROUTERS:
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guards)  # body size limit (413), security headers
    stack = app.build_middleware_stack  # the stream's fast path stands outside every middleware, even Starlette's
    app.build_middleware_stack = lambda: standings_api.StreamFastPath(stack(), hub=hub, backend=backend)
    return app
