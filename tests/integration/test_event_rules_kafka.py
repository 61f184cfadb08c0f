"""Issue 25: the event rules hold on the Kafka input topics, with the processors as ``olympiad
live`` runs them on a real broker: a raw event whose id is not the id of what it says, and a raw
pairing of a round whose previous round is not complete, are dead letters naming the field and
the rule, and the board the first one named stays free for its own result."""
from __future__ import annotations

import json
from typing import Any

import pytest
from kafka import KafkaProducer

from deploy import topics
from olympiad.cmd_live import LivePipeline
from schemas import event_ids
from schemas.canonical import canonical_json
from tests.factories import TID, board, four_team_round_one, paired
from tests.integration.test_processors_poison import read_all, wait_for

pytestmark = pytest.mark.integration


def test_raw_events_breaking_the_event_rules_are_dead_letters(kafka_bootstrap: str, topic_prefix: str, tmp_path: Any) -> None:
    pipeline = LivePipeline(kafka_bootstrap, topic_prefix, f"sqlite:///{tmp_path / 'worker.sqlite'}")
    pipeline.bootstrap = kafka_bootstrap
    pipeline.logdir.mkdir(parents=True, exist_ok=True)
    pipeline.start("processors")
    log_topic = topics.name(topics.TOURNAMENT_LOG, topic_prefix)
    dead_topic = topics.name(topics.DEAD_LETTERS, topic_prefix)
    arbiter = topics.name(topics.TOURNAMENT_EVENTS, topic_prefix)
    terminals = topics.name(topics.BOARD_RESULTS, topic_prefix)
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all")

    def send(topic: str, event: Any) -> None:
        producer.send(topic, key=TID.encode(), value=canonical_json(event).encode())
        producer.flush()

    def accepted() -> dict[str, dict]:
        return {(e := json.loads(r.value))["event_id"]: e for r in read_all(kafka_bootstrap, log_topic, topics.TOURNAMENT_LOG.partitions)}

    def dead() -> list[dict]:
        return [json.loads(r.value) for r in read_all(kafka_bootstrap, dead_topic, 1)]

    try:
        for event in four_team_round_one()[:6]:
            send(arbiter, event)
        wait_for("the pairing", lambda: event_ids.pairing(TID, 1) in accepted())
        squat = board(1, 1, 1, "1-0", event_id=event_ids.board(TID, 1, 2, 1))  # table 1 said, table 2's id
        send(terminals, squat)
        send(terminals, board(1, 2, 1, "1/2-1/2"))  # table 2 board 1's own result
        send(arbiter, paired(2, [("A", "D"), ("B", "C")]))  # round 1 has one result of eight
        letters = wait_for("two dead letters", lambda: d if len(d := dead()) >= 2 else None)
        log = wait_for("table 2 board 1", lambda: a if event_ids.board(TID, 1, 2, 1) in (a := accepted()) else None)
        assert log[event_ids.board(TID, 1, 2, 1)]["table"] == 2 and log[event_ids.board(TID, 1, 2, 1)]["result"] == "1/2-1/2"
        assert event_ids.pairing(TID, 2) not in log
        letters = sorted(letters, key=lambda d: d["field"])  # two topics: no order between them
        assert [(d["field"], d["rule"]) for d in letters] == [
            ("event_id", "an event's id is derived from its content"),
            ("round", "pair a round when the previous round is complete")]
        assert (f"event id '{TID}/r1/t2/b1' is not the id of what the event says: {TID}/r1/t1/b1") in letters[0]["reason"]
        pipeline.check()
    finally:
        producer.close()
        for name in list(pipeline.children):
            pipeline.stop(name)


def test_a_round_closed_through_the_web_on_kafka_is_signed_and_audited(kafka_bootstrap: str, topic_prefix: str,
                                                                       tmp_path: Any, monkeypatch: Any) -> None:
    """Issue 25: every door that closes a round signs it, the web app on the live pipeline too
    (``KafkaBackend.checkpoint_basis`` reads ``tournament-log`` as ``round close --kafka`` does)."""
    from fastapi.testclient import TestClient
    from typer.testing import CliRunner

    from olympiad.cli import app as cli
    from olympiad.web.app import create_app
    from olympiad.web.auth import TokenStore
    from olympiad.web.kafka_backend import KafkaBackend
    from producers.signing import ChiefKey, load_or_create_key, public_hex

    key_file = tmp_path / "chief.key"
    events = four_team_round_one()
    events[0] = events[0].model_copy(update={"chief_key": public_hex(load_or_create_key(key_file))})
    pipeline = LivePipeline(kafka_bootstrap, topic_prefix, f"sqlite:///{tmp_path / 'worker.sqlite'}")
    pipeline.bootstrap = kafka_bootstrap
    pipeline.logdir.mkdir(parents=True, exist_ok=True)
    pipeline.start("processors")
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all")
    log_topic = topics.name(topics.TOURNAMENT_LOG, topic_prefix)
    try:
        logged = lambda: len(read_all(kafka_bootstrap, log_topic, topics.TOURNAMENT_LOG.partitions))  # noqa: E731
        for part in (events[:6], events[6:]):  # the results after the pairing: two topics, no order between them
            for event in part:
                producer.send(topics.name(topics.INPUT_TOPIC_OF[event.type], topic_prefix), key=TID.encode(),
                              value=canonical_json(event).encode())
            producer.flush()
            wait_for("round 1", lambda: logged() >= events.index(part[-1]) + 1)
        backend = KafkaBackend(kafka_bootstrap, topic_prefix, f"sqlite:///{tmp_path / 'web.sqlite'}", TID)
        tokens = TokenStore(backend.engine)
        tokens.set_chief_token(TID, "chief-kafka-sign-7d2e9b41c6a0")
        web = create_app(backend, tokens)
        web.state.chief_key = ChiefKey(key_file)
        with TestClient(web) as client:
            r = client.post(f"/api/tournaments/{TID}/commands", json={"command": "CloseRound", "round": 1},
                            headers={"Authorization": "Bearer chief-kafka-sign-7d2e9b41c6a0"})
        assert r.status_code == 201, r.text
        assert r.json()["event_ids"] == [event_ids.closed(TID, 1), event_ids.checkpoint(TID, 1)]
        monkeypatch.setenv("OLYMPIAD_TOPIC_PREFIX", topic_prefix)
        audited = CliRunner().invoke(cli, ["audit", f"kafka://{kafka_bootstrap}/{TID}", "--no-trail"], env={"COLUMNS": "300"})
        out = " ".join(audited.output.split())
        assert audited.exit_code == 0, out
        assert "rounds 1-1 reproduced, 1 signed checkpoint(s)" in out
        pipeline.check()
    finally:
        producer.close()
        for name in list(pipeline.children):
            pipeline.stop(name)
