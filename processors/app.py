"""The faust-streaming processors: the faust process's composition root (app, agent, outbox, liveness).

Run with ``faust -A processors.app worker -l info --without-web`` (``KAFKA_BOOTSTRAP_SERVERS``,
``OLYMPIAD_TOPIC_PREFIX``; see ``deploy.topics`` for the topic layout). faust's ``worker`` command
turns its web server on unless told ``--without-web`` (it would serve the tables, the judged
events among them); without the flag it binds the loopback interface only (``web_bind``).

What is decided lives in ``processors.judge`` (pure, no faust): this module wires it to Kafka.
One agent, ``judge``, with concurrency 1, reads ``tournament-events``, ``board-results`` and, on a broker with authentication,
every principal's commands topic: all keyed by tournament id and co-partitioned, so every command
of a tournament passes one agent, in one order per topic, through ``processors.judge.Judge``
(``processors.deciders.handle``: the same application layer as the CLI and the web app). The
input topics carry commands only: a raw event there is a dead letter (rule
``processors.judge.COMMANDS_ONLY``). It judges in batches: a message together with every message
already queued behind it (``judge_batch``), so that the costs of producing are paid per batch;
under load the queue fills while a batch is judged and batches grow by themselves, while a lone
message is judged at once. The events of an accepted command are appended to ``tournament-log``
and, once per batch, to the ``judged`` table (backed by its changelog topic); the verdict of a
command with a ``command_id`` goes to ``verdicts``. A refused message (malformed JSON, unknown
schema version, a rule broken, a message not keyed by its tournament id) goes to ``dead-letters``
with the field, the rule and the reason; processing goes on with the next message.

Offsets are committed only from ``processors.offset_gate.OffsetGate`` (``GATE``): each record is
judged only if it is the next offset of its partition, a record past it makes the judge seek back,
and the committed offset never passes a record whose outputs are not with the producer; a
revocation waits for the batch being judged (``JUDGING``). faust's own acks and gaps can commit
past records dropped in a rebalance (that module says how).

Outputs are handed to the producer at once, not attached to the source offset: faust publishes
attached messages only when it commits (every 2.8 s), which would add seconds of latency; it
flushes the producer before every offset commit, and acks a batch only after the agent has
handled all of it, so at-least-once holds all the same.

Redelivery (faust is at-least-once here; its exactly-once mode is not relied on): a command whose
events the table already holds is an identical retry and changes no state, but its events are
appended to ``tournament-log`` again, because a crash may have lost that first append while the
table write survived. Every consumer downstream ignores an event id it has seen, so a second copy
is harmless.

The consumer runs with ``processors.faust_transport`` (short fetch waits: faust's fixed 1.5 s
fetch wait and aiokafka's 100 ms prefetch backoff otherwise add their delays to every hop).
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import faust

from deploy import topics
from deploy import kafka_security
from processors import faust_transport
from processors.judge import Judge, judge_message
from processors.offset_gate import Admission, OffsetGate
from schemas.canonical import canonical_json
from schemas.dead_letters import MAX_REASON_CHARS, dead_letter

log = logging.getLogger("olympiad.processors")
ROOT = Path(__file__).resolve().parent.parent

APP_ID = f"{topics.prefix()}olympiad-processors"
DATADIR = ROOT / "var" / "faust" / APP_ID
DATADIR.parent.mkdir(parents=True, exist_ok=True)
# Authenticated (KAFKA_SASL_USERNAME, deploy.kafka_security): the processors read every principal's
# commands topic that exists when they start (a principal added later is read after a restart) and
# take each command's actor from its topic; unauthenticated: the message's actor, and a warning.
AUTHENTICATED = kafka_security.principal() is not None
COMMAND_TOPICS = topics.principal_topics() if AUTHENTICATED else []
app = faust.App(
    APP_ID,
    broker=[f"{faust_transport.SCHEME}://{server}" for server in topics.bootstrap_servers().split(",")],
    broker_credentials=kafka_security.faust_credentials(),
    store="memory://",
    datadir=str(DATADIR),
    web_enabled=False,
    web_bind="127.0.0.1",  # `faust worker` without --without-web turns the web server on: never on 0.0.0.0
    topic_replication_factor=int(os.environ.get("OLYMPIAD_REPLICATION_FACTOR", "1")),
    consumer_auto_offset_reset="earliest",
    producer_acks=-1,
    producer_linger_ms=1,  # a batch's sends share produce requests; a lone event waits 1 ms at most
    table_standby_replicas=0,
    # A killed worker is noticed after 10 s instead of faust's 60 s, so a restart resumes soon.
    broker_session_timeout=10.0,
    broker_heartbeat_interval=3.0,
    # faust would wait on a rebalance for every record taken to be acked, also for records it
    # dropped itself (cleared buffers): a wait until the session times out. Commits come from
    # GATE and a revocation waits for the batch being judged (JUDGING), so nothing is lost without it.
    stream_wait_empty=False,
)
GATE = OffsetGate()
app.offset_gate = GATE  # read by processors.faust_transport: starts on every seek, commits from it
JUDGING = asyncio.Lock()  # held while a batch is judged; a revocation waits for it


inputs = app.topic(
    topics.name(topics.TOURNAMENT_EVENTS), topics.name(topics.BOARD_RESULTS), *COMMAND_TOPICS,
    key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw",
)
judged = app.Table("judged", partitions=topics.TOURNAMENT_EVENTS.partitions, schema=faust.Schema(
    key_type=str, value_type=str, key_serializer="json", value_serializer="json"))
JUDGE = Judge(judged)
BATCH = 1000  # most events judged together
# s: least time between two batches' sends. Each batch costs a few produce requests (to the
# broker, and fetches downstream) whatever its size: under load, events queue for up to this
# long and share them (immediate batches of 1-3 events halved the throughput, measured:
# docs/live.md "Benchmark"); after a quiet spell a batch goes at once, so a lone result pays no wait.
SPACING = 0.01


class Outbox:
    """The messages one agent batch produces, handed to the producer as one record batch per
    topic partition instead of one ``send`` per message.

    aiokafka's per-message ``send`` (a future, the partitioner, the accumulator, a produce request
    per linger period) cost more than judging the event; a record batch pays them once per
    partition. Records keep their key, value and order; the partition is the one Kafka's default
    partitioner gives the key (murmur2), so consumers see what a keyed ``send`` would produce.
    The batches go to faust's producer, which faust flushes before committing the source
    offsets: at-least-once holds.
    """

    partitions: dict[str, list[int]] = {}  # topic -> its partitions (a topic's count never shrinks)

    def __init__(self, producer: Any):
        self.producer = producer
        self.batches: dict[tuple[str, int], Any] = {}

    async def add(self, spec: topics.TopicSpec, key: bytes | None, value: bytes,
                  headers: list[tuple[str, bytes]] | None = None) -> None:
        """Queue one message (with its record ``headers``) for ``spec``'s topic, on the partition
        Kafka's default partitioner gives ``key``."""
        headers = headers or []
        topic = topics.name(spec)
        partitions = self.partitions.get(topic)
        if partitions is None:
            partitions = self.partitions[topic] = sorted(await self.producer.partitions_for(topic))
        partition = partitions[_partition_index(key, len(partitions))] if key is not None else partitions[0]
        batch = self.batches.get((topic, partition))
        if batch is None:
            batch = self.batches[(topic, partition)] = self.producer.create_batch()
        if batch.append(key=key, value=value, timestamp=None, headers=headers) is None:  # full: send it, start another
            await self.producer.send_batch(batch, topic, partition=partition)
            batch = self.batches[(topic, partition)] = self.producer.create_batch()
            if batch.append(key=key, value=value, timestamp=None, headers=headers) is None:  # an empty batch takes any one record
                raise RuntimeError(f"aiokafka refused a {len(value)}-byte record on {topic}: nothing was sent for it")

    async def send(self) -> None:
        """Hand every batch to the producer (it sends them without waiting for the broker)."""
        for (topic, partition), batch in self.batches.items():
            await self.producer.send_batch(batch, topic, partition=partition)
        self.batches.clear()


