"""The projection worker: the consumer loop of ``tournament-log`` and the publisher of standings
and proposals; the worker process's composition root.

Input: ``tournament-log`` (every event the processors accepted, per tournament in acceptance
order; see ``deploy.topics``). What a batch of records changes in the SQL read models (database
of ``DATABASE_URL``, default: SQLite file ``var/projections.sqlite``) is the pure projector's
(``projections.projector.Projector``: evolve only, one SQL transaction per batch, its positions
in ``projection_offsets``). This module consumes, hands the batches over, and publishes what
they yield: ``StandingsUpdated`` on ``standings``, ``PairingProposed`` on ``pairings`` (the
pairing engine's proposal once a round is complete), the tournament's signed checkpoints on
``standings`` (key ``{tid}/checkpoints``: ``projections.anchors``), and dead letters of records the projector
could not take.

Kafka's committed offsets are not used: the consumer seeks to the positions the projector stored
with the read models, so a batch is applied once or not at all, whatever crashes in between.
Alone (``Worker(group=None)``: one worker per database) the consumer takes every partition of
the topic. In a consumer group (``group``; ``python -m projections.worker`` joins
``<prefix>olympiad-projections``) several workers share one database: each is assigned some
partitions, and on every assignment (``Rebalance``) it seeks them to the stored positions,
rebuilds from the stored events the state of exactly the tournaments whose events are on them
(``log_partition``: the tournament's key decides), and republishes their standings (the member
that had them may have died between its commit and its publish). A tournament is thus projected
by one worker at a time, in log order; records fetched for a partition the worker lost in the
meantime are dropped, its new owner projects them. Each ``StandingsUpdated`` carries the
header ``log-position: <partition>:<offset>``: it includes every tournament-log event of that
partition before that offset.

Run: ``python -m projections.worker`` (env ``KAFKA_BOOTSTRAP_SERVERS``, ``OLYMPIAD_TOPIC_PREFIX``,
``DATABASE_URL``, ``OLYMPIAD_PARTITIONS``); start it N times on one database for N members.
"""
from __future__ import annotations

import logging
import os
import signal
import time
from pathlib import Path
from typing import Any

from kafka import ConsumerRebalanceListener, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.coordinator.base import MemberState
from sqlalchemy import create_engine, select
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from deploy import topics
from deploy.kafka_security import client_config
from projections.anchors import anchors_document, anchors_key
from projections.projector import Projector, Snapshot, offsets_table, standings_payload
from projections.store import with_driver
from schemas.canonical import canonical_json

log = logging.getLogger("olympiad.projections")
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_URL = f"sqlite:///{ROOT / 'var' / 'projections.sqlite'}"
POSITION_HEADER = "log-position"
COALESCE_S = 0.002  # after the first record of a batch, wait this long for more (under load batches grow by themselves)
MAX_BATCH = 5000
FETCH_WAIT_MS = 20  # longest the broker holds the worker's fetch when nothing new is there (see Worker.__init__)
REJOIN_S = 30.0  # s in a rebalance before the worker joins its group again (Worker._watch_group)


def database_url(url: str | None = None) -> str:
    """``url``, else ``DATABASE_URL``, else the SQLite file ``var/projections.sqlite`` (PostgreSQL
    URLs with the installed driver, ``projections.store.with_driver``)."""
    return with_driver(url or os.environ.get("DATABASE_URL") or DEFAULT_URL)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL journaling with synchronous=NORMAL (a commit
    is durable once the WAL is checkpointed; a crash loses at most the last commits, never half of one)."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        @sa_event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # pysqlite's own BEGIN handling breaks SAVEPOINT (the worker rolls one tournament's part
            # of a batch back with one): SQLAlchemy's recipe, BEGIN emitted on begin below.
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        @sa_event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN")
    return engine


def caught_up(url: str, bootstrap: str, prefix: str = "") -> bool:
    """True when the positions the projection worker stored (``projection_offsets``, any consumer
    name) reach the end offset of every ``tournament-log`` partition on the broker ``bootstrap``
    (topics under ``prefix``): every event logged so far is in the read model at ``url``. False
    while the read model holds no positions table yet."""
    topic = topics.name(topics.TOURNAMENT_LOG, prefix)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, **client_config())
    try:
        ends = consumer.end_offsets([TopicPartition(topic, p) for p in range(topics.TOURNAMENT_LOG.partitions)])
    finally:
        consumer.close()
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            stored = {r.partition: r.next_offset for r in conn.execute(
                select(offsets_table.c.partition, offsets_table.c.next_offset).where(offsets_table.c.topic == topic))}
    except SQLAlchemyError:
        return False
    finally:
        engine.dispose()
    return all(stored.get(tp.partition, 0) >= end for tp, end in ends.items())


