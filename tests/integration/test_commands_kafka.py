"""Issue 10, acceptance 1 (Kafka half): the command sequence of the 31-team tournament sent
through Kafka (``--kafka``: the processors decide each command with the same deciders) yields
the same events, ids and content, as the embedded store, and the same standings digest.

Issue 27: the tournament's checkpoints, fetched from the running scoreboard (the web app on the
live pipeline, over HTTP) and from the standings topic, anchor the audit of its topic; on copies
of the topic a cut tail and a log rewritten under another key are named against them and against
the pinned key; without an anchor the audit is consistent but not anchored (exit status 3)."""
from __future__ import annotations

import json
import threading
import time
import urllib.request
import uuid
from contextlib import contextmanager
from typing import Any, Iterator


import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from olympiad.cmd_live import LivePipeline
from olympiad.web.local_server import call, free_port
from producers.publish import Follower
from projections.anchors import anchors_document
from schemas.canonical import canonical_json
from schemas.chain import CHAIN_HEADER, PREV_HEADER, chain_of, chain_start
from tests import tournament_script as script

pytestmark = pytest.mark.integration


def test_the_command_sequence_through_kafka_yields_the_same_events_and_digest(kafka_bootstrap: str, fresh_database: Any,
                                                                             tmp_path: Any) -> None:
    lines, store, _ = script.play_embedded(tmp_path)
    expected = [canonical_json(e) for e in store.events()]
    runner = CliRunner()

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
        # Issue 27: the checkpoints as the running scoreboard publishes them (its API and its page).
        with scoreboard(kafka_bootstrap, prefix, f"sqlite:///{tmp_path / 'web.sqlite'}", script.TID) as base:
            anchors_url = f"{base}/api/tournaments/{script.TID}/checkpoints"
            deadline = time.monotonic() + 60
            while len((published := call(anchors_url))["checkpoints"]) < 11:
                assert time.monotonic() < deadline, published
                time.sleep(0.2)
            assert published == anchors_document(store.state)  # the same decisions, the same signatures
            with urllib.request.urlopen(base, timeout=30) as page:
                assert store.state.checkpoints[11].head in page.read().decode()
            result = runner.invoke(app, ["audit", f"kafka://{kafka_bootstrap}/{script.TID}", "--no-trail", "--against", base],
                                   env={"OLYMPIAD_TOPIC_PREFIX": prefix, "COLUMNS": "300"})  # the server's address: its API path
            out = " ".join(result.output.split())
            assert result.exit_code == 0, out
            assert out.endswith(f"audit: everything agrees, anchored to 11 published checkpoint(s) and the published key "
                                f"({anchors_url})"), out
        saved = tmp_path / "checkpoints.json"
        saved.write_text(json.dumps(published))
        from kafka import KafkaConsumer, TopicPartition

        from deploy import topics

        consumer = KafkaConsumer(bootstrap_servers=kafka_bootstrap, enable_auto_commit=False, group_id=None)
        name = topics.name(topics.TOURNAMENT_LOG, prefix)
        tps = [TopicPartition(name, p) for p in range(topics.TOURNAMENT_LOG.partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        ends = consumer.end_offsets(tps)
        logged: dict[str, str] = {}
        headers: dict[str, list] = {}  # event id -> the record headers of its first copy
        while any(consumer.position(tp) < ends[tp] for tp in tps):
            for records in consumer.poll(timeout_ms=1000).values():
                for rec in records:
                    body = rec.value.decode()
                    logged.setdefault(_event_id(body), body)  # the first copy of each id (redelivery re-appends)
                    headers.setdefault(_event_id(body), list(rec.headers or ()))
        consumer.close()
    assert list(logged.values()) == expected
    # Every record carries the chain hash through its event and the one before it (schemas.chain).
    hashes = chain_of(script.TID, expected)
    assert [dict(headers[_event_id(b)]).get(CHAIN_HEADER, b"").decode() for b in expected] == hashes
    assert [dict(headers[_event_id(b)]).get(PREV_HEADER, b"").decode() for b in expected] == [chain_start(script.TID), *hashes[:-1]]

    # Issue 16: the audit of the topics finds no divergence; on a copy of the log (values and
    # headers) a changed result, a deleted event and two swapped events are each named at the
    # event by the chain hashes in the record headers (and the signed checkpoint of the round).
    audit_env = {"OLYMPIAD_TOPIC_PREFIX": prefix, "COLUMNS": "300"}
    result = runner.invoke(app, ["audit", f"kafka://{kafka_bootstrap}/{script.TID}", "--no-trail"], env=audit_env)
    out = " ".join(result.output.split())
    assert result.exit_code == 3 and "11 signed checkpoint(s)" in out and "11 published standings" in out, out
    assert "DIVERGENCE" not in out and out.endswith(UNANCHORED), out
    result = runner.invoke(app, ["audit", f"kafka://{kafka_bootstrap}/{script.TID}", "--no-trail", "--against",
                                 f"kafka://{kafka_bootstrap}"], env=audit_env)  # the copy the worker keeps on standings
    assert result.exit_code == 0 and "anchored to 11 published checkpoint(s)" in result.output, result.output
    victim = f"{script.TID}/r8/t3/b2"
    bodies = list(logged.values())
    changed = [_flip(b) if _event_id(b) == victim else b for b in bodies]
    out = _audit_copy(runner, kafka_bootstrap, [(b, headers[_event_id(b)]) for b in changed])
    assert f"DIVERGENCE chain: round 8: {victim}: the stored hash" in out
    assert "its text is not the text that was logged (changed after it was logged)" in out
    assert f"DIVERGENCE checkpoint: round 8: {script.TID}/r8/checkpoint: signed chain head" in out
    assert f"DIVERGENCE checkpoint: round 8: {script.TID}/r8/checkpoint: signed standings digest" in out

    ids = list(logged)
    gone = ids.index(f"{script.TID}/r5/t4/b2")
    out = _audit_copy(runner, kafka_bootstrap, [(logged[i], headers[i]) for n, i in enumerate(ids) if n != gone])
    assert (f"DIVERGENCE chain: round 5: {ids[gone + 1]}: the stored hash" in out
            and f"is not in the log: an event between {ids[gone - 1]} and this one was deleted" in out), out

    a, b = ids.index(f"{script.TID}/r6/t1/b1"), ids.index(f"{script.TID}/r6/t1/b2")
    ids[a], ids[b] = ids[b], ids[a]
    out = _audit_copy(runner, kafka_bootstrap, [(logged[i], headers[i]) for i in ids])
    assert f"DIVERGENCE chain: round 6: {script.TID}/r6/t1/b2: the stored hash" in out, out
    assert f"it was logged right after {script.TID}/r6/t1/b1 (" in out and "the events were swapped or moved" in out

    # Issue 27 on copies of the topic: the cut tail (the last checkpoint; the whole last round) is
    # named against the published checkpoints; a log rewritten under another key against the
    # pinned key and against the published checkpoints, and it is consistent without them.
    ids = list(logged)
    copy_of = lambda keep: [(logged[i], headers[i]) for i in keep]  # noqa: E731
    cp11 = published["checkpoints"][-1]
    out = _audit_copy(runner, kafka_bootstrap, copy_of(ids[:cp11["events"]]), "--against", str(saved))
    assert (f"DIVERGENCE anchor: round 11: the published checkpoint of round 11: not in the log: the log has no checkpoint of "
            "the round") in out, out
    cut = ids.index(f"{script.TID}/r10/checkpoint") + 1
    out = _audit_copy(runner, kafka_bootstrap, copy_of(ids[:cut]), "--against", str(saved))
    assert (f"DIVERGENCE anchor: round 11: {script.TID}/r11/checkpoint: the log ends at event {cut}; the published checkpoint "
            f"of round 11 signed a head of {cp11['events']} events: the log was cut") in out, out
    other, _ = script.play_rewritten(lines, tmp_path / "rewritten")
    bodies = [canonical_json(e) for e in other.events()]
    hashes = chain_of(script.TID, bodies)
    rewritten = [(b, [(CHAIN_HEADER, h.encode()), (PREV_HEADER, p.encode())])
                 for b, h, p in zip(bodies, hashes, [chain_start(script.TID), *hashes[:-1]])]
    key, forged = published["chief_key"], other.state.created.chief_key
    out = _audit_copy(runner, kafka_bootstrap, rewritten, code=3)
    assert "DIVERGENCE" not in out and out.endswith(UNANCHORED), out
    out = _audit_copy(runner, kafka_bootstrap, rewritten, "--key", key)
    assert (f"DIVERGENCE key: TournamentCreated: the log's chief arbiter key {forged[:12]}... is not the pinned key "
            f"{key[:12]}...") in out, out
    out = _audit_copy(runner, kafka_bootstrap, rewritten, "--against", str(saved))
    assert (f"DIVERGENCE anchor: round 11: the published checkpoint of round 11: the log's checkpoint of the round "
            f"({script.TID}/r11/checkpoint) is another one") in out, out


def _flip(body: str) -> str:
    """One board result changed: a win for the other side."""
    if '"result":"0-1"' in body:
        return body.replace('"result":"0-1"', '"result":"1-0"')
    return body.replace('"result":"1-0"', '"result":"0-1"').replace('"result":"1/2-1/2"', '"result":"1-0"')


def _audit_copy(runner: CliRunner, bootstrap: str, records: list[tuple[str, list]], *options: str, code: int = 1) -> str:
    """``olympiad audit`` of a copy of tournament-log (``records``: values with their headers) under
    a topic prefix of its own, with ``options``; it must exit ``code`` (1: a divergence). Returns
    its output on one line."""
    from kafka import KafkaProducer

    from deploy import topics

    copy = f"t{uuid.uuid4().hex[:10]}."
    topics.ensure_topics(bootstrap, copy)
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    for body, headers in records:
        producer.send(topics.name(topics.TOURNAMENT_LOG, copy), key=script.TID.encode(), value=body.encode(), headers=headers)
    producer.flush()
    producer.close()
    result = runner.invoke(app, ["audit", f"kafka://{bootstrap}/{script.TID}", "--no-trail", *options],
                           env={"OLYMPIAD_TOPIC_PREFIX": copy, "COLUMNS": "300"})
    out = " ".join(result.output.split())
    assert result.exit_code == code, out
    return out


UNANCHORED = ("audit: consistent but not anchored (exit status 3); not checked: the chief arbiter's key (no --key) and the "
              "published checkpoints (no --against): a log cut after its last checkpoint, or rewritten whole and signed with "
              "another key, reads the same")


@contextmanager
def scoreboard(bootstrap: str, prefix: str, db: str, tid: str) -> Iterator[str]:
    """The web app on the live pipeline (``KafkaBackend``) served by uvicorn on a free port; yields its base URL."""
    import uvicorn

    from olympiad.web.app import create_app
    from olympiad.web.auth import TokenStore
    from olympiad.web.kafka_backend import KafkaBackend

    backend = KafkaBackend(bootstrap, prefix, db, tid)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(backend, TokenStore(backend.engine)), port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def _event_id(body: str) -> str:
    import json

    return json.loads(body)["event_id"]
