"""Result-entry terminal and arbiter commands: input events published to Kafka with kafka-python.

A ``Terminal`` publishes each input event to its topic (``deploy.topics.INPUT_TOPIC_OF``) with its
key (``deploy.topics.input_key``: the tournament id, so both input topics are co-partitioned), as
canonical JSON. The producer is idempotent with ``acks=all``: the broker drops a retried batch,
and the event id, set here by the terminal, makes a retry by hand harmless too (the processors
treat a second copy of an event id as a duplicate).

The id of a board result is derived from what it says: ``T/r<round>/t<table>/b<board>/<result>@
<terminal>``. Entering the same result twice at a terminal is therefore the same event; a
different result for the same board is a different event, which the processors refuse without a
correction (rule: one result per board).
"""
from __future__ import annotations

import uuid
from typing import Any

from kafka import KafkaProducer

from deploy import topics
from schemas.canonical import canonical_json
from schemas.events import BoardResultCorrected, BoardResultRecorded, MatchForfeited


def board_result_id(tournament_id: str, rnd: int, table: int, board: int, result: str, terminal_id: str) -> str:
    """The terminal-set id of a board result: equal for equal entries at one terminal."""
    return f"{tournament_id}/r{rnd}/t{table}/b{board}/{result}@{terminal_id}"


class Terminal:
    """Publishes input events to Kafka. ``bootstrap`` defaults to ``KAFKA_BOOTSTRAP_SERVERS``.

    ``linger_ms`` trades latency for batching (0 for a terminal at a table; a few ms for bulk
    publishing). Use as a context manager, or call ``close()``.
    """

    def __init__(self, terminal_id: str = "terminal", bootstrap: str | None = None, topic_prefix: str | None = None,
                 linger_ms: int = 0):
        self.terminal_id = terminal_id
        self.topic_prefix = topic_prefix
        self.producer = KafkaProducer(
            bootstrap_servers=bootstrap or topics.bootstrap_servers(),
            acks="all",
            enable_idempotence=True,
            linger_ms=linger_ms,
            client_id=f"olympiad-{terminal_id}",
        )

    def __enter__(self) -> "Terminal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Flush what is pending and close the producer."""
        self.producer.flush()
        self.producer.close()

    def publish(self, event: Any) -> Any:
        """Send one input event; returns the send future (``.get(timeout)`` gives partition and offset).

        Raises ``KeyError`` for an event type that is not an input event (derived events are the
        pipeline's to publish).
        """
        spec = topics.INPUT_TOPIC_OF[event.type]
        return self.producer.send(
            topics.name(spec, self.topic_prefix),
            key=topics.input_key(event).encode(),
            value=canonical_json(event).encode(),
        )

    def flush(self, timeout: float | None = None) -> None:
        """Block until every sent event is acknowledged by all in-sync replicas."""
        self.producer.flush(timeout)

    # -------------------------------------------------------------------- terminal and arbiter
    def record(self, tournament_id: str, rnd: int, table: int, board: int, result: str, *,
               white: str = "", black: str = "", reason: str | None = None) -> BoardResultRecorded:
        """Record one board result (code White-Black), wait for the broker's ack, return the event."""
        event = BoardResultRecorded(
            event_id=board_result_id(tournament_id, rnd, table, board, result, self.terminal_id),
            tournament_id=tournament_id, round=rnd, table=table, board=board, result=result,
            white=white, black=black, reason=reason, terminal_id=self.terminal_id,
        )
        self.publish(event).get(timeout=30)
        return event

    def correct(self, tournament_id: str, supersedes: str, rnd: int, table: int, board: int, result: str,
                reason: str) -> BoardResultCorrected:
        """An arbiter's correction of the result event ``supersedes`` (a reason is required)."""
        event = BoardResultCorrected(
            event_id=f"{supersedes}/corrected/{uuid.uuid4().hex[:12]}", tournament_id=tournament_id,
            supersedes=supersedes, round=rnd, table=table, board=board, result=result, reason=reason,
        )
        self.publish(event).get(timeout=30)
        return event

    def forfeit(self, tournament_id: str, rnd: int, table: int, winner: str | None, reason: str) -> MatchForfeited:
        """A whole match forfeited to ``winner`` (None: both teams forfeit)."""
        event = MatchForfeited(
            event_id=f"{tournament_id}/r{rnd}/t{table}/forfeit@{self.terminal_id}", tournament_id=tournament_id,
            round=rnd, table=table, winner=winner, reason=reason,
        )
        self.publish(event).get(timeout=30)
        return event