class Worker:
    """The consume-project-publish loop. ``stop()`` (or SIGTERM/SIGINT in ``main``) ends it after the current batch."""

    def __init__(self, url: str | None = None, bootstrap: str | None = None, topic_prefix: str | None = None,
                 group: str | None = None):
        bootstrap = bootstrap or topics.bootstrap_servers()
        self.topic_prefix = topics.prefix() if topic_prefix is None else topic_prefix
        self.group = group
        # In a group the state is built per assignment (Rebalance), not for every stored tournament.
        self.projector = Projector(make_engine(database_url(url)), f"{self.topic_prefix}olympiad-projections", load=group is None)
        self.log_topic = topics.name(topics.TOURNAMENT_LOG, self.topic_prefix)
        # Positioned from the database (Kafka's committed offsets are not used). The fetch wait
        # (FETCH_WAIT_MS) trades idle CPU (10 ms: 17 % of a core while idle, measured; 100 ms: 3 %)
        # for latency: at 100 results/s, 100 ms gave p50 148-225 ms end to end, 20 ms 86-126 ms
        # in the same hour (bench/bench_live.py, docs/live.md).
        # A killed member's partitions go to the others after the session timeout (10 s, as the processors').
        self._bootstrap = bootstrap
        self._assignment: list[TopicPartition] | None = None  # given by the group, not yet taken (take_assignment)
        self._unassigned_since: float | None = None  # monotonic time since when this member is in a rebalance
        self.consumer = self._consumer()
        self.producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", enable_idempotence=True,
                                      linger_ms=0, max_request_size=8 * 1024 * 1024, **client_config())
        self._running = True
        self._proposed: dict[str, str] = {}  # tournament -> id+digest of the last proposal published
        self._anchors: dict[str, str] = {}  # tournament -> the anchors document last published

    def stop(self) -> None:
        self._running = False

    def _consumer(self) -> KafkaConsumer:
        """The consumer of ``tournament-log``: every partition, positioned from the database; or
        (``group``) subscribed in the consumer group, positioned on each assignment (``Rebalance``)."""
        consumer = KafkaConsumer(bootstrap_servers=self._bootstrap, group_id=self.group, enable_auto_commit=False,
                                 max_poll_records=MAX_BATCH, fetch_max_wait_ms=FETCH_WAIT_MS, session_timeout_ms=10000,
                                 heartbeat_interval_ms=3000, **client_config())
        if self.group is None:
            partitions = [TopicPartition(self.log_topic, p) for p in range(topics.TOURNAMENT_LOG.partitions)]
            consumer.assign(partitions)
            self.consumer = consumer
            self.seek_stored(partitions)
            return consumer
        consumer.subscribe([self.log_topic], listener=Rebalance(self))
        self._unassigned_since = time.monotonic()
        return consumer

    def _watch_group(self) -> None:
        """Join the group again with a new consumer when this one has been in a rebalance for
        ``REJOIN_S``. Why: kafka-python 3.0 at times never completes a rebalance that follows
        another at once (seen: twice in some ten pipeline starts, the group leader logged
        "performing partition assignments" and spun on one core, holding up every member; and
        when the worker first fetched the topic's metadata before subscribing, after every
        restart), which holds up every member of the group; a new member id ends that generation.
        A rebalance after a SIGKILLed member waits for its session timeout (10 s), well under it."""
        if self.consumer._coordinator.state is MemberState.STABLE:  # kafka-python exposes no public state
            self._unassigned_since = None
            return
        now = time.monotonic()
        if self._unassigned_since is None:
            self._unassigned_since = now
        elif now - self._unassigned_since > REJOIN_S:
            log.warning("in a rebalance for %.0f s: leaving the group and joining again", now - self._unassigned_since)
            self.consumer.close(autocommit=False)
            self.consumer = self._consumer()

    def seek_stored(self, partitions: list[TopicPartition]) -> None:
        """Seek each of ``partitions`` to the position the projector stored for it, else to its beginning."""
        stored = self.projector.positions(self.log_topic)
        for tp in partitions:
            if tp.partition in stored:
                self.consumer.seek(tp, stored[tp.partition])
            else:
                self.consumer.seek_to_beginning(tp)

    def assigned(self, partitions: list[TopicPartition]) -> None:
        """The group gave this worker ``partitions`` (all it now has): position them at once (the
        next fetch reads from there); the rest (``take_assignment``) waits until ``poll`` returns,
        because kafka-python runs this callback on its network loop, which must not be held up."""
        self.seek_stored(partitions)
        self._assignment = partitions

    def take_assignment(self) -> None:
        """Rebuild the state of the assigned partitions' tournaments from the database and
        republish their latest standings."""
        partitions, self._assignment = self._assignment or [], None
        mine = {tp.partition for tp in partitions}
        self.projector.load_only(lambda tid: log_partition(tid) in mine)
        self._proposed.clear()
        self._anchors.clear()
        log.info("assigned tournament-log partitions %s: %d tournaments", sorted(mine), len(self.projector.tournaments))
        self.publish(self.projector.latest_standings(self.log_topic, log_partition))

    def publish(self, snapshots: list[Snapshot]) -> None:
        """Publish ``StandingsUpdated`` for each snapshot, then a pairing proposal where one is due."""
        for snap in snapshots:
            self.producer.send(
                topics.name(topics.STANDINGS, self.topic_prefix),
                key=topics.round_key(snap.tournament_id, snap.standings.round).encode(),
                value=standings_payload(snap).encode(), headers=[(POSITION_HEADER, snap.position.encode())],
            )
        for tid in {s.tournament_id for s in snapshots}:
            self._publish_anchors(tid)
            try:
                proposal = self.projector.proposal(tid)
            except Exception as exc:  # noqa: BLE001 - NoLegalPairing among them; never stops the worker
                log.error("%s: no pairing proposed for the next round: %s: %s", tid, type(exc).__name__, exc)
                continue
            if proposal is None:
                continue
            marker = canonical_json(proposal)
            if self._proposed.get(tid) == marker:
                continue
            self.producer.send(topics.name(topics.PAIRINGS, self.topic_prefix),
                               key=topics.round_key(tid, proposal.round).encode(), value=marker.encode())
            self._proposed[tid] = marker
        dead = topics.name(topics.DEAD_LETTERS, self.topic_prefix)
        for envelope in self.projector.dead_letters:
            self.producer.send(dead, value=envelope)
        self.projector.dead_letters.clear()
        self.producer.flush()

    def _publish_anchors(self, tid: str) -> None:
        """The tournament's key and signed checkpoints (``projections.anchors``) on ``standings``
        under ``{tid}/checkpoints``, when they changed: a copy auditors anchor to."""
        doc = anchors_document(self.projector.tournaments[tid].state)
        marker = canonical_json(doc)
        if doc["checkpoints"] and self._anchors.get(tid) != marker:
            self.producer.send(topics.name(topics.STANDINGS, self.topic_prefix), key=anchors_key(tid), value=marker.encode())
            self._anchors[tid] = marker

    def poll(self) -> list[Any]:
        """The next batch: what arrives within ``COALESCE_S`` of the first record (at most ``MAX_BATCH``),
        in partition order. Taking standings costs far more than applying an event, so events that
        arrive together are projected together."""
        records: list[Any] = []
        deadline = None
        while self._running and len(records) < MAX_BATCH:
            wait_ms = 200 if deadline is None else int(max(0.0, deadline - time.monotonic()) * 1000)
            batches = self.consumer.poll(timeout_ms=wait_ms, max_records=MAX_BATCH - len(records))
            if self._assignment is not None:
                # A rebalance in this poll: the partitions were sought back to the stored positions,
                # so what came before it is read again; the state is rebuilt before anything is applied.
                records, deadline = [], None
                self.take_assignment()
            if not batches:
                break
            records += [rec for tp in sorted(batches, key=lambda tp: tp.partition) for rec in batches[tp]]
            deadline = deadline or time.monotonic() + COALESCE_S
        if self.group is not None:
            self._watch_group()
        if self.group is not None and records:
            # A rebalance within one of the polls above may have taken partitions away: their new owner projects them.
            mine = {tp.partition for tp in self.consumer.assignment()}
            records = [rec for rec in records if rec.partition in mine]
        records.sort(key=lambda rec: (rec.partition, rec.offset))
        return records

    def run(self) -> None:
        """Consume until ``stop()``; first republish the stored standings (a crash may have lost a publish)."""
        self.publish(self.projector.latest_standings(self.log_topic, log_partition))
        while self._running:
            records = self.poll()
            if records:
                self.publish(self.projector.apply_batch(records))
        self.consumer.close(autocommit=False)
        self.producer.close()


