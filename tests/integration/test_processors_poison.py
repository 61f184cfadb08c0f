"""Issue 12, acceptance 3: poison messages on a real broker, with the processors as ``LivePipeline``
runs them (the README's command).

A poison message inside a burst of valid ones (each an ``ImportFacts``: the input topics carry
commands) is dead-lettered alone; every valid one is
accepted; the committed offsets move past the poison, so a restart crashes nothing and judges
nothing twice; SIGTERM stops the processors within 10 s; the README command opens no web server.
"""
from __future__ import annotations

import json
import signal
import socket
import time
from typing import Any

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from deploy import topics
from olympiad.cmd_live import LivePipeline
from tests.factories import TID, board, four_team_round_one
from tests.kafka_read import read_topic
from tests.kafka_messages import import_body, imported

pytestmark = pytest.mark.integration

POISONS = [
    b'{"type": ["BoardResultRecorded"], "event_id": "p1", "tournament_id": "test-open"}',
    b'{"type": {"x": 1}, "event_id": "p2", "tournament_id": "test-open"}',
    b"[" * 50_000 + b"]" * 50_000,
    json.dumps(import_body({"type": "BoardResultRecorded", "event_id": "p4", "tournament_id": TID, "round": 1, "table": 2,
                            "board": 4, "result": "1-0", "reason": "\ud800"})).encode(),
    json.dumps(import_body({"type": "BoardResultRecorded", "event_id": "p5", "tournament_id": TID, "round": 1, "table": 2,
                            "board": 4, "result": "1-0", "reason": "x" * 1_000_000})).encode(),
]


def read_all(bootstrap: str, topic: str, partitions: int) -> list[Any]:
    """Every record of ``topic`` up to its end offsets when the read starts."""
    return read_topic(bootstrap, topic, partitions)


def wait_for(what: str, done, timeout: float = 120) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = done()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.5)


def test_poison_messages_are_dead_letters_alone_restarts_move_on_sigterm_is_prompt(kafka_bootstrap: str, topic_prefix: str,
                                                                                    tmp_path: Any) -> None:
    pipeline = LivePipeline(kafka_bootstrap, topic_prefix, f"sqlite:///{tmp_path / 'worker.sqlite'}")
    pipeline.bootstrap = kafka_bootstrap
    pipeline.logdir.mkdir(parents=True, exist_ok=True)
    env = pipeline.env()
    pipeline.env = lambda: env  # one WEB_PORT for the whole test, to probe it below
    pipeline.start("processors")
    log_topic = topics.name(topics.TOURNAMENT_LOG, topic_prefix)
    dead_topic = topics.name(topics.DEAD_LETTERS, topic_prefix)
    board_results = topics.name(topics.BOARD_RESULTS, topic_prefix)
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all", max_request_size=2 * 1024 * 1024)
    try:
        for event in four_team_round_one()[:6]:
            producer.send(topics.name(topics.TOURNAMENT_EVENTS, topic_prefix), key=TID.encode(), value=imported(event))
        producer.flush()

        def accepted() -> set[str]:
            return {json.loads(r.value)["event_id"] for r in read_all(kafka_bootstrap, log_topic, topics.TOURNAMENT_LOG.partitions)}

        wait_for("the pairing", lambda: f"{TID}/r1/pairing" in accepted())
        # One burst: valid, poison, valid, poison ... and a valid result without a key.
        valid = [board(1, 1, b, "1-0") for b in range(1, 5)] + [board(1, 2, b, "1/2-1/2") for b in range(1, 4)]
        for i, poison in enumerate(POISONS):
            producer.send(board_results, key=TID.encode(), value=imported(valid[i]))
            producer.send(board_results, key=TID.encode(), value=poison)
        producer.send(board_results, key=TID.encode(), value=imported(valid[5]))
        producer.send(board_results, key=None, value=imported(valid[6]))
        producer.flush()
        wait_for("the valid results", lambda: {e.event_id for e in valid[:6]} <= accepted())

        def dead() -> list[dict]:
            return [json.loads(r.value) for r in read_all(kafka_bootstrap, dead_topic, 1)]

        letters = wait_for("six dead letters", lambda: d if len(d := dead()) >= 6 else None)
        assert len(letters) == 6  # the five poisons, the unkeyed result, and nothing else
        assert valid[6].event_id not in accepted()
        by_rule = sorted(d["rule"] for d in letters)
        assert by_rule.count("input events are keyed by tournament id") == 1
        assert all(d["field"] and d["rule"] and d["reason"] for d in letters)
        big = [d for d in letters if d["value_bytes"] > 1_000_000]
        assert len(big) == 1 and big[0]["truncated"] is True and len(big[0]["value_sha256"]) == 64
        # The README's command opens no web server (faust's would serve the judged table).
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", int(env["WEB_PORT"]))) != 0
        # SIGTERM: the processors stop within 10 s ...
        proc = pipeline.children["processors"]
        time.sleep(4)  # past faust's 2.8 s commit interval
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        assert time.monotonic() - start < 10
        pipeline.children.pop("processors")
        # ... with the committed offsets past every message judged, poisons included.
        consumer = KafkaConsumer(bootstrap_servers=kafka_bootstrap, group_id=f"{topic_prefix}olympiad-processors",
                                 enable_auto_commit=False)
        tps = [TopicPartition(board_results, p) for p in range(topics.BOARD_RESULTS.partitions)]
        ends = consumer.end_offsets(tps)
        committed = {tp: consumer.committed(tp) for tp in tps}
        consumer.close(autocommit=False)
        assert sum(ends.values()) == 12  # the burst
        assert committed == {tp: (end or None) for tp, end in ends.items()}
        # A restart crashes nothing, judges no poison again, and goes on with the next result.
        pipeline.start("processors")
        producer.send(board_results, key=TID.encode(), value=imported(board(1, 2, 4, "0-1")))
        producer.flush()
        wait_for("the result after the restart", lambda: f"{TID}/r1/t2/b4" in accepted())
        assert len(dead()) == 6
        pipeline.check()
    finally:
        producer.close()
        for name in list(pipeline.children):
            pipeline.stop(name)
