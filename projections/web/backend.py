"""What the HTTP app needs from a deployment: read the tournament, write events, push standings.

Two deployments serve the same app:

- embedded (``projections.web.embedded.EmbeddedBackend``): the ``EventStore`` in this process;
  an accepted write is appended, the standings are recomputed by the core and pushed in-process.
- Kafka (to come with issue 4): ``submit`` validates against a locally folded
  ``TournamentState`` and publishes through ``producers.terminal``; updates come from the standings
  topic. The app, the pages and the tests do not change.

The app calls ``start`` once in its event loop with a ``publish`` callback, reads through
``read()`` (a consistent snapshot while the context is open) and writes through ``submit`` from a
worker thread.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from processors.tournament import TournamentState
from projections.replay import RoundStandings


@dataclass(frozen=True)
class Snapshot:
    """The tournament as the backend knows it: the aggregate and the standings after each round.

    ``standings[r]`` are the standings after round r as they stood when round r + 1 was paired
    (``projections.replay`` semantics); the last paired round's are live. Read-only.
    """

    state: TournamentState
    standings: Mapping[int, RoundStandings]

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


def compact_rows(standings: RoundStandings) -> list[dict[str, Any]]:
    """The standings rows of ``standings`` as the stream carries them (``STREAM_FIELDS`` only)."""
    return [{k: row[k] for k in STREAM_FIELDS} for row in standings.document["rows"]]


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
