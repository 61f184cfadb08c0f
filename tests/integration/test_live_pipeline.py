"""The live pipeline on a real broker and a real PostgreSQL (issue 4, acceptance 2 and 3).

Samarkand 2026 Open is published through Kafka once per module (``producers.publish``), judged
and folded by the faust processors, projected by the worker into PostgreSQL. Then:

- after every round, the standings published on the ``standings`` topic and stored by the worker
  equal those of the embedded path (``EventStore`` + ``project``) byte for byte (digests);
- republished duplicates, a projection worker and processors killed with SIGKILL and restarted,
  and a second worker projecting ``tournament-log`` from offset 0 into an empty database change
  nothing;
- bad messages end on ``dead-letters`` with the rule named (a raw event among them: the input
  topics carry commands, facts as ``ImportFacts``), while the valid facts imported between them
  are all accepted and projected.
"""
from __future__ import annotations

import json
import signal
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from kafka import KafkaProducer

from deploy import topics
from olympiad.cmd_live import LivePipeline
from producers.publish import Follower, publish
from producers.terminal import Terminal
from producers.sources import load_source
from projections.store import events_table, matches_table, standings_documents, standings_table
from projections.projector import offsets_table
from projections.worker import Worker, caught_up
from schemas.events import BoardResultRecorded, RoundPaired, Table
from tests.factories import stored
from tests.kafka_messages import imported
from tests.kafka_read import read_topic

pytestmark = pytest.mark.integration
TID = "samarkand-2026-open"


def read_models(url: str) -> dict[str, Any]:
    """Everything the worker keeps, in a comparable form (events by id, matches, standings per round)."""
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        out = {
            "events": sorted(conn.execute(sa.select(events_table.c.event_id, events_table.c.body)).all()),
            "matches": sorted(conn.execute(sa.select(matches_table)).all()),
            "standings": sorted(conn.execute(sa.select(standings_table)).all()),
            "documents": {(r.tournament_id, r.round): r.digest for r in conn.execute(sa.select(standings_documents))},
        }
    engine.dispose()
    return out


def wait_caught_up(follower: Follower, url: str, bootstrap: str, prefix: str) -> None:
    follower.wait(lambda: caught_up(url, bootstrap, prefix), 120, "the projection worker to reach the end of tournament-log")


@pytest.fixture(scope="module")
def samarkand() -> list[Any]:
    return load_source(TID)


@pytest.fixture(scope="module")
def embedded(samarkand: list[Any]) -> dict[int, str]:
    """The embedded path: standings digest per round from the event store's read models."""
    return {r: s.digest for r, s in stored(samarkand).project().rounds.items()}


@pytest.fixture(scope="module")
def live(kafka_bootstrap: str, fresh_database: Any, samarkand: list[Any]):
    """A pipeline with Samarkand 2026 Open published through it; yields (pipeline, follower, db url)."""
    prefix = f"t{uuid.uuid4().hex[:10]}."
    url = fresh_database()
    with LivePipeline(kafka_bootstrap, prefix, url) as pipeline:
        follower = publish(samarkand, bootstrap=kafka_bootstrap, topic_prefix=prefix, timeout=300)
        pipeline.check()
        yield pipeline, follower, url
        follower.close()


def test_kafka_path_equals_embedded_path_after_every_round(live: Any, embedded: dict[int, str]) -> None:
    pipeline, follower, url = live
    assert not follower.refused, f"valid events refused: {list(follower.refused.values())[:3]}"
    published = {r: follower.latest(TID, r).body["digest"] for r in follower.rounds(TID)}
    stored = {r: d for (t, r), d in read_models(url)["documents"].items() if t == TID}
    assert published == embedded
    assert stored == embedded
    # Once a round is complete, the pairing engine proposes the next one.
    proposals = _read(pipeline.bootstrap, topics.name(topics.PAIRINGS, pipeline.topic_prefix), topics.PAIRINGS.partitions)
    assert {json.loads(v)["round"] for v in proposals if json.loads(v)["tournament_id"] == TID} == set(range(2, 12))


