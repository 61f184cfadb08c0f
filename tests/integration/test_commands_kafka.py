"""Issue 10, acceptance 1 (Kafka half): the command sequence of the 31-team tournament sent
through Kafka (``--kafka``: the processors decide each command with the same deciders) yields
the same events, ids and content, as the embedded store, and the same standings digest."""
from __future__ import annotations

import uuid
from typing import Any

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from olympiad.cmd_live import LivePipeline
from producers.publish import Follower
from projections.store import EventStore
from schemas.canonical import canonical_json
from tests import tournament_script as script

pytestmark = pytest.mark.integration


def test_the_command_sequence_through_kafka_yields_the_same_events_and_digest(kafka_bootstrap: str, fresh_database: Any,
                                                                             tmp_path: Any) -> None:
    runner = CliRunner()
    db = f"sqlite:///{tmp_path / 'club.sqlite'}"
    store = EventStore(db)

    def embedded(argv: list[str]) -> tuple[int, str]:
        result = runner.invoke(app, argv, env={"OLYMPIAD_CLOCK": script.CLOCK, "OLYMPIAD_DB": db})
        return result.exit_code, result.output

    lines = script.play(embedded, lambda: store.refresh(), script.write_teams_csv(tmp_path / "teams.csv"))
    expected = [canonical_json(e) for e in store.refresh() and store.events()]

    prefix = f"t{uuid.uuid4().hex[:10]}."
    env = {"OLYMPIAD_CLOCK": script.CLOCK, "OLYMPIAD_TOPIC_PREFIX": prefix, "OLYMPIAD_WAIT": "60"}
    with LivePipeline(kafka_bootstrap, prefix, fresh_database()) as pipeline:
        for line in lines:
            result = runner.invoke(app, [*line, "--kafka", kafka_bootstrap], env=env)
            assert result.exit_code == 0, (line, result.output)
        follower = Follower(kafka_bootstrap, prefix)
        try:
            follower.wait(lambda: (s := follower.latest(script.TID, 11)) is not None and s.body["complete"]
                          and s.body["digest"] == store.state.closed[11], 120, "the worker's standings after round 11")
            assert not follower.refused
        finally:
            follower.close()
        pipeline.check()
        from kafka import KafkaConsumer, TopicPartition

        from deploy import topics

        consumer = KafkaConsumer(bootstrap_servers=kafka_bootstrap, enable_auto_commit=False, group_id=None)
        name = topics.name(topics.TOURNAMENT_LOG, prefix)
        tps = [TopicPartition(name, p) for p in range(topics.TOURNAMENT_LOG.partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        ends = consumer.end_offsets(tps)
        logged: dict[str, str] = {}
        while any(consumer.position(tp) < ends[tp] for tp in tps):
            for records in consumer.poll(timeout_ms=1000).values():
                for rec in records:
                    body = rec.value.decode()
                    logged.setdefault(_event_id(body), body)  # the first copy of each id (redelivery re-appends)
        consumer.close()
    assert list(logged.values()) == expected

    # Issue 16: the audit of the topics finds no divergence; a copy of the log with one result
    # changed is named at that event's round (the signed checkpoint no longer matches).
    audit_env = {"OLYMPIAD_TOPIC_PREFIX": prefix, "COLUMNS": "300"}
    result = runner.invoke(app, ["audit", f"kafka://{kafka_bootstrap}/{script.TID}", "--no-trail"], env=audit_env)
    out = " ".join(result.output.split())
    assert result.exit_code == 0 and "11 signed checkpoint(s)" in out and "11 published standings" in out, out
    assert "everything agrees" in out
    copy = f"t{uuid.uuid4().hex[:10]}."
    from deploy.topics import ensure_topics
    from kafka import KafkaProducer

    ensure_topics(kafka_bootstrap, copy)
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all")
    victim = f"{script.TID}/r8/t3/b2"
    for body in logged.values():
        if _event_id(body) == victim:
            body = body.replace('"result":"1-0"', '"result":"0-1"').replace('"result":"1/2-1/2"', '"result":"1-0"') \
                if '"result":"0-1"' not in body else body.replace('"result":"0-1"', '"result":"1-0"')
        producer.send(topics.name(topics.TOURNAMENT_LOG, copy), key=script.TID.encode(), value=body.encode())
    producer.flush()
    producer.close()
    result = runner.invoke(app, ["audit", f"kafka://{kafka_bootstrap}/{script.TID}", "--no-trail"],
                           env={**audit_env, "OLYMPIAD_TOPIC_PREFIX": copy})
    out = " ".join(result.output.split())
    assert result.exit_code == 1, out
    assert f"DIVERGENCE checkpoint: round 8: {script.TID}/r8/checkpoint: signed chain head" in out
    assert f"DIVERGENCE checkpoint: round 8: {script.TID}/r8/checkpoint: signed standings digest" in out


def _event_id(body: str) -> str:
    import json

    return json.loads(body)["event_id"]
