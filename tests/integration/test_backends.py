"""The two backends answer: a message goes through the real broker; a row goes through real PostgreSQL."""
from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa
from kafka import KafkaConsumer, KafkaProducer

from deploy import topics

pytestmark = pytest.mark.integration


def test_a_message_goes_through_the_broker_keyed_to_one_partition(kafka_bootstrap: str, topic_prefix: str) -> None:
    topic = topics.name(topics.BOARD_RESULTS, topic_prefix)
    key = "t-1"  # board results are keyed by tournament id (deploy.topics)
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all", enable_idempotence=True)
    sent = [producer.send(topic, key=key.encode(), value=f"board {b}".encode()).get(timeout=30) for b in range(1, 5)]
    producer.close()
    assert len({m.partition for m in sent}) == 1, "the four boards of a match share a partition"

    consumer = KafkaConsumer(
        topic, bootstrap_servers=kafka_bootstrap, auto_offset_reset="earliest",
        group_id=f"g-{uuid.uuid4().hex}", consumer_timeout_ms=10_000,
    )
    got = [(m.key.decode(), m.value.decode()) for m, _ in zip(consumer, range(4))]
    consumer.close()
    assert got == [(key, f"board {b}") for b in range(1, 5)]


def test_a_row_goes_through_postgresql(database_url: str) -> None:
    engine = sa.create_engine(database_url)
    assert engine.dialect.name == "postgresql"
    meta = sa.MetaData()
    table = sa.Table(f"probe_{uuid.uuid4().hex[:8]}", meta, sa.Column("id", sa.Integer, primary_key=True),
                     sa.Column("team", sa.String(40)))
    meta.create_all(engine)
    try:
        with engine.begin() as conn:
            conn.execute(table.insert(), [{"id": 1, "team": "UZB"}, {"id": 2, "team": "ARM"}])
        with engine.connect() as conn:
            assert conn.execute(sa.select(table.c.team).order_by(table.c.id)).scalars().all() == ["UZB", "ARM"]
    finally:
        meta.drop_all(engine)
        engine.dispose()
