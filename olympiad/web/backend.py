"""What the HTTP app needs from a deployment: read the tournament, write events, push standings.

Two deployments serve the same app:

- embedded (``olympiad.web.embedded.EmbeddedBackend``): the ``EventStore`` in this process;
  an accepted write is appended, the standings are recomputed by the core and pushed in-process.
- Kafka (``olympiad.web.kafka_backend.KafkaBackend``): ``submit`` validates against a
  ``TournamentState`` folded from ``tournament-log`` and publishes through ``producers.terminal``;
  updates come from the ``standings`` topic, standings documents from the projection worker's
  read models. The app, the pages and the tests do not change.

The app calls ``start`` once in its event loop with a ``publish`` callback, reads through
``read()`` (a consistent snapshot while the context is open) and writes through ``submit`` from a
worker thread.
"""
from __future__ import annotations

import copy
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from processors.tournament import TournamentState
from projections.standings.decided_by import decided_by_documents


class StandingsDocument(Protocol):
    """Standings after one round as the views read them (``projections.replay.RoundStandings`` is one).

    ``document`` is the canonical standings document (``projections.standings.standings_document``:
    rows in rank order with every tie-break value and its per-opponent ``breakdown``); ``digest``
    its SHA-256 (hex), equal to what ``olympiad replay`` prints.
    """

    @property
    def round(self) -> int: ...

    @property
    def complete(self) -> bool: ...

    @property
    def digest(self) -> str: ...

    @property
    def document(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Snapshot:
    """The tournament as the backend knows it: the aggregate and the standings after each round.

    ``standings[r]`` are the standings after round r as they stood when round r + 1 was paired
    (``projections.replay`` semantics); the last paired round's are live. Read-only.
    """

    state: TournamentState
    standings: Mapping[int, StandingsDocument]

    @property
    def last_round(self) -> int:
        return max(self.state.rounds, default=0)


@dataclass(frozen=True)
class StandingsUpdate:
    """One push to the stream: the standings after ``round`` and what changed since the last push.

    ``rows`` are the standings rows in rank order, each ``STREAM_FIELDS`` of the
    ``StandingRow.as_dict`` form (fetch ``/standings/{round}`` for the breakdown);
    ``matches`` the ``views.match_view`` of each table written since the previous update;
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


STREAM_FIELDS = ("rank", "pairing_number", "team_id", "name", "mp", "gp", "tiebreaks")


def compact_rows(rows: Iterable[Mapping[str, Any]], tiebreaks: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Standings document rows (``document["rows"]``, or the rows of a ``StandingsUpdated``) as the
    stream carries them: ``STREAM_FIELDS`` only, and with the profile's ``tiebreaks`` each row's
    ``decided_by`` (``projections.standings.decided_by``). Raises ``KeyError`` for a row missing one."""
    out = [{k: row[k] for k in STREAM_FIELDS} for row in rows]
    if tiebreaks is not None:
        for row, by in zip(out, decided_by_documents(out, tiebreaks)):
            row["decided_by"] = by
    return out


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

    def checkpoint_basis(self, tournament_id: str, rnd: int, through: str) -> dict[str, Any] | None:
        """What the checkpoint of closed round ``rnd`` signs, from the log through the event
        ``through`` (its ``RoundClosed``): ``producers.signing.checkpoint_basis``, as the door
        of the CLI reads it; None once the round has one (or the tournament no key)."""

    def submit(self, events: Sequence[Any]) -> int:
        """Validate ``events`` against the tournament rules and store/publish them all or none.

        Blocking (call from a worker thread). Returns how many were new (a repeated event id is a
        no-op). Raises ``processors.tournament.RuleViolation`` (``event_id`` set) and then nothing
        is stored or published.
        """

    async def start(self, publish: Callable[[StandingsUpdate], None]) -> None:
        """Begin serving; ``publish`` is called in the event loop with each standings update."""

    async def stop(self) -> None:
        """Stop pushing updates and release resources."""
