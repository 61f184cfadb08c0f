"""The HTTP app: a documented JSON API, a standings stream (SSE) and the scoreboard/entry pages.

``create_app(backend, tokens)`` builds the FastAPI app over any ``Backend`` (embedded store now,
Kafka later). Reading is public. Writes (board results, corrections, match forfeits) need a
terminal token scoped to the table (``auth``); token management needs the chief arbiter's token.
Every refusal answers with a ``models.Refusal`` body, and nothing is stored or published:

- 401 no, unknown or revoked token; 403 a token used outside its scope;
- 404 an unknown tournament, round, table or team;
- 422 a body that does not fit the event schema (a result code that does not exist) or an event
  that breaks a tournament rule (board 5, a second different result without a correction...);
  ``field`` and ``rule`` name what is wrong.

Pages: ``/`` scoreboard, ``/entry`` result entry, ``/teams/{team_id}`` team page; API docs at
``/docs`` (OpenAPI at ``/openapi.json``).
"""
from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Optional

from fastapi import Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import ValidationError

from processors.tournament import RuleViolation, TournamentState
from projections.pairing.read_model import next_round_proposal
from olympiad.web import pages, views
from olympiad.web.api_errors import READ_ERRORS, REFUSALS, ApiError
from olympiad.web.guards import Guards
from olympiad.web.auth import Refused, TokenStore
from olympiad.web.backend import Backend, StandingsUpdate, compact_rows
from olympiad.web.broadcast import Broadcaster, sse_message
from olympiad.web.models import (
    Comparison, CorrectionIn, ForfeitIn, IssuedToken, Match, Pairings, Preview, PreviewIn, Refusal, ResultsIn,
    RoundInfo, Scoreboard as ScoreboardOut, Standings, TeamPage, TeamRef, TerminalIn, TerminalInfo, Tournament, Written,
)
from schemas.commands import parse_command
from schemas import refusals
from schemas.events import FORFEIT_CODES, RESULT_CODES, EventSchemaError, PairingProposed

STATIC = Path(__file__).resolve().parent / "static"
KEEPALIVE_S = 15.0  # seconds between keep-alive comments on the streams

def request_refusal(errors: list[dict[str, Any]], method: str, path: str) -> Refusal:
    """The ``Refusal`` of a request body that does not fit its model (FastAPI's error list), in
    the product's words (``schemas.refusals``): the field as the deciders name it (``boards[3]``:
    without FastAPI's ``body`` and the command's union tag), the rule an input limit's where one
    applies, else the request schema; ``detail`` is the product's line naming the command (or the
    request) refused."""
    from schemas.commands import COMMAND_TYPES

    err = refusals.first_error(errors)
    loc = list(err.get("loc", ()))
    if loc[:1] == ["body"]:
        loc = loc[1:]
    what = f"request {method} {path}"
    if loc[:1] in (["path"], ["query"]):  # a URL's part: named as the route names it
        loc = loc[1:]
    if loc and loc[0] in COMMAND_TYPES:
        what, loc = f"command {loc[0]}", loc[1:]
    p = refusals.explain({**err, "loc": tuple(loc)}, schema="request schema")
    field = p.field if p.field != "(message)" else "(body)"
    p = refusals.Problem(field, p.message, p.rule)
    return Refusal(detail=refusals.refusal_line(what, p), field=field, rule=p.rule)


