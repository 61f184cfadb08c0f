"""The faust-streaming processors: judge every input event, fold board results into match results.

Run with ``faust -A processors.app worker -l info`` (``KAFKA_BOOTSTRAP_SERVERS``,
``OLYMPIAD_TOPIC_PREFIX``; see ``deploy.topics`` for the topic layout).

Two agents, each with concurrency 1 (offsets are then never committed past an in-flight event),
both taking their input in batches (``stream.take_events``) so that faust's per-message costs (a
``Topic.send``, a table write) are paid per batch where the rules allow:

``route_board_results``
    reads ``board-results`` (key ``T/round/table``) and re-keys each message by tournament into
    ``board-results-by-tournament``, co-partitioned with ``tournament-events``. Malformed JSON and
    messages without a tournament id go to ``dead-letters`` here.
``judge``
    reads ``tournament-events`` and ``board-results-by-tournament``: every event of a tournament
    passes one agent, in one order, through ``Judge`` (``schemas.events.parse_event`` and
    ``processors.tournament.TournamentState.apply``: the same rules as the embedded store). An
    accepted event is appended to ``tournament-log`` and, once per batch, to the ``judged`` table
    (backed by its changelog topic); a board-level event also yields the folded ``MatchResultDecided``
    (``processors.scoring.fold_match`` via ``TournamentState.match``) on ``match-results``. A
    refused event goes to ``dead-letters`` with the field, the rule and the reason; processing
    goes on with the next event.

Outputs are handed to the producer at once, not attached to the source offset: faust publishes
attached messages only when it commits (every 2.8 s), which would add seconds of latency; it
flushes the producer before every offset commit, and acks a batch only after the agent has
handled all of it, so at-least-once holds all the same.

Redelivery (faust is at-least-once here; its exactly-once mode is not relied on): an event the
table already holds is a duplicate and changes no state, but it is appended to
``tournament-log`` again, because a crash may have lost that first append while the table write
survived. Every consumer downstream ignores an event id it has seen, so a second copy is harmless.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import faust

from deploy import topics
from processors.tournament import RuleViolation, TournamentState
from schemas.canonical import canonical_json
from schemas.events import EventSchemaError, MatchResultDecided, parse_event

BOARD_LEVEL = {t for t, spec in topics.INPUT_TOPIC_OF.items() if spec is topics.BOARD_RESULTS}
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Verdict:
    """What the judge decided about one message.

    Accepted: ``event`` is set (also for a duplicate), ``match`` is the folded match result of a
    new board-level event. Refused: ``field``, ``rule`` and ``reason`` say why.
    """

    event: Any = None
    match: MatchResultDecided | None = None
    field: str = ""
    rule: str = ""
    reason: str = ""

    @property
    def accepted(self) -> bool:
        return self.event is not None


class Judge:
    """One ``TournamentState`` per tournament, persisted as the lists of its accepted events.

    ``store`` is a mutable mapping (the faust table in the app, a dict in tests) holding
    ``"T/<seq>" -> JSON array of the canonical JSON of accepted events``, seq 0, 1, 2 ... one entry
    per ``commit`` (per batch: one changelog message per batch, not per event), in acceptance
    order. States are cached in memory and rebuilt from ``store`` on first use (after a restart or
    a rebalance).
    """

    def __init__(self, store: Any):
        self.store = store
        self.states: dict[str, TournamentState] = {}
        self.counts: dict[str, int] = {}
        self.pending: dict[str, list[str]] = {}  # tournament -> canonical JSON accepted since the last commit

    def forget(self) -> None:
        """Drop the cached states (partitions were revoked: the table may change elsewhere)."""
        self.states.clear()
        self.counts.clear()
        self.pending.clear()

    def state(self, tournament_id: str) -> TournamentState:
        """The state of ``tournament_id`` after its accepted events (rebuilt from the store if needed)."""
        if tournament_id not in self.states:
            head = tournament_id + "/"
            stored = sorted((int(k[len(head):]), v) for k, v in self.store.items() if k.startswith(head))
            state = TournamentState()
            for _, entry in stored:
                for body in json.loads(entry):
                    state.apply(parse_event(body))
            self.states[tournament_id] = state
            self.counts[tournament_id] = len(stored)
        return self.states[tournament_id]

    def judge(self, raw: bytes) -> Verdict:
        """Parse and judge one raw message value; an accepted new event is held for ``commit``."""
        try:
            event = parse_event(raw)
        except EventSchemaError as exc:
            return Verdict(field=exc.field, rule=exc.rule, reason=str(exc))
        if event.type not in topics.INPUT_TOPIC_OF:
            return Verdict(field="type", rule="input events", reason=f"{event.type} is derived, not an input event")
        state = self.state(event.tournament_id)
        try:
            new = state.apply(event)
        except RuleViolation as exc:
            return Verdict(field=exc.field, rule=exc.rule, reason=str(exc))
        if not new:
            return Verdict(event=event)
        self.pending.setdefault(event.tournament_id, []).append(canonical_json(event))
        match = match_result(state, event) if event.type in BOARD_LEVEL else None
        return Verdict(event=event, match=match)

    def commit(self) -> dict[str, tuple[str, str]]:
        """The store entries of the events accepted since the last commit: ``{T: (key, value)}``, one
        per tournament. The caller writes them to ``store`` (the faust table needs the partition)."""
        entries = {}
        for tid, bodies in self.pending.items():
            entries[tid] = (f"{tid}/{self.counts[tid]}", "[" + ",".join(bodies) + "]")
            self.counts[tid] += 1
        self.pending.clear()
        return entries


def match_result(state: TournamentState, event: Any) -> MatchResultDecided:
    """The ``MatchResultDecided`` of the table ``event`` touched, as it stands after ``event``.

    Its id derives from the input event's id, so a recomputation gives the same event.
    """
    table = state.tables[(event.round, event.table)]
    m = state.match(event.round, event.table)
    return MatchResultDecided(
        event_id=f"{event.event_id}/match", tournament_id=event.tournament_id, round=event.round,
        table=event.table, home=table.home, away=table.away, home_gp=m.home_gp, away_gp=m.away_gp,
        home_mp=m.home_mp, away_mp=m.away_mp, boards_in=m.boards_in,
        status="complete" if m.complete else "in_progress",
    )


def dead_letter(origin: dict[str, Any], key: bytes | None, value: bytes | None, field: str, rule: str, reason: str) -> bytes:
    """The dead-letter envelope (JSON bytes) of a refused message; ``origin`` = topic/partition/offset."""
    return json.dumps({
        **origin,
        "key": key.decode("utf-8", "replace") if key is not None else None,
        "value": value.decode("utf-8", "replace") if value is not None else None,
        "field": field, "rule": rule, "reason": reason,
    }, sort_keys=True).encode()


# ---------------------------------------------------------------------------------- faust wiring
APP_ID = f"{topics.prefix()}olympiad-processors"
DATADIR = ROOT / "var" / "faust" / APP_ID
DATADIR.parent.mkdir(parents=True, exist_ok=True)
app = faust.App(
    APP_ID,
    broker=[f"kafka://{server}" for server in topics.bootstrap_servers().split(",")],
    store="memory://",
    datadir=str(DATADIR),
    web_enabled=False,
    topic_replication_factor=int(os.environ.get("OLYMPIAD_REPLICATION_FACTOR", "1")),
    consumer_auto_offset_reset="earliest",
    producer_acks=-1,
    producer_linger_ms=1,  # a batch's sends share produce requests; a lone event waits 1 ms at most
    table_standby_replicas=0,
    # A killed worker is noticed after 10 s instead of faust's 60 s, so a restart resumes soon.
    broker_session_timeout=10.0,
    broker_heartbeat_interval=3.0,
)


board_results = app.topic(topics.name(topics.BOARD_RESULTS), key_type=bytes, value_type=bytes, key_serializer="raw",
                          value_serializer="raw", partitions=topics.BOARD_RESULTS.partitions)
judged_events = app.topic(
    topics.name(topics.TOURNAMENT_EVENTS), topics.name(topics.BOARD_RESULTS_BY_TOURNAMENT),
    key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw",
)
judged = app.Table("judged", partitions=topics.TOURNAMENT_EVENTS.partitions, schema=faust.Schema(
    key_type=str, value_type=str, key_serializer="json", value_serializer="json"))
JUDGE = Judge(judged)
ORIGIN = "origin"  # header: where a re-keyed message was first published ("topic/partition/offset")


def _origin(message: Any) -> dict[str, Any]:
    for name, value in message.headers or ():
        if name == ORIGIN:
            topic, partition, offset = value.decode().rsplit("/", 2)
            return {"topic": topic, "partition": int(partition), "offset": int(offset)}
    return {"topic": message.topic, "partition": message.partition, "offset": message.offset}


BATCH = 1000  # most events one agent takes at a time
WITHIN = 0.002  # s: how long a batch waits for more events (the latency a lone event pays for batching)


async def _send(spec: topics.TopicSpec, key: bytes | None, value: bytes, headers: list[tuple[str, bytes]] | None = None) -> None:
    """Hand one message to the app's producer now (it batches them into produce requests).

    Straight to ``app.producer``, not ``Topic.send``: faust's per-message send machinery cost more
    than the judging itself. faust flushes this producer before it commits the source offsets, so
    at-least-once holds.
    """
    await app.producer.send(topics.name(spec), key, value, None, None, headers)


@app.agent(board_results, concurrency=1)
async def route_board_results(stream: Any) -> None:
    """Re-key board-level messages by tournament (``T/round/table`` -> ``T``), refusing unreadable ones."""
    async for batch in stream.take_events(BATCH, within=WITHIN):
        for event in batch:
            msg = event.message
            try:
                body = json.loads(event.value)
                tournament_id = body["tournament_id"] if isinstance(body, dict) else None
            except (ValueError, KeyError):
                tournament_id = None
            if not isinstance(tournament_id, str) or not tournament_id:
                try:
                    parse_event(event.value)
                    field, rule, reason = "tournament_id", "schema", "no tournament_id"
                except EventSchemaError as exc:
                    field, rule, reason = exc.field, exc.rule, str(exc)
                await _send(topics.DEAD_LETTERS, event.key, dead_letter(_origin(msg), event.key, event.value, field, rule, reason))
                continue
            await _send(topics.BOARD_RESULTS_BY_TOURNAMENT, tournament_id.encode(), event.value,
                        [(ORIGIN, f"{msg.topic}/{msg.partition}/{msg.offset}".encode())])


@app.agent(judged_events, concurrency=1)
async def judge(stream: Any) -> None:
    """Judge each event of a tournament in order; publish accepted events, match results, dead letters.

    Per batch: one table entry per tournament (``Judge.commit``) and one ``MatchResultDecided`` per
    table touched, its state after the batch (``match-results`` is compacted by table: an
    intermediate state within a batch would be superseded at once).
    """
    async for batch in stream.take_events(BATCH, within=WITHIN):
        matches: dict[str, MatchResultDecided] = {}
        partitions: dict[str, int] = {}  # tournament -> its source partition (key T: one per tournament)
        for event in batch:
            verdict = JUDGE.judge(event.value)
            if not verdict.accepted:
                await _send(topics.DEAD_LETTERS, event.key, dead_letter(
                    _origin(event.message), event.key, event.value, verdict.field, verdict.rule, verdict.reason))
                continue
            accepted = verdict.event
            partitions[accepted.tournament_id] = event.message.partition
            await _send(topics.TOURNAMENT_LOG, accepted.tournament_id.encode(), canonical_json(accepted).encode())
            if verdict.match is not None:
                m = verdict.match
                matches[topics.table_key(m.tournament_id, m.round, m.table)] = m
        for tid, (key, value) in JUDGE.commit().items():
            # faust would put a table write on the partition of the stream's current event, which in
            # a batch may be another tournament's: the changelog partition must be the tournament's,
            # so that whoever is assigned the tournament after a rebalance restores its events.
            judged.send_changelog(partitions[tid], key, value)
            judged.data[key] = value
        for key, m in matches.items():
            await _send(topics.MATCH_RESULTS, key.encode(), canonical_json(m).encode())


@app.on_partitions_revoked.connect
async def _forget_states(app: Any, revoked: Any, **kwargs: Any) -> None:
    JUDGE.forget()
