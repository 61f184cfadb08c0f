"""Commands published to Kafka with kafka-python, without waiting for each verdict: what
``olympiad publish`` plays a data set with.

The Kafka input topics carry commands only (``deploy.topics``): a ``Terminal`` sends each
command (``schemas.commands``, as canonical JSON) keyed by its tournament id, on its input topic
(``deploy.topics.command_topic``), or, authenticated as a principal (``deploy.kafka_security``),
on that principal's commands topic, whose producer the processors take the actor from. A fact of
a data set travels as an ``ImportFacts`` command (``facts_command``), decided by the processors
with the same rules as every other command's events. The producer is idempotent with
``acks=all``: the broker drops a retried batch, and a command sent again is decided "already
recorded" (its facts' ids, ``processors.deciders.handle``).
Doors that wait for one command's verdict use ``producers.doors.KafkaDoor``.
"""
from __future__ import annotations

import uuid
from typing import Any, Sequence

from kafka import KafkaProducer

from deploy import kafka_security, topics
from schemas.canonical import canonical_json
from schemas.commands import Actor, ImportFacts


class Terminal:
    """Publishes commands to Kafka. ``bootstrap`` defaults to ``KAFKA_BOOTSTRAP_SERVERS``.

    ``terminal_id`` names the importer its facts come from (``facts_command``: actor role
    ``importer``, source and id ``terminal_id``; on a broker with authentication the processors
    give the command its principal's actor instead). ``principal``: who it authenticates as
    (default ``$KAFKA_SASL_USERNAME``; None: PLAINTEXT). ``linger_ms`` trades latency for batching
    (0 for one fact at a time; a few ms for bulk publishing). Use as a context manager, or call
    ``close()``.
    """

    def __init__(self, terminal_id: str = "terminal", bootstrap: str | None = None, topic_prefix: str | None = None,
                 linger_ms: int = 0, principal: str | None = None):
        self.terminal_id = terminal_id
        self.topic_prefix = topic_prefix
        self.principal = kafka_security.principal(principal)
        self.producer = KafkaProducer(
            bootstrap_servers=bootstrap or topics.bootstrap_servers(),
            acks="all",
            enable_idempotence=True,
            linger_ms=linger_ms,
            max_request_size=2 * 1024 * 1024,  # a command is at most schemas.limits.MAX_MESSAGE_BYTES
            client_id=f"olympiad-{terminal_id}",
            **kafka_security.client_config(self.principal),
        )

    def __enter__(self) -> "Terminal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Flush what is pending and close the producer."""
        self.producer.flush()
        self.producer.close()

    def facts_command(self, facts: Sequence[Any]) -> ImportFacts:
        """``facts`` (input events of one tournament, in log order) as one ``ImportFacts`` of this
        terminal's importer, with a fresh ``command_id`` (its verdict's key on ``verdicts``)."""
        return ImportFacts(tournament_id=facts[0].tournament_id, actor=Actor(role="importer", id=self.terminal_id),
                           source=self.terminal_id, facts=tuple(facts), command_id=uuid.uuid4().hex)

    def send(self, command: Any) -> Any:
        """Send one command (``schemas.commands``); returns the send future (``.get(timeout)``
        gives partition and offset). The topic: this principal's commands topic, else the
        command's input topic (``deploy.topics.command_topic``); the key: its tournament id."""
        topic = (topics.principal_topic(self.principal, self.topic_prefix) if self.principal
                 else topics.name(topics.command_topic(command), self.topic_prefix))
        return self.producer.send(topic, key=command.tournament_id.encode(), value=canonical_json(command).encode())

    def publish(self, event: Any) -> ImportFacts:
        """Send one fact (an input event) as an ``ImportFacts`` of its own; returns the command sent
        (its ``command_id`` names its verdict)."""
        command = self.facts_command([event])
        self.send(command)
        return command

    def flush(self, timeout: float | None = None) -> None:
        """Block until every sent command is acknowledged by all in-sync replicas."""
        self.producer.flush(timeout)
