"""Input events published to Kafka with kafka-python: what ``olympiad publish`` plays from a data set.

A ``Terminal`` publishes each input event to its topic (``deploy.topics.INPUT_TOPIC_OF``) with its
key (``deploy.topics.input_key``: the tournament id, so both input topics are co-partitioned), as
canonical JSON. The producer is idempotent with ``acks=all``: the broker drops a retried batch,
and the event id, set here by the terminal, makes a retry by hand harmless too (the processors
treat a second copy of an event id as a duplicate).
Commands (a terminal's results, an arbiter's decisions) go through ``producers.doors.KafkaDoor``.
"""
from __future__ import annotations

from typing import Any

from kafka import KafkaProducer

from deploy import topics
from deploy.kafka_security import client_config
from schemas.canonical import canonical_json


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
            **client_config(),
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
