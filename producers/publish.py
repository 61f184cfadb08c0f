"""``olympiad publish``: play a whole event source into Kafka the way its importer would, round by round.

The Kafka input topics carry commands only: the source's events travel as its facts in
``ImportFacts`` commands (``producers.terminal.Terminal``), each decided by the processors with
the event rules (``processors.deciders.handle``), all or none per command. The events are cut
into chunks at each ``RoundPaired``: the registration first, then per round its pairing and what
follows it in the source (the round's results, and any late correction of an earlier round logged
after that pairing). For each chunk the publisher

1. imports the pairing and waits for its verdict (terminals only enter results once the pairing
   is out);
2. imports the rest: at ``speed`` board results per second one fact per command, as terminals
   would enter them; unthrottled (0) the whole rest as one command, in parts that fit a Kafka
   message (``schemas.commands.import_batches``);
3. waits for the verdict of every command of the chunk, for the accepted events on
   ``tournament-log``, and for the standings of the round to include them (``StandingsUpdated``
   whose ``log-position`` is past the last of them): the arbiters pair the next round on
   complete standings.

The projections therefore see the same cut between rounds as the source log has, and the
standings after every round equal those of ``olympiad replay`` on the same source.

``Follower`` is the subscriber side used for those waits (and by ``bench/bench_live.py`` and the
tests): it reads ``tournament-log``, ``verdicts``, ``dead-letters`` and ``standings`` and records,
with arrival times, which event was accepted at which offset, which command was decided how, what
was refused why, and the standings published.
"""
from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from kafka import KafkaConsumer, TopicPartition

from deploy import topics
from deploy.kafka_security import client_config
from producers.terminal import Terminal
from projections.anchors import ANCHORS_SUFFIX
from projections.worker import POSITION_HEADER
from schemas.commands import import_batches


@dataclass
class Standing:
    """One ``StandingsUpdated`` as received: the event body, its log position, when it arrived."""

    body: dict[str, Any]
    partition: int
    offset: int  # every tournament-log event of ``partition`` before this offset is included
    received: float  # time.perf_counter() at arrival


