"""The web app on the Kafka backend, against a real broker and PostgreSQL (issue 5: "for the embedded
default and for the Kafka deployment alike").

The faust processors and the projection worker run as in ``test_live_pipeline.py``; Samarkand 2026
Open round 1 is played into the pipeline and round 2 paired. The app (``KafkaBackend``, uvicorn)
then takes the four round-2 results of table 1 over HTTP with a terminal token: the stream must
push the standings the embedded core computes for the same events (MP, tie-breaks, ranks), and
the standings read back carry the worker's full document. A write is a command decided once, by
the processors (the web app does not judge it first): a refused one is sent once, enters nothing
into ``tournament-log`` and pushes nothing; a write refused by its token is not sent at all.
"""
from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any, Iterator

import httpx2
import pytest
import uvicorn
from kafka import KafkaConsumer, TopicPartition

from deploy import topics
from olympiad.cmd_live import LivePipeline
from producers.publish import publish
from projections.replay import replay
from producers.sources import load_source
from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from projections.views.standings import compact_rows
from olympiad.web.kafka_backend import KafkaBackend
from olympiad.web.preload import held_back, through_round

pytestmark = pytest.mark.integration
TID = "samarkand-2026-open"
CHIEF = "chief-kafka-test-4f9c1a7e2b"
BASE = f"/api/tournaments/{TID}"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def input_ends(bootstrap: str, prefix: str, specs: tuple = (topics.TOURNAMENT_EVENTS, topics.BOARD_RESULTS)
               ) -> dict[TopicPartition, int]:
    """End offsets of every partition of the topics ``specs`` (default: the input topics, what a
    terminal publishes to)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None)
    try:
        return consumer.end_offsets([TopicPartition(topics.name(s, prefix), p) for s in specs for p in range(s.partitions)])
    finally:
        consumer.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sse_messages(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The ``data`` of each SSE message of ``lines`` (keep-alive comments skipped)."""
    fields: dict[str, str] = {}
    for line in lines:
        if line:
            key, _, value = line.partition(": ")
            fields[key] = value
        elif "data" in fields:
            yield json.loads(fields["data"])
            fields = {}


@pytest.fixture(scope="module")
def events() -> list[Any]:
    return load_source(TID)


@pytest.fixture
def served(kafka_bootstrap: str, topic_prefix: str, fresh_database: Any, events: list[Any], monkeypatch):
    """Pipeline with round 1 played and round 2 paired; the app on ``KafkaBackend`` under uvicorn.
    Yields (base URL, app, pipeline)."""
    url = fresh_database()
    # faust's worker binds its web port (6066) even with web_enabled=False: give ours a free one,
    # so that another pipeline on this machine does not stop the processors.
    monkeypatch.setenv("WEB_PORT", str(free_port()))
    with LivePipeline(kafka_bootstrap, topic_prefix, url) as pipeline:
        publish(through_round(events, 1), bootstrap=kafka_bootstrap, topic_prefix=topic_prefix, timeout=60).close()
        pipeline.check()
        backend = KafkaBackend(kafka_bootstrap, topic_prefix, url, TID)
        tokens = TokenStore(backend.engine)
        tokens.set_chief_token(TID, CHIEF)
        app = create_app(backend, tokens)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 30
            while not server.started:
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}", app, pipeline
        finally:
            app.state.close_streams()
            server.should_exit = True
            thread.join(timeout=15)


def test_entered_table_is_pushed_with_the_core_standings_and_refusals_publish_nothing(served, events):
    base, app, pipeline = served
    table1 = [e for e in held_back(events, 1) if e.table == 1]
    expected = replay([*through_round(events, 1), *table1]).rounds[2]  # the embedded core, same events
    with httpx2.Client(base_url=base, timeout=30) as client, client.stream("GET", f"{BASE}/stream") as stream:
        messages = sse_messages(stream.iter_lines())
        first = next(messages)
        assert (first["round"], first["caused_by"]) == (2, [])
        assert first["digest"] == replay(through_round(events, 1)).rounds[2].digest

        token = client.post(f"{BASE}/terminals", json={"terminal_id": "table-1", "tables": [1]},
                            headers=auth(CHIEF)).json()["token"]
        started = time.perf_counter()
        r = client.post(f"{BASE}/rounds/2/tables/1/results", headers=auth(token),
                        json={"boards": [{"board": e.board, "result": e.result} for e in table1]})
        assert r.status_code == 201, r.text
        written = r.json()
        assert written["accepted"] == 4 and written["match"]["complete"] is True  # read your writes
        caused: list[str] = []
        for update in messages:  # the worker may project the four boards in more than one batch
            caused += update["caused_by"]
            if set(written["event_ids"]) <= set(caused):
                break
        latency_ms = (time.perf_counter() - started) * 1000
        print(f"\nsubmit -> standings update on the stream: {latency_ms:.0f} ms")
        assert update["round"] == 2 and update["digest"] == expected.digest
        assert update["rows"] == compact_rows(expected.document["rows"], events[0].profile.tiebreaks)  # MP, tie-breaks, ranks
        assert [(m["round"], m["table"], m["complete"]) for m in update["matches"]][-1:] == [(2, 1, True)]
        standings = client.get(f"{BASE}/standings/2").json()  # the worker's document, with breakdowns
        assert standings["digest"] == expected.digest
        assert [{k: v for k, v in row.items() if k not in ("decided_by", "byes")} for row in standings["rows"]] == expected.document["rows"]

        # Refusals: decided once, by the processors; nothing enters the log, nothing is pushed.
        log = (topics.TOURNAMENT_LOG,)
        sent, logged = input_ends(pipeline.bootstrap, pipeline.topic_prefix), input_ends(pipeline.bootstrap, pipeline.topic_prefix, log)
        pushed = app.state.hub.published
        board1 = table1[0]
        other = "0-1" if board1.result != "0-1" else "1-0"
        r = client.post(f"{BASE}/rounds/2/tables/1/results", headers=auth(token),
                        json={"boards": [{"board": 1, "result": other}]})
        assert r.status_code == 422
        assert r.json()["detail"].startswith(f"result: round 2 table 1 board 1 already has {board1.result} (event "
                                             f"{written['event_ids'][0]}); {other} needs a correction")
        r = client.post(f"{BASE}/rounds/2/tables/1/results", headers=auth(token),
                        json={"boards": [{"board": 5, "result": "1-0"}]})
        assert (r.status_code, r.json()["rule"]) == (422, "R-D1 boards 1..4")
        r = client.post(f"{BASE}/rounds/2/tables/2/results", headers=auth(token),
                        json={"boards": [{"board": 1, "result": "1-0"}]})
        assert r.status_code == 403
        time.sleep(0.5)  # a (wrong) publish would be acknowledged by now
        after = input_ends(pipeline.bootstrap, pipeline.topic_prefix)
        assert sum(after.values()) - sum(sent.values()) == 2  # the two commands the processors refused, once each
        assert input_ends(pipeline.bootstrap, pipeline.topic_prefix, log) == logged
        assert app.state.hub.published == pushed
    pipeline.check()