_partition_index = lru_cache(maxsize=100_000)(topics.partition_for)  # a few keys, hashed again and again


@app.agent(inputs, concurrency=1)
async def judge(stream: Any) -> None:
    """Judge each command of a tournament in order; publish accepted events, verdicts, dead letters.

    A batch is an event and the events already queued behind it (at most ``BATCH``), sent at
    least ``SPACING`` after the previous batch: a lone event after a quiet spell waits for
    nothing (faust's ``take_events`` holds every batch for its whole timeout). Events are acked
    once their batch's outputs are with the producer, which faust flushes before it commits the
    acked offsets: at-least-once.
    """
    stream.enable_acks = False  # acked below, after the batch
    queued_empty = stream.channel.empty
    LIVENESS.channel = stream.channel
    loop = asyncio.get_running_loop()
    batch: list[Any] = []
    last = 0.0
    async for event in stream.events():
        LIVENESS.last = loop.time()
        batch.append(event)
        if len(batch) < BATCH and not queued_empty():
            continue
        wait = last + SPACING - loop.time()
        if wait > 0 and len(batch) < BATCH:
            await asyncio.sleep(wait)
            if not queued_empty():
                continue
        await judge_batch(batch)
        last = LIVENESS.last = loop.time()
        for done in batch:
            await stream.ack(done)
        batch = []