def test_the_audit_of_the_live_log_and_of_the_postgresql_store_finds_no_divergence(live: Any, database_url: Any,
                                                                                    fresh_database: Any) -> None:
    """Issue 16, acceptance 1: ``olympiad audit`` on the Kafka address reproduces every round's
    standings and the proposals published, and so on the PostgreSQL event store of the embedded path.
    The imported Samarkand log has no key and no signed checkpoint: consistent but not anchored
    (issue 27: exit status 3, the last line says what was not checked)."""
    from typer.testing import CliRunner

    from olympiad.cli import app

    pipeline, follower, url = live
    env = {"OLYMPIAD_TOPIC_PREFIX": pipeline.topic_prefix, "COLUMNS": "300"}
    result = CliRunner().invoke(app, ["audit", f"kafka://{pipeline.bootstrap}/{TID}", "--no-trail"], env=env)
    out = " ".join(result.output.split())
    assert result.exit_code == 3, out
    assert "rounds 1-11 reproduced" in out and "11 published standings" in out and "DIVERGENCE" not in out
    assert out.endswith("no signed checkpoint in the log: nothing proves that nobody rewrote it consistently"), out
    store_url = fresh_database()
    done = CliRunner().invoke(app, ["replay", TID, "--db", store_url])
    assert done.exit_code == 0, done.output
    result = CliRunner().invoke(app, ["audit", store_url, "--no-trail"], env={"COLUMNS": "300"})
    out = " ".join(result.output.split())
    assert result.exit_code == 3 and "audit: consistent but not anchored" in out, out
    assert "4735 events, rounds 1-11 reproduced" in out and "11 published standings, 11 published pairings" in out


def test_duplicates_and_restarts_change_nothing(live: Any, samarkand: list[Any]) -> None:
    pipeline, follower, url = live
    before = read_models(url)
    # The worker dies without a clean shutdown, and so do the processors.
    pipeline.stop("projections", signal.SIGKILL)
    pipeline.stop("processors", signal.SIGKILL)
    pipeline.start("processors")
    pipeline.start("projections")
    # Every event of round 11 again (terminal retries), and the registration, straight to the topics.
    with Terminal("retry", pipeline.bootstrap, pipeline.topic_prefix) as terminal:
        for event in samarkand:
            if event.type in ("TournamentCreated", "TeamRegistered") or getattr(event, "round", 0) == 11:
                terminal.publish(event)
    last = next(e for e in reversed(samarkand) if e.type == "BoardResultRecorded")
    marker = topics.name(topics.TOURNAMENT_LOG, pipeline.topic_prefix)
    # The processors re-append an event they have seen to tournament-log; wait for the worker to read them all.
    follower.wait(lambda: _copies(pipeline.bootstrap, marker, last.event_id) >= 2, 180, "the duplicate to be judged")
    wait_caught_up(follower, url, pipeline.bootstrap, pipeline.topic_prefix)
    pipeline.check()
    assert read_models(url) == before


def test_replay_from_offset_zero_changes_nothing(live: Any, fresh_database: Any, embedded: dict[int, str]) -> None:
    pipeline, follower, url = live
    # A second worker, on an empty database, reads tournament-log from offset 0 ...
    other = fresh_database()
    worker = Worker(other, pipeline.bootstrap, pipeline.topic_prefix)
    while not caught_up(other, pipeline.bootstrap, pipeline.topic_prefix):
        records = worker.poll()
        if records:
            worker.projector.apply_batch(records)
    worker.consumer.close()
    worker.producer.close()
    first, again = read_models(url), read_models(other)
    assert again["documents"] == first["documents"]
    assert {r: d for (t, r), d in again["documents"].items() if t == TID} == embedded
    assert again["matches"] == first["matches"] and again["standings"] == first["standings"]
    # ... and the pipeline's worker, restarted with its stored positions set back to 0, changes nothing either.
    pipeline.stop("projections")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.update(offsets_table).values(next_offset=0))
    engine.dispose()
    pipeline.start("projections")
    wait_caught_up(follower, url, pipeline.bootstrap, pipeline.topic_prefix)
    assert read_models(url) == first