class Rebalance(ConsumerRebalanceListener):
    """The consumer group's callbacks of a ``Worker`` (kafka-python calls them inside ``poll``,
    between two batches: a batch is never half-applied when partitions move)."""

    def __init__(self, worker: Worker):
        self.worker = worker

    def on_partitions_revoked(self, revoked: Any) -> None:
        """Nothing to hand over: every applied batch is committed with its positions."""

    def on_partitions_assigned(self, assigned: Any) -> None:
        self.worker.assigned(sorted(assigned, key=lambda tp: tp.partition))


def log_partition(tournament_id: str) -> int:
    """The ``tournament-log`` partition of ``tournament_id``'s events (the key's partition)."""
    return topics.partition_for(tournament_id.encode(), topics.TOURNAMENT_LOG.partitions)


def main() -> None:
    """``python -m projections.worker``: project ``tournament-log`` into the read models of
    ``$DATABASE_URL`` (SQLite under ``var/`` by default) until SIGTERM or Ctrl-C."""
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    (ROOT / "var").mkdir(exist_ok=True)
    worker = Worker(group=f"{topics.prefix()}olympiad-projections")
    signal.signal(signal.SIGTERM, lambda *_: worker.stop())
    signal.signal(signal.SIGINT, lambda *_: worker.stop())
    log.info("projecting %s into %s", worker.log_topic, worker.projector.engine.url.render_as_string(hide_password=True))
    worker.run()


if __name__ == "__main__":
    main()

