"""What every view reads: the tournament state and the standings after each round.

A deployment (the embedded store, the Kafka pipeline) hands out ``Snapshot`` objects; the views of
``projections.views`` only read them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from processors.tournament import TournamentState


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
    """The tournament as a deployment knows it: the aggregate and the standings after each round.

    ``standings[r]`` are the standings after round r as they stood when round r + 1 was paired
    (``projections.replay`` semantics); the last paired round's are live. Read-only.
    """

    state: TournamentState
    standings: Mapping[int, StandingsDocument]

    @property
    def last_round(self) -> int:
        return max(self.state.rounds, default=0)
