"""``olympiad publish``: play a whole event source into Kafka the way the terminals would, round by round.

The source's events are cut into chunks at each ``RoundPaired``: the registration first, then per
round its pairing and what follows it in the source (the round's results, and any late
correction of an earlier round logged after that pairing). For each chunk the publisher

1. publishes the pairing and waits until the processors accepted it (terminals only enter
   results once the pairing is out);
2. publishes the rest at ``speed`` board results per second (0: as fast as the broker takes them);
3. waits until every event of the chunk is judged (on ``tournament-log`` or ``dead-letters``) and
   the standings of the round include them (``StandingsUpdated`` whose ``log-position`` is past
   the last of them): the arbiters pair the next round on complete standings.

The projections therefore see the same cut between rounds as the source log has, and the
standings after every round equal those of ``olympiad replay`` on the same source.

``Follower`` is the subscriber side used for those waits (and by ``bench/bench_live.py`` and the
tests): it reads ``tournament-log``, ``dead-letters`` and ``standings`` and records, with arrival
times, which event was accepted at which offset or refused why, and the standings published.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from kafka import KafkaConsumer, TopicPartition

from deploy import topics
from deploy.kafka_security import client_config
from producers.terminal import Terminal
from projections.worker import POSITION_HEADER


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
    ``refused[event_id or key] = dead-letter envelope``; ``standings[(T, round)]`` = list of
    ``Standing`` in arrival order.
    """

    bootstrap: str | None = None
    topic_prefix: str | None = None
    accepted: dict[str, tuple[int, int, float]] = field(default_factory=dict)
    created: dict[str, dict[str, Any]] = field(default_factory=dict)
    refused: dict[str, dict[str, Any]] = field(default_factory=dict)
    standings: dict[tuple[str, int], list[Standing]] = field(default_factory=dict)
    furthest: dict[tuple[str, int], int] = field(default_factory=dict)  # (T, round) -> the furthest standings offset
    from_end: bool = False  # read only what is published from now on (a terminal awaiting one verdict)

    def __post_init__(self) -> None:
        self._names = {
            topics.name(spec, self.topic_prefix): spec
            for spec in (topics.TOURNAMENT_LOG, topics.DEAD_LETTERS, topics.STANDINGS)
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
                    self.refused[_event_id(envelope) or f"{envelope['topic']}:{envelope['offset']}"] = envelope
                else:
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
        return event_id in self.accepted or event_id in self.refused

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


def _event_id(envelope: dict[str, Any]) -> str | None:
    try:
        return json.loads(envelope["value"]).get("event_id")
    except (TypeError, ValueError, AttributeError):
        return None


def chunks(events: list[Any]) -> list[list[Any]]:
    """Cut ``events`` before each ``RoundPaired``: [registration], [pairing 1, ...], [pairing 2, ...] ..."""
    out: list[list[Any]] = [[]]
    for event in events:
        if event.type == "RoundPaired":
            out.append([])
        out[-1].append(event)
    return [c for c in out if c]


class Pacer:
    """Spaces sends at ``rate`` per second (0 or less: no pacing)."""

    def __init__(self, rate: float):
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next = time.perf_counter()

    def pace(self) -> None:
        if not self.interval:
            return
        self.next += self.interval
        delay = self.next - time.perf_counter()
        if delay > 0:
            time.sleep(delay)


def publish(events: list[Any], *, speed: float = 0.0, bootstrap: str | None = None, topic_prefix: str | None = None,
            follower: Follower | None = None, progress: Any = None, timeout: float = 180.0,
            on_sent: Callable[[Any, float], None] | None = None) -> Follower:
    """Publish ``events`` chunk by chunk (see the module docstring) and return the ``Follower``.

    ``speed``: board-level events per second (0: unthrottled). ``progress``: an object with
    ``advance(n)`` and ``describe(text)`` (the CLI passes a rich progress bar). ``on_sent(event,
    t)`` is called with the ``perf_counter`` time of each send. Raises ``TimeoutError`` if the
    pipeline does not judge or project a chunk within ``timeout`` seconds.
    """
    follower = follower or Follower(bootstrap, topic_prefix)
    pacer = Pacer(speed)
    # Paced, each result goes out at once as a terminal's would; unthrottled, 2 ms lets sends share requests.
    with Terminal("publish", bootstrap, topic_prefix, linger_ms=0 if speed else 2) as terminal:
        for chunk in chunks(events):
            tid = chunk[0].tournament_id
            first, rest = (chunk[0], chunk[1:]) if chunk[0].type == "RoundPaired" else (None, chunk)
            if first is not None:
                if progress:
                    progress.describe(f"round {first.round}")
                _send(terminal, first, on_sent)
                terminal.flush()
                follower.wait(lambda: follower.judged(first.event_id), timeout, f"the pairing of round {first.round}")
                if progress:
                    progress.advance(1)
            for event in rest:
                if event.type in topics.BOARD_LEVEL:
                    pacer.pace()
                _send(terminal, event, on_sent)
                if progress:
                    progress.advance(1)
            terminal.flush()
            ids = [e.event_id for e in chunk]
            follower.wait(follower.all_judged(ids), timeout, "the processors to judge the chunk")
            if first is not None:
                # Judged, so their offsets are known: the standings must be past the furthest.
                needed = max((follower.accepted[i][1] for i in ids if i in follower.accepted), default=-1)
                follower.wait(lambda: follower.furthest.get((tid, first.round), -1) > needed, timeout,
                              f"the standings of round {first.round}")
    return follower


def _send(terminal: Terminal, event: Any, on_sent: Callable[[Any, float], None] | None) -> None:
    terminal.publish(event)
    if on_sent:
        on_sent(event, time.perf_counter())