def test_bad_events_end_on_dead_letters_and_valid_ones_go_through(live: Any, samarkand: list[Any]) -> None:
    pipeline, follower, url = live
    tid = f"bad-{uuid.uuid4().hex[:6]}"
    created = samarkand[0].model_copy(update={"tournament_id": tid, "event_id": f"{tid}/created"})
    teams = [e.model_copy(update={"tournament_id": tid, "event_id": f"{tid}/team/{e.team_id}"})
             for e in samarkand if e.type == "TeamRegistered"][:4]
    a, b, c, d = (t.team_id for t in teams)
    paired = RoundPaired(event_id=f"{tid}/r1/pairing", tournament_id=tid, round=1,
                         tables=(Table(table=1, home=a, away=b), Table(table=2, home=c, away=d)))

    def result(table: int, board: int, code: str, **extra: Any) -> BoardResultRecorded:
        return BoardResultRecorded(event_id=f"{tid}/r1/t{table}/b{board}", tournament_id=tid, round=1,
                                   table=table, board=board, result=code, **extra)

    good = [result(t, b, "1-0" if b % 2 else "1/2-1/2") for t in (1, 2) for b in range(1, 5)]
    board_results = topics.name(topics.BOARD_RESULTS, pipeline.topic_prefix)
    imports = topics.name(topics.TOURNAMENT_EVENTS, pipeline.topic_prefix)  # ImportFacts' topic (deploy.topics.command_topic)
    raw = KafkaProducer(bootstrap_servers=pipeline.bootstrap, acks="all")
    bad_version = json.loads(result(1, 1, "1-0").model_dump_json())
    bad_version.update(schema_version=99, event_id=f"{tid}/v99")
    with Terminal("t", pipeline.bootstrap, pipeline.topic_prefix) as terminal:
        for event in (created, *teams, paired):
            terminal.publish(event)
        terminal.flush()
        follower.wait(lambda: follower.judged(paired.event_id), 60, "the pairing")
        terminal.publish(good[0])
        raw.send(board_results, key=tid.encode(), value=b'{"type": "BoardResultRecorded", "tournament_id": ')
        terminal.publish(good[1])
        raw.send(board_results, key=tid.encode(), value=json.dumps(bad_version).encode())  # a raw event: not a command
        # keyed by table, not by tournament: it could land on another partition than the pairing
        raw.send(imports, key=f"{tid}/1/2".encode(), value=imported(result(2, 1, "0-1")))
        terminal.publish(good[2])
        terminal.publish(result(1, 5, "1-0"))
        terminal.publish(good[3])
        terminal.publish(result(99, 1, "1-0"))
        terminal.publish(good[4])
        terminal.publish(result(1, 1, "0-1"))  # board 1 of table 1 already has 1-0
        for event in good[5:]:
            terminal.publish(event)
        raw.flush()
        raw.close()
    follower.wait(lambda: len([e for e in follower.refused.values() if tid in (e.get("key") or "")]) >= 6, 120,
                  "six dead letters")
    rules = sorted(e["rule"] for e in follower.refused.values() if tid in (e.get("key") or ""))
    assert rules == sorted([
        "JSON syntax", "input topics carry commands", "input events are keyed by tournament id", "R-D1 boards 1..4",
        "results only for tables of the round's pairing",
        "one result per board; changes go through a correction",
    ])
    for envelope in (e for e in follower.refused.values() if tid in (e.get("key") or "")):
        assert envelope["reason"] and envelope["topic"] == (board_results if envelope["rule"] in (
            "JSON syntax", "input topics carry commands") else imports)
    follower.wait(lambda: all(e.event_id in follower.accepted for e in good), 60, "the valid results")
    follower.wait(lambda: (s := follower.latest(tid, 1)) is not None and s.body["complete"], 60, "complete standings")
    rows = {r["team_id"]: (r["mp"], r["gp"]) for r in follower.latest(tid, 1).body["rows"]}
    assert rows == {a: (2, "3"), b: (0, "1"), c: (2, "3"), d: (0, "1")}


def _read(bootstrap: str, topic: str, partitions: int) -> list[bytes]:
    """Every value on ``topic`` up to its end offsets when the read starts."""
    return [rec.value for rec in read_topic(bootstrap, topic, partitions)]


