"""Where a feed's problems are dead-lettered on the live pipeline: the ``dead-letters`` topic
(``deploy.topics.DEAD_LETTERS``), keyed by tournament, one ``schemas.dead_letters`` envelope each.
(On the embedded store the ``FeedProblemReported`` event keeps the text: no topic.)"""
from __future__ import annotations

from kafka import KafkaProducer

from deploy import kafka_security, topics


class KafkaDeadLetters:
    """Publishes envelopes to ``dead-letters`` at ``bootstrap`` (``topic_prefix`` as in ``deploy.topics``)."""

    def __init__(self, bootstrap: str, topic_prefix: str | None = None, principal: str | None = None):
        self.topic = topics.name(topics.DEAD_LETTERS, topic_prefix)
        self.producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=0, client_id="olympiad-feed",
                                      **kafka_security.client_config(kafka_security.principal(principal)))

    def __call__(self, envelope: bytes) -> None:
        """Publish one envelope (waits for the broker's acknowledgement)."""
        self.producer.send(self.topic, value=envelope).get(timeout=30)

    def close(self) -> None:
        """Flush and close the producer."""
        self.producer.flush()
        self.producer.close()
