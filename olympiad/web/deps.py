"""The shared dependencies of the web app's routers: the backend, who asks, the clock, and the one
HTTP command path.

``create_app`` (the web process's composition root) puts one ``WebDoor`` on ``app.state.door``;
each router takes it with ``Depends(door)``, the bearer token with ``Depends(token)`` and a served
tournament's id with ``Depends(served)``. No rule lives here: a command is built, stamped and
handed to ``Backend.command`` (``processors.deciders.handle``, in this process or by the
processors), whose verdict is answered.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from olympiad.clock import Clock
from olympiad.web.api_errors import ApiError
from olympiad.web.auth import TokenStore
from olympiad.web.backend import Backend
from projections.views.refs import NotFound
from schemas.commands import parse_command
from schemas.events import EventSchemaError

bearer_scheme = HTTPBearer(auto_error=False, description="the chief arbiter's, a terminal's or a captain's token")


@dataclass(frozen=True)
class WebDoor:
    """The web process's adapters: the ``backend`` serving the tournament, the ``tokens`` that say
    who asks, and the one ``clock`` that stamps every command (``issued_at``) and token."""

    backend: Backend
    tokens: TokenStore
    clock: Clock

    def check_tournament(self, tid: str) -> None:
        """Raise ``NotFound`` (404) unless ``tid`` is the tournament served."""
        served = self.backend.tournament_id
        if served is None or tid != served:
            raise NotFound(f"unknown tournament {tid!r} (served: {served or 'none'})")

    def actor(self, token: str | None, tid: str, table: int | None = None) -> dict[str, Any]:
        """The command's ``actor`` for the holder of ``token`` (``auth.Terminal.actor``): a
        terminal's token is checked against ``table`` when the command names one. Raises
        ``auth.Refused`` (401/403)."""
        holder = self.tokens.authorize(token, tid, table) if table is not None else self.tokens.holder(token, tid)
        return holder.actor(table)

    def send(self, fields: dict[str, Any]) -> Any:
        """The one HTTP command path: the command of ``fields`` (``command``, ``tournament_id``,
        ``actor`` and its own fields; ``command_id`` none), stamped ``issued_at`` by the clock,
        decided by ``Backend.command``. Returns the accepted ``producers.doors.Outcome``. Raises
        ``ApiError``: 403 for a refusal about ``actor`` (who may), else 422 (what), naming the
        field and the rule; a command that does not fit its schema is a 422 too."""
        return self.accepted(self.decide(fields))

    def decide(self, fields: dict[str, Any]) -> Any:
        """``send`` less the last step: the ``Outcome``, accepted or refused (``accepted`` raises
        for a refusal). Raises ``ApiError`` (422) for a command that does not fit its schema."""
        try:
            command = parse_command({**fields, "issued_at": self.clock()})
        except EventSchemaError as exc:
            raise ApiError(422, str(exc), field=exc.field, rule=exc.rule) from None
        return self.backend.command(command)

    @staticmethod
    def accepted(outcome: Any) -> Any:
        """``outcome`` when accepted; else raises ``ApiError`` (403 about ``actor``, else 422)."""
        if not outcome.accepted:
            raise ApiError(403 if outcome.field == "actor" else 422, outcome.reason, field=outcome.field, rule=outcome.rule)
        return outcome


# The dependencies below only read attributes: ``async def`` runs them in the event loop, where a
# plain ``def`` would cost each request a trip to the thread pool and back (three per request,
# each waiting its turn behind a fan-out of the standings to thousands of stream subscribers).
async def door(request: Request) -> WebDoor:
    """The app's ``WebDoor`` (a FastAPI dependency)."""
    return request.app.state.door


async def token(cred: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme)) -> str | None:
    """The request's bearer token, None without one (a FastAPI dependency)."""
    return cred.credentials if cred else None


async def served(tid: str, web: WebDoor = Depends(door)) -> str:
    """The path's tournament id ``tid`` once it is the tournament served; else 404 (a FastAPI dependency)."""
    web.check_tournament(tid)
    return tid


async def chief_key(request: Request) -> Any:
    """The server's chief arbiter key (``producers.signing.ChiefKey``; ``app.state.chief_key``,
    None when rounds closed here are not signed)."""
    return getattr(request.app.state, "chief_key", None)
