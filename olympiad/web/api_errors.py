"""How the HTTP API refuses: ``ApiError`` (a status and a ``models.Refusal`` body) and the OpenAPI
``responses`` of a write (``REFUSALS``) and a read (``READ_ERRORS``).

Its own module because both routers (``olympiad.web.app`` and ``olympiad.web.commands_api``) raise
it: held by ``app``, which mounts ``commands_api``, it made the two import each other.
"""
from __future__ import annotations

from olympiad.web.models import Refusal

REFUSALS = {s: {"model": Refusal} for s in (401, 403, 404, 422)}
READ_ERRORS = {404: {"model": Refusal}}


class ApiError(Exception):
    """A refusal with its HTTP status and ``Refusal`` fields."""

    def __init__(self, status: int, detail: str, field: str | None = None, rule: str | None = None,
                 event_id: str | None = None):
        super().__init__(detail)
        self.status = status
        self.body = Refusal(detail=detail, field=field, rule=rule, event_id=event_id)
