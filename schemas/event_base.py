"""The fields every event carries (``schemas.events`` names them): its id, its tournament, when it
happened and who did it. A module of its own so that each family of events (``schemas.events``,
``schemas.game_events``) builds on it without importing the other."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from schemas.limits import ActorId, EventId, Timestamp, TournamentId


class EventBase(BaseModel):
    """An event: ``event_id`` (derived from what it says, ``schemas.event_ids``), ``tournament_id``,
    ``occurred_at`` and ``actor`` (None for imported facts)."""

    # defer_build: a type's validator is built when an event of that type is first read, so that a
    # command reading five of the seventeen types (a replay) does not build the other twelve.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    event_id: EventId
    tournament_id: TournamentId
    occurred_at: Timestamp | None = None
    actor: ActorId | None = None