@dataclass
class Follower:
    """Follows the pipeline's outputs from the beginning of each topic (``topic_prefix`` as in ``deploy.topics``).

    ``accepted[event_id] = (partition, offset, arrival)`` on tournament-log (the first copy);
    ``created[T]`` = the TournamentCreated body (its rule profile names the tie-breaks);
    ``verdicts[command_id]`` = the verdict's body (``deploy.topics``: accepted, event ids, field,
    rule, reason); ``refused[id] = dead-letter envelope``, by the id of each event the refused
    message carried (an ``ImportFacts``'s facts, ``dead_letter_event_ids``), else by
    ``"<topic>:<offset>"``; ``standings[(T, round)]`` = list of ``Standing`` in arrival order.
    """

    bootstrap: str | None = None
    topic_prefix: str | None = None
    accepted: dict[str, tuple[int, int, float]] = field(default_factory=dict)
    created: dict[str, dict[str, Any]] = field(default_factory=dict)
    refused: dict[str, dict[str, Any]] = field(default_factory=dict)
    verdicts: dict[str, dict[str, Any]] = field(default_factory=dict)
    standings: dict[tuple[str, int], list[Standing]] = field(default_factory=dict)
    furthest: dict[tuple[str, int], int] = field(default_factory=dict)  # (T, round) -> the furthest standings offset
    from_end: bool = False  # read only what is published from now on (a terminal awaiting one verdict)

    def __post_init__(self) -> None:
        self._names = {
            topics.name(spec, self.topic_prefix): spec
            for spec in (topics.TOURNAMENT_LOG, topics.DEAD_LETTERS, topics.STANDINGS, topics.VERDICTS)
        }
        self.consumer = KafkaConsumer(bootstrap_servers=self.bootstrap or topics.bootstrap_servers(),
                                      enable_auto_commit=False, group_id=None, fetch_max_wait_ms=50, **client_config())
        tps = [TopicPartition(name, p) for name, spec in self._names.items() for p in range(spec.partitions)]
        self.consumer.assign(tps)
        if self.from_end:
            self.consumer.seek_to_end(*tps)
            for tp in tps:  # resolve the positions now, before the caller publishes
                self.consumer.position(tp)
        else:
            self.consumer.seek_to_beginning(*tps)
        # A thread of its own reads the topics, so arrival times are taken when records arrive,
        # also while the caller is busy publishing.
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="follower", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.consumer.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._poll(100)

    def _poll(self, timeout_ms: int) -> None:
        """Fetch what arrived and record it."""
        batches = self.consumer.poll(timeout_ms=timeout_ms, max_records=5000)
        now = time.perf_counter()
        for tp, records in batches.items():
            spec = self._names[tp.topic]
            for rec in records:
                if spec is topics.TOURNAMENT_LOG:
                    body = json.loads(rec.value)
                    self.accepted.setdefault(body["event_id"], (rec.partition, rec.offset, now))
                    if body["type"] == "TournamentCreated":
                        self.created[body["tournament_id"]] = body
                elif spec is topics.DEAD_LETTERS:
                    envelope = json.loads(rec.value)
                    for key in dead_letter_event_ids(envelope) or [f"{envelope['topic']}:{envelope['offset']}"]:
                        self.refused[key] = envelope
                elif spec is topics.VERDICTS:
                    body = json.loads(rec.value)
                    self.verdicts[body["command_id"]] = body
                elif not (rec.key or b"").endswith(ANCHORS_SUFFIX):  # not the published checkpoints
                    body = json.loads(rec.value)
                    position = dict(rec.headers or ()).get(POSITION_HEADER, b"")
                    partition, _, offset = position.decode().partition(":")
                    key, at = (body["tournament_id"], body["round"]), int(offset or -1)
                    self.standings.setdefault(key, []).append(Standing(body, int(partition or -1), at, now))
                    self.furthest[key] = max(at, self.furthest.get(key, -1))

    def wait(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        """Poll until ``done()``; raises ``TimeoutError`` naming ``what`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for {what}")
            if not self._thread.is_alive():
                raise RuntimeError("the follower's reading thread has died")
            time.sleep(0.005)

    def judged(self, event_id: str) -> bool:
        """True once ``event_id`` is on tournament-log or on dead-letters."""
        return event_id in self.accepted or event_id in self.refused

    def decided(self, command_ids: list[str]) -> Callable[[], bool]:
        """A ``wait`` condition: a verdict received for every command of ``command_ids``."""
        pending = list(reversed(command_ids))

        def done() -> bool:
            while pending and pending[-1] in self.verdicts:
                pending.pop()
            return not pending
        return done

    def rounds(self, tournament_id: str) -> list[int]:
        """The rounds of ``tournament_id`` with standings received so far."""
        return sorted(r for t, r in list(self.standings) if t == tournament_id)

    def latest(self, tournament_id: str, rnd: int) -> Standing | None:
        """The last standings of (tournament, round) received, or None."""
        got = self.standings.get((tournament_id, rnd))
        return got[-1] if got else None

    def all_judged(self, event_ids: list[str]) -> Callable[[], bool]:
        """A ``wait`` condition: every event of ``event_ids`` judged. It drops the ids judged so far
        from its own copy, so that waiting on a round's 400 results does not test them all again
        at every poll."""
        pending = list(reversed(event_ids))

        def done() -> bool:
            while pending and self.judged(pending[-1]):
                pending.pop()
            return not pending
        return done


def dead_letter_event_ids(envelope: dict[str, Any]) -> list[str]:
    """The ids of the events the refused message of a dead-letter ``envelope`` carried: a raw
    event's id, an ``ImportFacts``'s facts' ids; none for anything else (or a truncated copy)."""
    try:
        body = json.loads(envelope["value"])
    except (TypeError, ValueError, KeyError):
        return []
    if not isinstance(body, dict):
        return []
    items = body.get("facts") if body.get("command") == "ImportFacts" else [body]
    if not isinstance(items, list):
        return []
    return [i["event_id"] for i in items if isinstance(i, dict) and isinstance(i.get("event_id"), str)]


def _event_id(envelope: dict[str, Any]) -> str | None:
    """The first of ``dead_letter_event_ids(envelope)``, or None (the web app's Kafka backend
    matches a dead letter to the one fact it published)."""
    ids = dead_letter_event_ids(envelope)
    return ids[0] if ids else None


def chunks(events: list[Any]) -> list[list[Any]]:
    """Cut ``events`` before each ``RoundPaired``: [registration], [pairing 1, ...], [pairing 2, ...] ..."""
    out: list[list[Any]] = [[]]
    for event in events:
        if event.type == "RoundPaired":
            out.append([])
        out[-1].append(event)
    return [c for c in out if c]


class Pacer:
    """Spaces sends at ``rate`` per second (0 or less: no pacing), on a schedule of one send every
    ``1 / rate`` s that starts again from now when the sender is a whole interval behind it. A
    publisher that waited (for a round's standings before the next pairing) therefore goes on at
    ``rate``, not with a burst of the sends it would have made meanwhile (before: the 410 results
    of a round at "100/s" left within 80 ms after the wait for the pairing, measured with
    ``bench/bench_live.py``); a sleep that overshoots by less than an interval is made up."""

    def __init__(self, rate: float):
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next = float("-inf")

    def pace(self) -> None:
        if not self.interval:
            return
        now = time.perf_counter()
        self.next = max(self.next + self.interval, now)
        if self.next > now:
            time.sleep(self.next - now)


def publish(events: list[Any], *, speed: float = 0.0, bootstrap: str | None = None, topic_prefix: str | None = None,
            follower: Follower | None = None, progress: Any = None, timeout: float = 180.0,
            on_sent: Callable[[Any, float], None] | None = None) -> Follower:
    """Import ``events`` chunk by chunk (see the module docstring) and return the ``Follower``.

    ``speed``: board-level events per second (0: unthrottled). ``progress``: an object with
    ``advance(n)`` and ``describe(text)`` (the CLI passes a rich progress bar). ``on_sent(event,
    t)`` is called with the ``perf_counter`` time each event's command was sent. Raises
    ``TimeoutError`` if the pipeline does not decide or project a chunk within ``timeout`` seconds.
    """
    follower = follower or Follower(bootstrap, topic_prefix)
    pacer = Pacer(speed)
    # Paced, each result goes out at once as a terminal's would; unthrottled, 2 ms lets sends share requests.
    with Terminal("publish", bootstrap, topic_prefix, linger_ms=0 if speed else 2) as terminal:
        for chunk in chunks(events):
            tid = chunk[0].tournament_id
            first, rest = (chunk[0], chunk[1:]) if chunk[0].type == "RoundPaired" else (None, chunk)
            sent: list[str] = []  # command ids of the chunk
            if first is not None:
                if progress:
                    progress.describe(f"round {first.round}")
                sent.append(_send(terminal, terminal.facts_command([first]), on_sent))
                terminal.flush()
                follower.wait(follower.decided(sent), timeout, f"the verdict on the pairing of round {first.round}")
                if progress:
                    progress.advance(1)
            if speed:
                for event in rest:
                    if event.type in topics.BOARD_LEVEL:
                        pacer.pace()
                    sent.append(_send(terminal, terminal.facts_command([event]), on_sent))
                    if progress:
                        progress.advance(1)
            elif rest:
                for part in import_batches(terminal.facts_command(rest)):
                    sent.append(_send(terminal, part.model_copy(update={"command_id": uuid.uuid4().hex}), on_sent))
                    if progress:
                        progress.advance(len(part.facts))
            terminal.flush()
            follower.wait(follower.decided(sent), timeout, "the processors' verdicts on the chunk")
            ids = [i for cid in sent if follower.verdicts[cid]["accepted"] for i in follower.verdicts[cid]["event_ids"]]
            follower.wait(follower.all_judged(ids), timeout, "the chunk's events on tournament-log")
            if first is not None:
                # On the log, so their offsets are known: the standings must be past the furthest.
                needed = max((follower.accepted[i][1] for i in ids if i in follower.accepted), default=-1)
                follower.wait(lambda: follower.furthest.get((tid, first.round), -1) > needed, timeout,
                              f"the standings of round {first.round}")
    return follower


def _send(terminal: Terminal, command: Any, on_sent: Callable[[Any, float], None] | None) -> str:
    """Send ``command`` (an ``ImportFacts``), report each of its facts to ``on_sent``; its command id."""
    terminal.send(command)
    if on_sent:
        now = time.perf_counter()
        for fact in command.facts:
            on_sent(fact, now)
    return command.command_id
