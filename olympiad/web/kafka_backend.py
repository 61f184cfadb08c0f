"""The Kafka backend: the web app over the live pipeline of issue 4 (``docs/live.md``).

Reads, writes and pushes, each from where the pipeline keeps it:

- **state**: a ``TournamentState`` folded from ``tournament-log`` (every event the faust
  processors accepted, in their order), read from offset 0 at construction and followed by a
  consumer thread. Pairings, board results, match scores and team pages come from it.
- **standings documents** (every tie-break value with its per-opponent breakdown, digest): the
  projection worker's read model ``standings_documents`` in its database (``DATABASE_URL``, else
  the worker's default ``var/projections.sqlite``), loaded at construction and again for the
  round of each ``StandingsUpdated``; replay semantics (earlier rounds frozen at the next
  pairing) are the worker's.
- **writes**: ``command`` sends the command to the processors (``producers.doors.KafkaDoor``) and
  reports their verdict: a command is decided once, by the processors, never here beforehand;
  an accepted one returns once its events are in the fold. Commands are sent one at a time.
- **pushes**: each ``StandingsUpdated`` of the tournament on ``standings`` becomes one
  ``StandingsUpdate``. Its ``log-position`` header (``<partition>:<offset>``: every
  tournament-log event of that partition before the offset is included) names the events it
  includes; those folded since the previous push are its ``caused_by`` and their tables its
  ``matches``. A push whose position is ahead of the fold waits for the fold.

The fold replays what the processors decided: ``TournamentState.evolve`` only, no rule is judged
again (decide once, evolve always).
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from kafka import KafkaConsumer, TopicPartition
from sqlalchemy import select
from sqlalchemy.engine import Engine

from deploy import topics
from deploy.kafka_security import client_config, warn_unauthenticated
from processors.tournament import RuleViolation, TournamentState
from producers.doors import KafkaDoor
from projections.store import metadata, standings_documents
from olympiad.web.backend import StandingsUpdate
from projections.views.matches import match_view
from projections.views.refs import team_refs
from projections.views.snapshot import Snapshot
from projections.views.standings import compact_rows
from projections.anchors import ANCHORS_SUFFIX
from projections.worker import POSITION_HEADER, database_url, make_engine
from schemas.events import parse_event

log = logging.getLogger("olympiad.web.kafka")
POLL_MS = 100  # longest wait of the consumer thread for records (also how soon it sees stop())
ACCEPT_TIMEOUT_S = 30.0  # how long a command waits for the processors' verdict and its events in the fold


@dataclass(frozen=True)
class StoredStandings:
    """A row of the worker's ``standings_documents``: a ``backend.StandingsDocument``."""

    round: int
    complete: bool
    digest: str
    document: dict[str, Any]


@dataclass(frozen=True)
class _Folded:
    """A tournament-log event the fold applied and no push has named yet."""

    partition: int
    offset: int
    event_id: str
    table: tuple[int, int] | None  # (round, table) of a board-level event


