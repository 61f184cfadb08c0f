"""What the HTTP app needs from a deployment: read the tournament, decide commands, push standings.

Two deployments serve the same app:

- embedded (``olympiad.web.embedded.EmbeddedBackend``): the ``EventStore`` in this process;
  a command is decided in-process (``producers.doors.EmbeddedDoor``), the standings are
  recomputed by the core and pushed in-process.
- Kafka (``olympiad.web.kafka_backend.KafkaBackend``): a command is sent to the processors, which
  decide it; the state is ``tournament-log`` replayed (evolve only), updates come from the
  ``standings`` topic, standings documents from the projection worker's read models. The app,
  the pages and the tests do not change.

The app calls ``start`` once in its event loop with a ``publish`` callback, reads through
``read()`` (a consistent snapshot while the context is open) and sends commands through
``command`` from a worker thread. Events enter only as a decider's output: no raw event is taken.
"""
from __future__ import annotations

import copy
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Protocol

from processors.tournament import TournamentState
from projections.views.snapshot import Snapshot


@dataclass(frozen=True)
class StandingsUpdate:
    """One push to the stream: the standings after ``round`` and what changed since the last push.

    ``rows`` are the standings rows in rank order (``projections.views.standings.compact_rows``:
    no breakdown, fetch ``/standings/{round}`` for it); ``matches`` the
    ``projections.views.matches.match_view`` of each table written since the previous update;
    ``caused_by`` the ids of the events accepted since then (empty for a snapshot).
    """

    tournament_id: str
    seq: int
    round: int
    complete: bool
    digest: str
    rows: list[dict[str, Any]]
    matches: list[dict[str, Any]] = field(default_factory=list)
    caused_by: list[str] = field(default_factory=list)

    def payload(self) -> dict[str, Any]:
        return {
            "type": "StandingsUpdated", "tournament_id": self.tournament_id, "seq": self.seq, "round": self.round,
            "complete": self.complete, "digest": self.digest, "caused_by": self.caused_by,
            "matches": self.matches, "rows": self.rows,
        }


def frozen_copy(state: TournamentState) -> TournamentState:
    """A copy of ``state`` that later ``apply`` calls on either do not change in the other: each
    container field is copied (its items, events and tuples, are immutable). About 1 ms for 206
    teams and 11 rounds."""
    return replace(state, **{f.name: copy.copy(getattr(state, f.name)) for f in fields(state)})


class Backend(Protocol):
    """A deployment of one tournament behind the HTTP app."""

    @property
    def tournament_id(self) -> str | None:
        """The tournament served (None while the store holds no ``TournamentCreated``)."""

    @property
    def seq(self) -> int:
        """Number of standings updates published so far."""

    def read(self) -> AbstractContextManager[Snapshot]:
        """A consistent ``Snapshot``; no write is applied while the context is open."""

    def command(self, command: Any) -> Any:
        """Decide ``command`` (``processors.deciders.handle``, in this process or by the processors)
        and store/publish the events it yields. Blocking (call from a worker thread). Returns the
        ``producers.doors.Outcome``; a refusal is an outcome, not an exception."""

    def log_head(self, tournament_id: str) -> tuple[Any, int, str | None]:
        """The log as it stands: its state, its number of events, its chain head (what closing a
        round signs: ``producers.signing.close_signed``), as the door of the CLI reads it."""

    async def start(self, publish: Callable[[StandingsUpdate], None]) -> None:
        """Begin serving; ``publish`` is called in the event loop with each standings update."""

    async def stop(self) -> None:
        """Stop pushing updates and release resources."""