def create_app(backend: Backend, tokens: TokenStore) -> FastAPI:
    """The FastAPI app serving ``backend``'s tournament; ``tokens`` checks every write."""
    hub = Broadcaster()
    latest: dict[str, bytes] = {}  # the last standings message, sent first to every new subscriber
    running: dict[str, asyncio.AbstractEventLoop] = {}

    def publish(update: StandingsUpdate) -> None:
        message = sse_message("standings", update.payload(), update.seq)
        latest["message"] = message
        hub.publish(message)

    def snapshot_message() -> bytes | None:
        with backend.read() as snap:
            if snap.last_round == 0 or snap.last_round not in snap.standings:
                return None
            st = snap.standings[snap.last_round]
            update = StandingsUpdate(snap.state.tournament_id, backend.seq, st.round, st.complete, st.digest,
                                     compact_rows(st.document["rows"], snap.state.profile.tiebreaks))
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
        if message is not None:
            latest.setdefault("message", message)
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
    app.state.hub = hub
    app.state.close_streams = close_streams
    bearer_scheme = HTTPBearer(auto_error=False, description="terminal token issued by the chief arbiter")

    # ------------------------------------------------------------------ errors
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return JSONResponse(exc.body.model_dump(), status_code=exc.status)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused):
        body = Refusal(detail=exc.message, field=exc.field, rule="terminal tokens")
        return JSONResponse(body.model_dump(), status_code=exc.status)

    @app.exception_handler(views.NotFound)
    async def _not_found(request: Request, exc: views.NotFound):
        return JSONResponse(Refusal(detail=str(exc), field="(path)", rule="known resources").model_dump(), status_code=404)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        # FastAPI's own refusals: a body that is not JSON (400), an unknown route (404), a method (405).
        field, rule = {400: ("(body)", "JSON syntax"), 404: ("(path)", "known resources")}.get(
            exc.status_code, ("(request)", f"HTTP {exc.status_code}"))
        return JSONResponse(Refusal(detail=str(exc.detail), field=field, rule=rule).model_dump(),
                            status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(RuleViolation)
    async def _rule(request: Request, exc: RuleViolation):
        body = Refusal(detail=str(exc), field=exc.field, rule=exc.rule, event_id=exc.event_id)
        return JSONResponse(body.model_dump(), status_code=422)

    @app.exception_handler(EventSchemaError)
    async def _schema(request: Request, exc: EventSchemaError):
        return JSONResponse(Refusal(detail=str(exc), field=exc.field, rule=exc.rule).model_dump(), status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _request(request: Request, exc: RequestValidationError):
        body = request_refusal(list(exc.errors()), request.method, request.url.path)
        return JSONResponse(body.model_dump(), status_code=422)

    @app.exception_handler(ValidationError)
    async def _validation(request: Request, exc: ValidationError):
        # A model built inside an endpoint from what the request gave: refused in the product's words too.
        p = refusals.problem(exc, schema="request schema")
        return JSONResponse(Refusal(detail=refusals.refusal_line(f"request {request.method} {request.url.path}", p),
                                    field=p.field, rule=p.rule).model_dump(), status_code=422)

    # ------------------------------------------------------------------ helpers
    def check_tournament(tid: str) -> None:
        if backend.tournament_id is None or tid != backend.tournament_id:
            raise views.NotFound(f"unknown tournament {tid!r} (served: {backend.tournament_id or 'none'})")

    def token_of(cred: Optional[HTTPAuthorizationCredentials]) -> str | None:
        return cred.credentials if cred else None

    def now() -> str:
        return datetime.now(timezone.utc).isoformat()

    def proposed_or_refuse(state: TournamentState, rnd: int) -> PairingProposed:
        event = next_round_proposal(state)  # a round that cannot be paired: RuleViolation, 422
        if event is None or event.round != rnd:
            raise views.NotFound(f"no proposal for round {rnd}: the pairing exists once round {rnd - 1} is complete")
        return event

    # ------------------------------------------------------------------ reads
    @app.get("/api/tournaments", response_model=list[Tournament], tags=["read"])
    def tournaments() -> list[dict]:
        """The tournaments served (one per backend)."""
        with backend.read() as snap:
            return [views.tournament_view(snap)] if snap.state.created else []

    @app.get("/api/tournaments/{tid}", response_model=Tournament, responses=READ_ERRORS, tags=["read"])
    def tournament(tid: str) -> dict:
        """A tournament: name, rule profile, tie-break order, paired rounds, the live round."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.tournament_view(snap)

    @app.get("/api/tournaments/{tid}/rounds", response_model=list[RoundInfo], responses=READ_ERRORS, tags=["read"])
    def rounds(tid: str) -> list[dict]:
        """Every paired round with its progress."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.rounds_view(snap)

    @app.get("/api/tournaments/{tid}/rounds/{rnd}/pairings", response_model=Pairings, responses=READ_ERRORS, tags=["read"])
    def pairings(tid: str, rnd: int) -> dict:
        """The pairing of a round with live board-by-board results and match scores."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.pairings_view(snap, rnd)

    @app.get("/api/tournaments/{tid}/rounds/{rnd}/tables/{table}", response_model=Match, responses=READ_ERRORS,
             tags=["read"])
    def match(tid: str, rnd: int, table: int) -> dict:
        """One table of a round: teams, boards with colours and results, match score."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.match_view(snap.state, views.team_refs(snap.state), rnd, table)

    @app.post("/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/preview", response_model=Preview,
              responses=REFUSALS, tags=["read"])
    def preview(tid: str, rnd: int, table: int, body: PreviewIn) -> dict:
        """The match score the table would have with these board results over the stored ones.
        Stores nothing (the entry page shows it while the arbiter types)."""
        check_tournament(tid)
        with backend.read() as snap:
            boards = snap.state.profile.boards
            for b in body.boards:
                if b.result not in RESULT_CODES:
                    raise ApiError(422, f"board {b.board}: {b.result!r} is not a result code; use one of "
                                        f"{', '.join(RESULT_CODES)}", field="result", rule="result codes")
                if not 1 <= b.board <= boards:
                    raise ApiError(422, f"board {b.board} does not exist in a {boards}-board match", field="board",
                                   rule="R-D1 boards 1..4")
            return views.preview_view(snap.state, rnd, table, {b.board: b.result for b in body.boards})

    @app.get("/api/tournaments/{tid}/standings", response_model=Standings, responses=READ_ERRORS, tags=["read"])
    def standings_live(tid: str) -> dict:
        """The standings after the last paired round (live while it is played)."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.standings_view(snap, snap.last_round)

    @app.get("/api/tournaments/{tid}/scoreboard", response_model=ScoreboardOut, responses=READ_ERRORS, tags=["read"])
    def scoreboard(tid: str) -> dict:
        """What the public scoreboard shows: the standings after the last complete round, or while
        a round is in progress the provisional standings with its decided matches only ("3 of 103
        matches"); an unplayed match never moves a tie-break."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.scoreboard_view(snap)

    @app.get("/api/tournaments/{tid}/standings/{rnd}", response_model=Standings, responses=READ_ERRORS, tags=["read"])
    def standings(tid: str, rnd: int) -> dict:
        """The standings after round ``rnd`` as they stood when the next round was paired: MP, every
        tie-break value with its per-opponent breakdown (cut element marked), GP, and the digest."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.standings_view(snap, rnd)

    @app.get("/api/tournaments/{tid}/standings/{rnd}/compare", response_model=Comparison, responses=REFUSALS,
             tags=["read"])
    def compare(tid: str, rnd: int, a: str = Query(description="team id"), b: str = Query(description="team id")) -> dict:
        """Which criterion (MP, a tie-break, or the starting number) separates two teams, and why."""
        check_tournament(tid)
        if a == b:
            raise ApiError(422, "pick two different teams", field="b", rule="compare two teams")
        with backend.read() as snap:
            return views.compare_view(snap, rnd, a, b)

    @app.get("/api/tournaments/{tid}/teams", response_model=list[TeamRef], responses=READ_ERRORS, tags=["read"])
    def teams(tid: str) -> list[dict]:
        """Every registered team by starting number."""
        check_tournament(tid)
        with backend.read() as snap:
            return sorted(views.team_refs(snap.state).values(), key=lambda t: t["pairing_number"])

    @app.get("/api/tournaments/{tid}/teams/{team_id}", response_model=TeamPage, responses=READ_ERRORS, tags=["read"])
    def team(tid: str, team_id: str) -> dict:
        """A team: players in board order and its history round by round (opponent, colour, boards,
        GP, MP, rank after the round)."""
        check_tournament(tid)
        with backend.read() as snap:
            return views.team_view(snap, team_id)

    # ------------------------------------------------------------------ stream
    @app.get("/api/tournaments/{tid}/stream", tags=["stream"], response_class=StreamingResponse, responses={
        200: {"content": {"text/event-stream": {}}, "description": (
            "Server-sent events named `standings`, `id` = update sequence number. The first is the current "
            "standings; then one per accepted write (bursts are merged). `data` is JSON: type "
            "\"StandingsUpdated\", tournament_id, seq, round, complete, digest, caused_by (event ids), "
            "matches (the tables written, as in /rounds/{rnd}/tables/{table}), rows (rank order: rank, "
            "pairing_number, team_id, name, mp, gp, tiebreaks; the breakdown is at /standings/{rnd}).")},
        404: {"model": Refusal}})
    async def stream(tid: str) -> StreamingResponse:
        """Standings updates as server-sent events."""
        check_tournament(tid)
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

    # ------------------------------------------------------------------ writes (commands)
    def actor_of(cred: Optional[HTTPAuthorizationCredentials], tid: str, table: int | None = None) -> dict[str, Any]:
        """The command's actor for the bearer token (``Terminal.actor``)."""
        holder = tokens.authorize(token_of(cred), tid, table) if table is not None else tokens.holder(token_of(cred), tid)
        return holder.actor(table)

    def run(kind: str, fields: dict[str, Any]) -> Any:
        """Build and decide one command (``processors.deciders.handle`` behind the backend); a
        refusal becomes a 403 (who may) or 422 (what) naming the field and the rule."""
        command = parse_command({"command": kind, "issued_at": now(), **fields})
        outcome = backend.command(command)
        if not outcome.accepted:
            raise ApiError(403 if outcome.field == "actor" else 422, outcome.reason, field=outcome.field, rule=outcome.rule)
        return outcome

    def written(outcomes: list[Any], rnd: int, table: int, actor: dict[str, Any]) -> Written:
        with backend.read() as snap:
            match = views.match_view(snap.state, views.team_refs(snap.state), rnd, table)
        ids = [i for o in outcomes for i in o.event_ids]
        new = sum(len(o.event_ids) for o in outcomes if not o.already_recorded)
        return Written(accepted=new, event_ids=ids, terminal_id=actor["id"], match=match)

    @app.post("/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/results", status_code=201, response_model=Written,
              responses=REFUSALS, tags=["write"])
    def enter_results(tid: str, rnd: int, table: int, body: ResultsIn,
                      cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> Written:
        """Record board results of one table, all or none (``RecordResults``; a forfeit code
        +/-, -/+, -/- with its reason, default "other" with the note). Event ids are the server's:
        an identical retry is "already recorded"; a board that already has another result is
        refused (change it with a correction)."""
        check_tournament(tid)
        who = actor_of(cred, tid, table)
        boards = [{"board": e.board, "result": e.result, "note": e.reason or "",
                   **({"forfeit": e.forfeit or "other"} if e.result in FORFEIT_CODES else {})} for e in body.boards]
        outcome = run("RecordResults", {"tournament_id": tid, "actor": who, "round": rnd, "table": table, "boards": boards})
        return written([outcome], rnd, table, who)

    @app.post("/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/corrections", status_code=201,
              response_model=Written, responses=REFUSALS, tags=["write"])
    def correct_result(tid: str, rnd: int, table: int, body: CorrectionIn,
                       cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> Written:
        """The chief arbiter's correction of one board's current result (``CorrectResult``, with a
        reason); a terminal's token is refused (403)."""
        check_tournament(tid)
        who = actor_of(cred, tid, table)
        outcome = run("CorrectResult", {"tournament_id": tid, "actor": who, "round": rnd, "table": table,
                                        "board": body.board, "result": body.result, "reason": body.reason})
        return written([outcome], rnd, table, who)

    @app.post("/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/forfeit", status_code=201, response_model=Written,
              responses=REFUSALS, tags=["write"])
    def forfeit_match(tid: str, rnd: int, table: int, body: ForfeitIn,
                      cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> Written:
        """Record a whole match forfeited (``RecordForfeit`` without a board): ``winner`` gets every
        board by default, or nobody (null: both teams forfeit, R-D8)."""
        check_tournament(tid)
        who = actor_of(cred, tid, table)
        with backend.read() as snap:
            t = views.paired_table(snap.state, rnd, table)
        who_loses = {"forfeiting": [t.home, t.away]} if body.winner is None else {"winner": body.winner}
        outcome = run("RecordForfeit", {"tournament_id": tid, "actor": who, "round": rnd, "table": table,
                                        **who_loses, "reason": body.forfeit or "absence", "note": body.reason})
        return written([outcome], rnd, table, who)

    # ------------------------------------------------------------------ pairings (chief arbiter)
    @app.get("/api/tournaments/{tid}/rounds/{rnd}/proposal", responses=REFUSALS, tags=["pairing"])
    def proposal(tid: str, rnd: int) -> dict:
        """The engine's proposed pairing of round ``rnd`` (``PairingProposed``, with its decision
        trace): it exists once the previous round is complete (issue 3)."""
        check_tournament(tid)
        with backend.read() as snap:
            event = proposed_or_refuse(snap.state, rnd)
        return event.model_dump(mode="json")

    @app.post("/api/tournaments/{tid}/rounds/{rnd}/pairing", status_code=201, responses=REFUSALS, tags=["pairing"])
    def publish_pairing(tid: str, rnd: int,
                        cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> dict:
        """Pair round ``rnd`` with the engine (unless a proposal is pending) and publish it as
        ``RoundPaired`` (``PairRound`` then ``PublishRound``). Chief arbiter only."""
        check_tournament(tid)
        who = actor_of(cred, tid)
        with backend.read() as snap:
            pending = rnd in snap.state.proposals or rnd in snap.state.rounds
        if not pending:
            run("PairRound", {"tournament_id": tid, "actor": who, "round": rnd})
        outcome = run("PublishRound", {"tournament_id": tid, "actor": who, "round": rnd})
        with backend.read() as snap:
            return snap.state.applied[outcome.event_ids[0]].model_dump(mode="json")

    # ------------------------------------------------------------------ terminals
    @app.post("/api/tournaments/{tid}/terminals", status_code=201, response_model=IssuedToken, responses=REFUSALS,
              tags=["terminals"])
    def issue_token(tid: str, body: TerminalIn,
                    cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> IssuedToken:
        """Issue a token for a terminal, scoped to tables (or the whole tournament); the terminal's
        earlier token stops working. Chief arbiter only."""
        check_tournament(tid)
        tokens.authorize_chief(token_of(cred), tid)
        try:
            token = tokens.issue(tid, body.terminal_id, body.tables)
        except ValueError as exc:
            raise ApiError(422, str(exc), field="terminal_id", rule="terminal tokens") from None
        return IssuedToken(terminal_id=body.terminal_id, tables=sorted(set(body.tables)) if body.tables else None,
                           token=token)

    @app.get("/api/tournaments/{tid}/terminals", response_model=list[TerminalInfo], responses=REFUSALS,
             tags=["terminals"])
    def list_terminals(tid: str, cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> list[dict]:
        """Every token issued (never the token itself). Chief arbiter only."""
        check_tournament(tid)
        tokens.authorize_chief(token_of(cred), tid)
        return [{"terminal_id": t.terminal_id, "tables": sorted(t.tables) if t.tables is not None else None,
                 "chief": t.chief, "revoked": revoked, "issued_at": t.issued_at}
                for t, revoked in tokens.terminals(tid)]

    @app.delete("/api/tournaments/{tid}/terminals/{terminal_id}", status_code=204, responses=REFUSALS,
                tags=["terminals"])
    def revoke_token(tid: str, terminal_id: str,
                     cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> None:
        """Revoke a terminal's token. Chief arbiter only."""
        check_tournament(tid)
        tokens.authorize_chief(token_of(cred), tid)
        if not tokens.revoke(tid, terminal_id):
            raise views.NotFound(f"terminal {terminal_id!r} holds no live token")

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    def scoreboard_page(round: Optional[int] = None) -> HTMLResponse:
        with backend.read() as snap:  # standings and pairings in the HTML; the script keeps them live
            return HTMLResponse(pages.scoreboard_page(snap, round))

    @app.get("/entry", include_in_schema=False)
    def entry_page() -> FileResponse:
        return FileResponse(STATIC / "entry.html")

    @app.get("/api/tournaments/{tid}/audit-trail", responses=READ_ERRORS, tags=["read"])
    def audit_trail(tid: str) -> list[dict]:
        """Every arbiter action of the log (``projections.audit.trail``): when, who, the round, what, the
        reason: amended pairings, overridden rules, corrections (late ones marked), forfeits,
        withdrawals, late entries, absences, closed rounds."""
        from dataclasses import asdict

        from projections.audit import trail

        check_tournament(tid)
        with backend.read() as snap:
            return [asdict(a) for a in trail(snap.state)]

    @app.get("/audit", include_in_schema=False)
    def audit_page() -> FileResponse:
        return FileResponse(STATIC / "audit.html")

    @app.get("/teams/{team_id}", include_in_schema=False)
    def team_page(team_id: str) -> FileResponse:
        return FileResponse(STATIC / "team.html")

    from olympiad.web.commands_api import command_routes  # the arbiter's commands and page (issue 11)

    app.include_router(command_routes(backend, tokens))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guards)  # body size limit (413), security headers
    return app