def _copies(bootstrap: str, topic: str, event_id: str) -> int:
    """How many times ``event_id`` is on ``topic`` (a tournament-log)."""
    return sum(1 for v in _read(bootstrap, topic, topics.TOURNAMENT_LOG.partitions) if json.loads(v)["event_id"] == event_id)


def test_enter_and_correct_report_the_processors_verdict(live: Any, samarkand: list[Any], monkeypatch: Any) -> None:
    """``olympiad enter`` / ``olympiad correct`` wait for the verdict: accepted (0) or refused with the rule (2)."""
    from typer.testing import CliRunner

    from olympiad.cli import app

    pipeline, follower, _ = live
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", pipeline.bootstrap)
    monkeypatch.setenv("OLYMPIAD_TOPIC_PREFIX", pipeline.topic_prefix)
    tid = f"enter-{uuid.uuid4().hex[:6]}"
    created = samarkand[0].model_copy(update={"tournament_id": tid, "event_id": f"{tid}/created"})
    teams = [e.model_copy(update={"tournament_id": tid, "event_id": f"{tid}/team/{e.team_id}"})
             for e in samarkand if e.type == "TeamRegistered"][:2]
    paired = RoundPaired(event_id=f"{tid}/r1/pairing", tournament_id=tid, round=1,
                         tables=(Table(table=1, home=teams[0].team_id, away=teams[1].team_id),))
    with Terminal("t", pipeline.bootstrap, pipeline.topic_prefix) as terminal:
        for event in (created, *teams, paired):
            terminal.publish(event)
    follower.wait(lambda: follower.judged(paired.event_id), 60, "the pairing")

    def run(*args: str, who: tuple[str, ...] = ("--terminal", "t1")) -> tuple[int, str]:
        result = CliRunner().invoke(app, [*args, *who, "--kafka", pipeline.bootstrap], env={"OLYMPIAD_WAIT": "60"})
        return result.exit_code, " ".join(result.output.split())

    assert run("enter", tid, "1", "1", "1", "1-0") == (0, f"recorded: {tid}/r1/t1/b1")
    assert run("enter", tid, "1", "1", "1", "1-0", who=("--terminal", "t2")) == (0, f"already recorded: {tid}/r1/t1/b1")
    code, out = run("enter", tid, "1", "1", "5", "1-0")
    assert code == 2 and "R-D1 boards 1..4" in out
    code, out = run("enter", tid, "1", "1", "1", "0-1")
    assert code == 2 and "one result per board; changes go through a correction" in out
    code, out = run("enter", f"nosuch-{tid}", "1", "1", "1", "1-0")
    assert code == 2 and "tournament exists" in out
    code, out = run("correct", tid, "1", "1", "1", "0-1", "--reason", "scoresheet")
    assert code == 2 and "the chief arbiter's command" in out  # a terminal may not correct
    code, out = run("correct", tid, "1", "1", "1", "0-1", "--reason", "scoresheet", who=("--as", "chief"))
    assert (code, out) == (0, f"recorded: {tid}/r1/t1/b1/correction/1")


def test_publishing_a_tournament_again_ends(live: Any, samarkand: list[Any], embedded: dict[int, str]) -> None:
    """A restarted worker republishes its standings with their log position, and a tournament the
    pipeline already holds, published again, ends at once: every event is a duplicate, and the
    standings found include them all."""
    pipeline, _, _ = live
    after_restart = Follower(pipeline.bootstrap, pipeline.topic_prefix, from_end=True)
    pipeline.stop("projections")
    pipeline.start("projections")
    after_restart.wait(lambda: after_restart.latest(TID, 11) is not None, 60, "the restarted worker's standings")
    republished = after_restart.latest(TID, 11)
    after_restart.close()
    assert republished.partition == topics.partition_for(TID.encode(), topics.TOURNAMENT_LOG.partitions)
    assert republished.offset >= len(samarkand)  # everything before it is included
    assert republished.body["digest"] == embedded[11]
    again = publish(samarkand, bootstrap=pipeline.bootstrap, topic_prefix=pipeline.topic_prefix, timeout=120)
    again.close()
    assert not [k for k in again.refused if k.startswith(TID)]  # (other tests' bad events are on dead-letters too)
    assert again.latest(TID, 11).body["digest"] == embedded[11]
