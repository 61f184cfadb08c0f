"""How the HTTP API refuses: ``ApiError`` (a status and a ``models.Refusal`` body), the OpenAPI
``responses`` of a write (``REFUSALS``) and a read (``READ_ERRORS``), and ``install_refusals``,
which answers every refusal of the app with a ``Refusal`` body in the product's words:

- 401 no, unknown or revoked token; 403 a token used outside its scope, or a role that may not;
- 404 an unknown tournament, round, table or team (``projections.views.refs.NotFound``);
- 409 a tournament created on a server that serves another (one per server);
- 422 a body that does not fit the request schema, or a rule broken (``RuleViolation``,
  ``EventSchemaError``); ``field`` and ``rule`` name what is wrong.
"""
from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from olympiad.web.auth import Refused
from olympiad.web.models import Refusal
from processors.tournament import RuleViolation
from projections.views.refs import NotFound
from schemas import refusals
from schemas.commands import COMMAND_TYPES
from schemas.events import EventSchemaError

REFUSALS = {s: {"model": Refusal} for s in (401, 403, 404, 422)}
CONFLICT = {409: {"model": Refusal}}
"""409: the server holds another tournament (one per server)."""
READ_ERRORS = {404: {"model": Refusal}}


class ApiError(Exception):
    """A refusal with its HTTP status and ``Refusal`` fields."""

    def __init__(self, status: int, detail: str, field: str | None = None, rule: str | None = None,
                 event_id: str | None = None):
        super().__init__(detail)
        self.status = status
        self.body = Refusal(detail=detail, field=field, rule=rule, event_id=event_id)


def request_refusal(errors: list[dict[str, Any]], method: str, path: str) -> Refusal:
    """The ``Refusal`` of a request body that does not fit its model (FastAPI's error list), in
    the product's words (``schemas.refusals``): the field as the deciders name it (``boards[3]``:
    without FastAPI's ``body`` and the command's union tag), the rule an input limit's where one
    applies, else the request schema; ``detail`` is the product's line naming the command (or the
    request) refused."""
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


def _answer(body: Refusal, status: int, headers: Any = None) -> JSONResponse:
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


def install_refusals(app: FastAPI) -> None:
    """Answer every refusal of ``app`` with a ``Refusal`` body and its status (module docstring)."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError):
        return _answer(exc.body, exc.status)

    @app.exception_handler(Refused)
    async def _refused(request: Request, exc: Refused):
        return _answer(Refusal(detail=exc.message, field=exc.field, rule="terminal tokens"), exc.status)

    @app.exception_handler(NotFound)
    async def _not_found(request: Request, exc: NotFound):
        return _answer(Refusal(detail=str(exc), field="(path)", rule="known resources"), 404)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        # FastAPI's own refusals: a body that is not JSON (400), an unknown route (404), a method (405).
        field, rule = {400: ("(body)", "JSON syntax"), 404: ("(path)", "known resources")}.get(
            exc.status_code, ("(request)", f"HTTP {exc.status_code}"))
        return _answer(Refusal(detail=str(exc.detail), field=field, rule=rule), exc.status_code,
                       getattr(exc, "headers", None))

    @app.exception_handler(RuleViolation)
    async def _rule(request: Request, exc: RuleViolation):
        return _answer(Refusal(detail=str(exc), field=exc.field, rule=exc.rule, event_id=exc.event_id), 422)

    @app.exception_handler(EventSchemaError)
    async def _schema(request: Request, exc: EventSchemaError):
        return _answer(Refusal(detail=str(exc), field=exc.field, rule=exc.rule), 422)

    @app.exception_handler(RequestValidationError)
    async def _request(request: Request, exc: RequestValidationError):
        return _answer(request_refusal(list(exc.errors()), request.method, request.url.path), 422)

    @app.exception_handler(ValidationError)
    async def _validation(request: Request, exc: ValidationError):
        # A model built inside an endpoint from what the request gave: refused in the product's words too.
        p = refusals.problem(exc, schema="request schema")
        return _answer(Refusal(detail=refusals.refusal_line(f"request {request.method} {request.url.path}", p),
                               field=p.field, rule=p.rule), 422)