async def judge_batch(batch: list[Any]) -> None:
    """Judge ``batch`` (faust events, in stream order) and hand its outputs to the producer:
    accepted events to ``tournament-log`` (with their hash-chain headers), verdicts to
    ``verdicts``, refusals to ``dead-letters``, and one table entry per tournament (``Judge.commit``).
    """
    async with JUDGING:
        await _judge_batch(batch)


async def _judge_batch(batch: list[Any]) -> None:
    outbox = Outbox(app.producer._ensure_producer())  # the aiokafka producer faust flushes before commits
    partitions: dict[str, int] = {}  # tournament -> its source partition (key T: one per tournament)
    sources: set[tuple[str, int]] = set()
    for event in batch:
        msg = event.message
        tp = (msg.topic, msg.partition)
        admission = GATE.admit(tp, msg.offset)
        if admission is not Admission.JUDGE:
            if admission is Admission.SEEK:  # records before this one were dropped: read them again
                log.warning("%s[%s]: offset %s arrived before %s: seeking back to it", msg.topic, msg.partition,
                            msg.offset, GATE.next(tp))
                await app.consumer.seek(msg.tp, GATE.next(tp))
            continue
        sources.add(tp)
        verdict = judge_message(JUDGE, event.value, event.key, topics.topic_principal(msg.topic), AUTHENTICATED)
        if not verdict.accepted:
            origin = {"topic": msg.topic, "partition": msg.partition, "offset": msg.offset}
            log.warning("dead letter %s:%s:%s: %s [rule: %s]", msg.topic, msg.partition, msg.offset, verdict.reason[:MAX_REASON_CHARS], verdict.rule)
            await outbox.add(topics.DEAD_LETTERS, event.key, dead_letter(
                origin, event.key, event.value, verdict.field, verdict.rule, verdict.reason))
            if verdict.command_id is not None and event.key is not None:
                await outbox.add(topics.VERDICTS, event.key, json.dumps(verdict.message(), sort_keys=True).encode())
            continue
        for accepted in verdict.events:
            partitions[accepted.tournament_id] = msg.partition
            await outbox.add(topics.TOURNAMENT_LOG, accepted.tournament_id.encode(), canonical_json(accepted).encode(),
                             JUDGE.chain.headers(accepted.tournament_id, accepted.event_id))  # processors.log_chain
        if verdict.command_id is not None:
            await outbox.add(topics.VERDICTS, event.key, json.dumps(verdict.message(), sort_keys=True).encode())
    for tid, key, value in JUDGE.commit():
        # faust would put a table write on the partition of the stream's current event, which in
        # a batch may be another tournament's: the changelog partition must be the tournament's,
        # so that whoever is assigned the tournament after a rebalance restores its events.
        judged.send_changelog(partitions[tid], key, value)
        judged.data[key] = value
    await outbox.send()
    GATE.settle(sources)


