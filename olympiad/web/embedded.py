"""The embedded backend: the ``EventStore`` in this process, standings pushed after each write.

Writes are commands, decided by ``processors.deciders.handle`` through the embedded door
(``producers.doors.EmbeddedDoor``) and stored all or nothing. A single updater task then
recomputes the standings after the last paired round with ``projections.replay.standings_after`` on a copy of the state (about 20 ms CPU for 206 teams;
writes do not wait for it) and publishes one ``StandingsUpdate``; writes that arrive while it
computes are folded into the next update, so a burst of submissions costs one computation, not
one each. Standings after earlier rounds stay as they stood when the next round was paired
(replay semantics), so only the last round's standings change.
The SQL read models (``EventStore.project``) are rebuilt at start, when a round becomes complete,
when a round is published (the round before may have taken its last results in the same burst)
and at stop.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from producers.doors import EmbeddedDoor
from projections.replay import RoundStandings, standings_after
from projections.store import EventStore, database_url
from olympiad.web.backend import StandingsUpdate, frozen_copy
from projections.views.matches import match_view
from projections.views.refs import team_refs
from projections.views.snapshot import Snapshot
from projections.views.standings import compact_rows

log = logging.getLogger("olympiad.web")


def store_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (default ``$DATABASE_URL`` or in-memory SQLite) usable from any thread:
    in-memory SQLite gets one shared connection, so every thread sees the same database."""
    url = database_url(url)
    if url in ("sqlite://", "sqlite:///:memory:"):
        return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    return create_engine(url)


class EmbeddedBackend:
    """The ``Backend`` over an ``EventStore`` of one tournament, in this process."""

    def __init__(self, store: EventStore):
        self.store = store
        self._lock = threading.RLock()
        self._standings: dict[int, RoundStandings] = {}
        self._touched: dict[tuple[int, int], None] = {}  # tables written since the last update, in order
        self._caused: list[str] = []
        self._projected_complete: set[int] = set()
        self._seq = 0
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task | None = None

    @property
    def tournament_id(self) -> str | None:
        return self.store.state.tournament_id

    @property
    def seq(self) -> int:
        return self._seq

    @contextmanager
    def read(self) -> Iterator[Snapshot]:
        with self._lock:
            self._catch_up()
            yield Snapshot(self.store.state, self._standings)

    def _catch_up(self) -> None:
        """Read in the events another process stored (the arbiter's CLI commands on the same
        store, beside ``serve``): one indexed query when there are none; the standings updater is
        woken when there are."""
        before = len(self.store.state.applied)
        self.store.refresh()
        applied = self.store.state.applied  # in the order applied: the new ones last
        new = list(applied.values())[before:] if len(applied) != before else []
        for e in new:
            if getattr(e, "table", None) is not None:  # a feed problem may name no table
                self._touched[(e.round, e.table)] = None
            self._caused.append(e.event_id)
        self._after_publication(new)
        if new and self._loop is not None and self.store.state.rounds:
            self._loop.call_soon_threadsafe(self._wake.set)

    def _after_publication(self, events: Sequence[Any]) -> None:
        """When ``events`` publish a round, take every round's standings from the log again: the
        updater computes the last round's only, and the round before may have taken results in the
        same burst (its last board entered from the CLI beside ``serve``, then the next round
        published), which its standings, fixed from then on, must show."""
        if any(e.type == "RoundPaired" for e in events):
            self._project()

    def command(self, command: Any) -> Any:
        with self._lock:
            outcome = EmbeddedDoor(self.store).submit(command)
            fresh = [] if outcome.already_recorded or not outcome.accepted else outcome.event_ids
            for event_id in fresh:
                e = self.store.state.applied[event_id]
                if getattr(e, "table", None) is not None:  # a feed problem may name no table
                    self._touched[(e.round, e.table)] = None
                self._caused.append(event_id)
            self._after_publication([self.store.state.applied[i] for i in fresh])
        if fresh and self._loop is not None and self.store.state.rounds:  # standings exist once a round is paired
            self._loop.call_soon_threadsafe(self._wake.set)
        return outcome

    def log_head(self, tournament_id: str) -> tuple[Any, int, str | None]:
        with self._lock:
            return EmbeddedDoor(self.store).log_head(tournament_id)

    async def start(self, publish: Callable[[StandingsUpdate], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        await asyncio.to_thread(self._project)
        self._task = asyncio.create_task(self._run(publish), name="standings-updater")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        await asyncio.to_thread(self._project)

    # ------------------------------------------------------------------ internals
    def _project(self) -> None:
        """Rebuild the SQL read models and take every round's standings from them."""
        with self._lock:
            if self.store.state.created is not None:
                self._standings = dict(self.store.project().rounds)
                self._projected_complete = {r for r, s in self._standings.items() if s.complete}

    async def _run(self, publish: Callable[[StandingsUpdate], None]) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                update = await asyncio.to_thread(self._recompute)
                if update is None:  # the writes that woke it were carried by the previous update
                    continue
                publish(update)
                if update.complete and update.round not in self._projected_complete:
                    await asyncio.to_thread(self._project)
            except Exception:  # a bug must not end the updates: the next write tries again
                log.exception("standings update failed")

    def _recompute(self) -> StandingsUpdate | None:
        """The update for the writes since the last one; None when there are none (two writes back
        to back wake the updater twice, and the first update may carry both: a second one would
        reach the scoreboards with nothing that caused it)."""
        with self._lock:  # a consistent copy (~1 ms), so writes need not wait for the computation
            if not self._caused:
                return None
            state = frozen_copy(self.store.state)
            touched, caused, self._touched, self._caused = self._touched, self._caused, {}, []
        last = max(state.rounds)
        standings = standings_after(state, last)
        refs = team_refs(state)
        matches = [match_view(state, refs, r, t) for r, t in touched]
        with self._lock:
            self._standings[last] = standings
            self._seq += 1
            return StandingsUpdate(state.tournament_id, self._seq, last, standings.complete, standings.digest,
                                   compact_rows(standings.document["rows"], state.profile.tiebreaks, state.profile.primary_score.upper()), matches, caused)