class KafkaBackend:
    """The ``Backend`` over a Kafka pipeline (processors and projection worker running).

    ``bootstrap`` defaults to ``KAFKA_BOOTSTRAP_SERVERS``, ``topic_prefix`` to
    ``OLYMPIAD_TOPIC_PREFIX``, ``url`` (the projection worker's database) to ``DATABASE_URL`` or the
    worker's default. ``tournament_id``: the tournament served; default the first one created on
    ``tournament-log``. Construction reads ``tournament-log`` to its current end (blocking).
    """

    def __init__(self, bootstrap: str | None = None, topic_prefix: str | None = None, url: str | None = None,
                 tournament_id: str | None = None, accept_timeout: float = ACCEPT_TIMEOUT_S):
        bootstrap = bootstrap or topics.bootstrap_servers()
        prefix = topics.prefix() if topic_prefix is None else topic_prefix
        warn_unauthenticated(f"{bootstrap} (olympiad serve --kafka)")  # docs/security.md
        self.engine: Engine = make_engine(database_url(url))
        metadata.create_all(self.engine)  # the worker's tables, should the web app start first
        self.accept_timeout = accept_timeout
        self._bootstrap, self._prefix = bootstrap, prefix
        self._door: Any = None  # the command door, opened on the first command
        self._tid = tournament_id
        self._state = TournamentState()
        self._standings: dict[int, StoredStandings] = {}
        self._lock = threading.RLock()  # guards the fold, the standings and what follows
        self._changed = threading.Condition(self._lock)  # notified after every consumed batch
        self._write_lock = threading.Lock()  # one command at a time
        self._unpushed: list[_Folded] = []
        self._waiting: list[tuple[int, int, dict[str, Any]]] = []  # (partition, offset, StandingsUpdated body)
        self._folded_to: dict[int, int] = {}  # tournament-log partition -> next offset folded
        self._seq = 0
        self._publish: Callable[[StandingsUpdate], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running = threading.Event()
        self._thread: threading.Thread | None = None

        self._names = {topics.name(s, prefix): s for s in (topics.TOURNAMENT_LOG, topics.STANDINGS)}
        tps = {s.base: [TopicPartition(n, p) for p in range(s.partitions)] for n, s in self._names.items()}
        self._consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False,
                                       fetch_max_wait_ms=20, max_partition_fetch_bytes=8 * 1024 * 1024, **client_config())
        self._consumer.assign([tp for group in tps.values() for tp in group])
        self._consumer.seek_to_beginning(*tps[topics.TOURNAMENT_LOG.base])
        for tp, end in self._consumer.end_offsets(tps[topics.STANDINGS.base]).items():
            self._consumer.seek(tp, end)  # what was published before is in the read models
        self._catch_up(self._consumer.end_offsets(tps[topics.TOURNAMENT_LOG.base]))

    # ------------------------------------------------------------------ Backend
    @property
    def tournament_id(self) -> str | None:
        return self._state.tournament_id

    @property
    def seq(self) -> int:
        return self._seq

    @contextmanager
    def read(self) -> Iterator[Snapshot]:
        with self._lock:
            yield Snapshot(self._state, self._standings)

    def command(self, command: Any) -> Any:
        """Send ``command`` to the processors (``producers.doors.KafkaDoor``), which decide it (once:
        nothing is judged here), and report their verdict; an accepted command returns once the
        fold holds its events."""
        with self._write_lock:
            if self._door is None:
                self._door = KafkaDoor(self._bootstrap, self._prefix, wait=self.accept_timeout)
            outcome = self._door.submit(command)
            if outcome.accepted:
                self._await_accepted(list(outcome.event_ids))
        return outcome

    def log_head(self, tournament_id: str) -> tuple[Any, int, str | None]:
        """``tournament-log`` as it stands (``producers.doors.KafkaDoor.log_head``, as ``olympiad
        round close --kafka`` reads it)."""
        with self._write_lock:
            if self._door is None:
                self._door = KafkaDoor(self._bootstrap, self._prefix, wait=self.accept_timeout)
            return self._door.log_head(tournament_id)

    async def start(self, publish: Callable[[StandingsUpdate], None]) -> None:
        self._loop = asyncio.get_running_loop()
        self._publish = publish
        self._running.set()
        self._thread = threading.Thread(target=self._follow, name="kafka-backend", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        self._running.clear()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)
            self._thread = None
        self._consumer.close(autocommit=False)
        if self._door is not None:
            self._door.close()
        self.engine.dispose()

    # ------------------------------------------------------------------ consuming
    def _catch_up(self, ends: dict[TopicPartition, int]) -> None:
        """Fold ``tournament-log`` up to ``ends`` and load the stored standings."""
        while any(self._consumer.position(tp) < end for tp, end in ends.items()):
            self._consume(self._consumer.poll(timeout_ms=POLL_MS, max_records=5000))
        if self._tid is not None:
            with self.engine.connect() as conn:
                rounds = [r.round for r in conn.execute(select(standings_documents.c.round).where(
                    standings_documents.c.tournament_id == self._tid))]
            for rnd in rounds:
                self._load_standings(rnd)

    def _follow(self) -> None:
        """The consumer thread: fold, push standings, until ``stop``."""
        while self._running.is_set():
            try:
                self._consume(self._consumer.poll(timeout_ms=POLL_MS, max_records=5000))
            except Exception:  # a bug must not end the updates: the next poll tries again
                log.exception("consuming the pipeline's topics failed")
                time.sleep(POLL_MS / 1000)

    def _consume(self, batches: dict[TopicPartition, list[Any]]) -> None:
        """Apply one poll's records: tournament-log first, so that the pushes they allow go out now."""
        order = {topics.TOURNAMENT_LOG.base: 0, topics.STANDINGS.base: 1}
        with self._lock:
            for tp in sorted(batches, key=lambda tp: (order[self._names[tp.topic].base], tp.partition)):
                spec = self._names[tp.topic]
                for rec in batches[tp]:
                    if spec is topics.TOURNAMENT_LOG:
                        self._fold(rec)
                    else:
                        self._queue_standings(rec)
            self._push_ready()
            self._changed.notify_all()

    def _fold(self, rec: Any) -> None:
        """Evolve the state with one tournament-log record (another tournament's is skipped): the
        processors decided it, so no rule is judged again."""
        self._folded_to[rec.partition] = rec.offset + 1
        event = parse_event(rec.value)
        if self._tid is None and event.type == "TournamentCreated":
            self._tid = event.tournament_id
        if event.tournament_id != self._tid:
            return
        try:
            if not self._state.evolve(event):
                return  # a second copy (the processors re-append what they may have lost)
        except RuleViolation as exc:  # an event id reused by a different event: the log is not the processors'
            log.error("tournament-log %s:%s: %s refused by the fold: %s", rec.partition, rec.offset, event.event_id, exc)
            return
        table = (event.round, event.table) if event.type in topics.BOARD_LEVEL else None
        self._unpushed.append(_Folded(rec.partition, rec.offset, event.event_id, table))

    def _queue_standings(self, rec: Any) -> None:
        if rec.key and rec.key.endswith(ANCHORS_SUFFIX):
            return  # the published checkpoints (projections.anchors), not a standings document
        body = json.loads(rec.value)
        if body["tournament_id"] != self._tid:
            return
        partition, _, offset = dict(rec.headers or ()).get(POSITION_HEADER, b"").decode().partition(":")
        # No position (the worker republishing at its start): it includes nothing new.
        self._waiting.append((int(partition or -1), int(offset or -1), body))

    def _push_ready(self) -> None:
        """Push every waiting ``StandingsUpdated`` the fold has caught up with, in arrival order."""
        while self._waiting:
            partition, offset, body = self._waiting[0]
            if partition >= 0 and self._folded_to.get(partition, 0) < offset:
                return
            self._waiting.pop(0)
            caused = [f for f in self._unpushed if f.partition == partition and f.offset < offset]
            self._unpushed = [f for f in self._unpushed if f not in caused]
            self._load_standings(body["round"])
            if self._publish is None or self._loop is None:
                continue
            refs = team_refs(self._state)
            tables = dict.fromkeys(f.table for f in caused if f.table is not None)
            self._seq += 1
            update = StandingsUpdate(
                self._tid, self._seq, body["round"], body["complete"], body["digest"], compact_rows(body["rows"], self._state.profile.tiebreaks,
                                                                                    self._state.profile.primary_score.upper()),
                [match_view(self._state, refs, r, t) for r, t in tables], [f.event_id for f in caused])
            self._loop.call_soon_threadsafe(self._publish, update)

    def _load_standings(self, rnd: int) -> None:
        """Take the stored standings document of round ``rnd`` from the worker's read model."""
        with self.engine.connect() as conn:
            row = conn.execute(select(standings_documents).where(
                (standings_documents.c.tournament_id == self._tid) & (standings_documents.c.round == rnd))).first()
        if row is not None:
            self._standings[rnd] = StoredStandings(rnd, row.complete, row.digest, json.loads(row.body))

    def _await_accepted(self, event_ids: list[str]) -> None:
        """Block until every id of ``event_ids`` (accepted by the processors) is in the fold.
        Raises ``TimeoutError`` after ``accept_timeout`` seconds."""
        deadline = time.monotonic() + self.accept_timeout
        with self._changed:
            while not all(e in self._state.applied for e in event_ids):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"the processors accepted {len(event_ids)} events, but tournament-log has not "
                                       f"brought them within {self.accept_timeout:.0f} s; is the pipeline running?")
                self._changed.wait(left)