@app.task
async def _say_who_may_write() -> None:
    """At start-up: the principals whose commands are read, or the warning that nobody is authenticated."""
    if AUTHENTICATED:
        log.info("authenticated as %s; commands topics read: %s", kafka_security.principal(), ", ".join(COMMAND_TOPICS) or "none")
    else:
        kafka_security.warn_unauthenticated(f"{topics.bootstrap_servers()} (processors)")


@app.on_partitions_revoked.connect
async def _forget_states(app: Any, revoked: Any, **kwargs: Any) -> None:
    """After the batch being judged (``JUDGING``): forget the tournaments' states (rebuilt from the
    table for the partitions assigned next) and the revoked partitions' counts (``GATE``)."""
    async with JUDGING:
        GATE.forget(revoked)
        JUDGE.forget()


# ------------------------------------------------------------------------- resuming after a stall
STALL_S = 5.0  # s idle with events not yet committed before the consumer seeks back to its commits


@dataclass
class Liveness:
    """When the judge last took or finished an event (event-loop time, s), and its input channel."""

    last: float = 0.0
    channel: Any = None


LIVENESS = Liveness()


def stalled_partitions(committed: dict[Any, int | None], highwaters: dict[Any, int | None]) -> list[Any]:
    """The partitions with events past their committed offset: ``committed[tp]`` is the next offset
    to commit (None: nothing committed, i.e. 0), ``highwaters[tp]`` the next offset to be written
    (None: not fetched yet, skipped). For an idle judge, each is a stall: every event it took was
    acked and committed within faust's commit interval (2.8 s), so those events never reached it."""
    return sorted((tp for tp, high in highwaters.items() if high is not None and (committed.get(tp) or 0) < high),
                  key=lambda tp: (tp.topic, tp.partition))


@app.timer(interval=STALL_S / 2)
async def resume_stalled_partitions() -> None:
    """Seek the consumer back to its committed offsets when the judge has been idle for ``STALL_S``
    while events past them wait (``stalled_partitions``).

    Why: in a rebalance faust can drop records fetched before it paused a newly assigned partition
    and then skip their refetched copies by its read offsets (seen: after the member owning a
    partition was SIGKILLed, its successor judged offsets 0-2 and 149-206 of 207 and waited
    forever). The committed offset stays before the first dropped record, so seeking back to it
    judges them again; events judged twice are harmless (``Judge``: a duplicate changes nothing).
    Before that, and busy or not: each partition whose next offset to judge has not moved for
    ``STALL_S`` while later records were written (``OffsetGate.stuck``) is sought back to it.
    """
    consumer = app.consumer
    loop = asyncio.get_running_loop()
    if app.rebalancing or not app.tables.recovery.completed.is_set():
        return
    names = set(inputs.topics)
    tps = [tp for tp in consumer.assignment() if tp.topic in names]
    # A partition stuck behind a record dropped again after the gate's seek, while the judge is
    # busy with the others (it is never idle for STALL_S under load): seek it back on its own.
    for tp, offset in GATE.stuck({tp: consumer.highwater(tp) for tp in tps}, STALL_S):
        log.warning("%s[%s]: offset %s not judged for %.0f s while later records wait: seeking back to it",
                    tp.topic, tp.partition, offset, STALL_S)
        await consumer.seek(tp, offset)
    if loop.time() - LIVENESS.last < STALL_S:
        return
    if LIVENESS.channel is not None and not LIVENESS.channel.empty():
        return
    stalled = stalled_partitions({tp: consumer._committed_offset.get(tp) for tp in tps},
                                 {tp: consumer.highwater(tp) for tp in tps})
    if stalled:
        log.warning("events past the committed offset of %s not judged for %.0f s: seeking back to the committed offsets",
                    ", ".join(f"{tp.topic}[{tp.partition}]" for tp in stalled), STALL_S)
        await consumer.perform_seek()
        LIVENESS.last = loop.time()
