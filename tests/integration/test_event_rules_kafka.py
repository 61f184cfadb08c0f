"""Issue 25 on a real broker, with the processors as ``olympiad live`` runs them.

One write path: the Kafka input topics carry commands only. For each rule that lived only in a
handler (a forfeit says why; who may import; pair a round once the previous one is complete; the
absolute pairing rules broken only with a reason; a closed round holds its standings' digest),
and for an event whose id is not the id of what it says, the raw event on an input topic is a
dead letter naming the commands-only rule, and the same fact inside an ``ImportFacts`` is
refused naming its own field and rule; the board the squatting fact named stays free.

Decide once, evolve always: an old log held in the judge's store is rebuilt by the restarted
processors under a tightened rule with its standings unchanged, and the projection worker
projecting the same log from ``tournament-log`` publishes the same digest.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaProducer

from deploy import topics
from olympiad.cmd_live import LivePipeline
from processors import rules
from processors.judge import COMMANDS_ONLY
from processors.rules import check_event
from processors.tournament import RuleViolation
from projections.eventlog import read_log
from projections.replay import replay
from projections.worker import Worker, caught_up
from schemas import event_ids
from schemas.canonical import canonical_json
from schemas.events import MatchForfeited, RoundClosed
from tests.factories import TID, board, four_team_round_one, paired
from tests.integration.test_processors_poison import read_all, wait_for
from tests.kafka_messages import import_body, imported

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "club-league-2026.events.jsonl.gz"
FIXTURE_TID = "club-league-2026"
DIGEST_AFTER_11 = "fd7ac607982b1ba4dafcf96031e7998f9babbd368d054d4472def468a20c5e2b"
TIGHTENED = 15  # characters a forfeit's note needs: the fixture's match forfeit ("did not arrive", 14) had fewer


def _processors_only(kafka_bootstrap: str, topic_prefix: str, tmp_path: Any) -> LivePipeline:
    pipeline = LivePipeline(kafka_bootstrap, topic_prefix, f"sqlite:///{tmp_path / 'worker.sqlite'}")
    pipeline.bootstrap = kafka_bootstrap
    pipeline.logdir.mkdir(parents=True, exist_ok=True)
    return pipeline


def test_every_rule_of_a_handler_holds_on_the_input_topics(kafka_bootstrap: str, topic_prefix: str, tmp_path: Any) -> None:
    pipeline = _processors_only(kafka_bootstrap, topic_prefix, tmp_path)
    pipeline.start("processors")
    log_topic = topics.name(topics.TOURNAMENT_LOG, topic_prefix)
    imports = topics.name(topics.TOURNAMENT_EVENTS, topic_prefix)  # ImportFacts' topic (topics.command_topic)
    terminals = topics.name(topics.BOARD_RESULTS, topic_prefix)
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all")

    def send(topic: str, value: bytes) -> None:
        producer.send(topic, key=TID.encode(), value=value)
        producer.flush()

    def accepted() -> dict[str, dict]:
        return {(e := json.loads(r.value))["event_id"]: e for r in read_all(kafka_bootstrap, log_topic, topics.TOURNAMENT_LOG.partitions)}

    def verdicts() -> dict[str, dict]:
        return {(v := json.loads(r.value))["command_id"]: v for r in read_all(
            kafka_bootstrap, topics.name(topics.VERDICTS, topic_prefix), topics.VERDICTS.partitions)}

    def dead() -> list[tuple[dict, dict]]:
        """Every dead letter: (the refused message, its envelope)."""
        return [(json.loads(envelope["value"]), envelope) for r in read_all(
            kafka_bootstrap, topics.name(topics.DEAD_LETTERS, topic_prefix), 1) if (envelope := json.loads(r.value))]

    round_one = four_team_round_one()
    forfeit = MatchForfeited(event_id=event_ids.match_forfeit(TID, 1, 2), tournament_id=TID, round=1, table=2,
                             winner="B", forfeit="other")  # "other" and no note: it does not say why
    squat = board(1, 1, 1, "1-0", event_id=event_ids.board(TID, 1, 2, 1))  # table 1 said, table 2's id
    early = paired(2, [("A", "D"), ("B", "C")])  # round 1 has no result yet
    rematch = paired(2, [("A", "C"), ("D", "B")])  # round 1's pairs again, no override reason
    closed = RoundClosed(event_id=event_ids.closed(TID, 1), tournament_id=TID, round=1, digest="0" * 64)
    by_terminal = import_body(board(1, 1, 2, "0-1"), command_id="by-terminal")
    by_terminal["actor"] = {"role": "terminal", "id": "terminal-1", "table": 1}
    try:
        send(imports, imported(*round_one[:6], command_id="registration"))  # created, four teams, round 1 pairing
        wait_for("the pairing", lambda: event_ids.pairing(TID, 1) in accepted())
        for name, fact in (("squat", squat), ("forfeit", forfeit), ("early", early)):
            send(terminals if fact.type in topics.BOARD_LEVEL else imports, canonical_json(fact).encode())  # raw
            send(imports, imported(fact, command_id=name))
        send(imports, canonical_json(by_terminal).encode())
        send(imports, imported(board(1, 2, 1, "1/2-1/2"), command_id="own-result"))  # table 2 board 1's own result
        wait_for("the first verdicts", lambda: {"squat", "forfeit", "early", "by-terminal", "own-result"} <= set(verdicts()))
        send(imports, imported(*round_one[6:], command_id="round-1"))
        wait_for("round 1's results", lambda: verdicts().get("round-1", {}).get("accepted"))
        for name, fact in (("rematch", rematch), ("closed", closed)):
            send(imports, canonical_json(fact).encode())  # raw
            send(imports, imported(fact, command_id=name))
        told = wait_for("the last verdicts", lambda: v if {"rematch", "closed"} <= set(v := verdicts()) else None)
        letters = wait_for("eleven dead letters", lambda: d if len(d := dead()) >= 11 else None)
        log = accepted()
        pipeline.check()
    finally:
        producer.close()
        for name in list(pipeline.children):
            pipeline.stop(name)

    # Every raw event: a dead letter naming the commands-only rule, whatever its type.
    raw = sorted((value["event_id"], value["type"], d["field"], d["rule"]) for value, d in letters if "command" not in value)
    assert raw == sorted((e.event_id, e.type, "command", COMMANDS_ONLY) for e in (squat, forfeit, early, rematch, closed))
    by_command = {value["command_id"]: d for value, d in letters if "command" in value}
    # The same fact inside an ImportFacts: refused by its own rule, on verdicts and dead-letters alike.
    expected = {
        "squat": ("event_id", "an event's id is derived from its content"),
        "forfeit": ("note", "a forfeit says why"),
        "early": ("round", "pair a round when the previous round is complete"),
        "by-terminal": ("actor", "ImportFacts by chief or importer"),
        "rematch": ("note", "an absolute pairing rule is broken only with a reason"),
        "closed": ("digest", "a closed round holds its standings' digest"),
    }
    assert {k: (told[k]["accepted"], told[k]["field"], told[k]["rule"]) for k in expected} == {
        k: (False, *v) for k, v in expected.items()}
    assert {k: (d["field"], d["rule"]) for k, d in by_command.items()} == expected
    assert "A v C: they met in round 1" in told["rematch"]["reason"]
    assert "terminal 'terminal-1' may not ImportFacts" in told["by-terminal"]["reason"]
    # None of them entered the log; the board the squat named took its own result.
    assert told["own-result"]["accepted"] and told["round-1"]["accepted"]
    assert log[event_ids.board(TID, 1, 2, 1)]["table"] == 2 and log[event_ids.board(TID, 1, 2, 1)]["result"] == "1/2-1/2"
    assert log[event_ids.board(TID, 1, 2, 1)]["actor"] == "test-importer"  # the importing actor, in the audit trail
    assert event_ids.pairing(TID, 2) not in log and event_ids.closed(TID, 1) not in log
    assert event_ids.match_forfeit(TID, 1, 2) not in log and log[event_ids.board(TID, 1, 1, 2)]["result"] == "0-1"


def test_an_old_log_is_replayed_not_judged_again_by_the_processors_and_the_worker(
        kafka_bootstrap: str, topic_prefix: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Decide once: the fixture log (written by an older build) under a tightened rule that its
    match forfeit breaks. The judge's store holds it as entries; the processors, restarted with
    the rule tightened, rebuild the state by replay only and close round 11 with the log's digest;
    the worker projecting the log from tournament-log publishes the same digest."""
    events = read_log(FIXTURE)
    assert events[-1].event_id == event_ids.closed(FIXTURE_TID, 11) and events[-1].digest == DIGEST_AFTER_11
    monkeypatch.setattr(rules, "FORFEIT_NOTE_MIN", TIGHTENED)
    at = next(i for i, e in enumerate(events) if e.type == "MatchForfeited")
    with pytest.raises(RuleViolation) as refused:  # judged now, the forfeit would be refused: the rule bites
        check_event(replay(events[:at]).state, events[at])
    assert (refused.value.field, refused.value.rule) == ("note", "a forfeit says why")

    # The judge's store (the faust table's changelog) as an older build left it: every event but the
    # round-11 close, which the restarted processors are asked to decide; the log on tournament-log.
    bodies = [canonical_json(e) for e in events]
    app_id = f"{topic_prefix}olympiad-processors"
    changelog = f"{app_id}-judged-changelog"
    admin = topics.admin_client(kafka_bootstrap)
    try:
        admin.create_topics([_compacted(changelog)])
    finally:
        admin.close()
    partition = topics.partition_for(FIXTURE_TID.encode(), topics.TOURNAMENT_EVENTS.partitions)
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all", max_request_size=2 * 1024 * 1024)
    for seq, start in enumerate(range(0, len(bodies) - 1, 200)):
        entry = "[" + ",".join(bodies[start:min(start + 200, len(bodies) - 1)]) + "]"
        producer.send(changelog, key=json.dumps(f"{FIXTURE_TID}/{seq}").encode(), value=json.dumps(entry).encode(),
                      partition=partition)
    log_topic = topics.name(topics.TOURNAMENT_LOG, topic_prefix)
    for body in bodies:
        producer.send(log_topic, key=FIXTURE_TID.encode(), value=body.encode())
    producer.flush()

    pipeline = _processors_only(kafka_bootstrap, topic_prefix, tmp_path)
    faust = ("import sys; from processors import rules; rules.FORFEIT_NOTE_MIN = %d; from faust.cli.faust import cli; "
             "sys.argv = ['faust', '-A', 'processors.app', 'worker', '-l', 'info', '--without-web']; sys.exit(cli())" % TIGHTENED)
    plain = pipeline.command
    pipeline.command = lambda name: [sys.executable, "-c", faust] if name == "processors" else plain(name)
    pipeline.start("processors")
    close = {"command": "CloseRound", "tournament_id": FIXTURE_TID, "actor": {"role": "chief", "id": "chief"}, "round": 11,
             "command_id": "close-11"}
    verdicts = topics.name(topics.VERDICTS, topic_prefix)
    try:
        producer.send(topics.name(topics.TOURNAMENT_EVENTS, topic_prefix), key=FIXTURE_TID.encode(),
                      value=json.dumps(close).encode())
        producer.flush()
        verdict = wait_for("the verdict on closing round 11", lambda: next(
            (v for r in read_all(kafka_bootstrap, verdicts, topics.VERDICTS.partitions)
             if (v := json.loads(r.value))["command_id"] == "close-11"), None))
        pipeline.check()
    finally:
        producer.close()
        for name in list(pipeline.children):
            pipeline.stop(name)
    assert verdict["accepted"] and not verdict["already_recorded"], verdict
    logged = [json.loads(r.value) for r in read_all(kafka_bootstrap, log_topic, topics.TOURNAMENT_LOG.partitions)]
    decided = [e for e in logged if e["event_id"] == event_ids.closed(FIXTURE_TID, 11)]
    # the old log's, the one decided now (and a copy, should the processors have judged the command twice)
    assert len(decided) >= 2 and {e["digest"] for e in decided} == {DIGEST_AFTER_11}

    # The worker, in this process with the rule tightened, projects tournament-log and publishes.
    url = f"sqlite:///{tmp_path / 'projection.sqlite'}"
    worker = Worker(url, kafka_bootstrap, topic_prefix)
    try:
        while not caught_up(url, kafka_bootstrap, topic_prefix):
            if records := worker.poll():
                worker.publish(worker.projector.apply_batch(records))
    finally:
        worker.consumer.close()
        worker.producer.close()
    standings = [json.loads(r.value) for r in read_all(kafka_bootstrap, topics.name(topics.STANDINGS, topic_prefix),
                                                        topics.STANDINGS.partitions)]
    after_11 = [s for s in standings if s["tournament_id"] == FIXTURE_TID and s["round"] == 11]
    assert after_11 and after_11[-1]["digest"] == DIGEST_AFTER_11 and after_11[-1]["complete"]


def _compacted(name: str) -> Any:
    """The ``NewTopic`` of the faust table's changelog as faust makes it: compacted, one partition per table partition."""
    from kafka.admin import NewTopic

    return NewTopic(name, num_partitions=topics.TOURNAMENT_EVENTS.partitions, replication_factor=1,
                    topic_configs={"cleanup.policy": "compact"})


def test_a_round_closed_through_the_web_on_kafka_is_signed_and_audited(kafka_bootstrap: str, topic_prefix: str,
                                                                       tmp_path: Any, monkeypatch: Any) -> None:
    """Issue 25: every door that closes a round signs it, the web app on the live pipeline too
    (``KafkaBackend.log_head`` reads ``tournament-log`` as ``round close --kafka`` does), in the
    same decision as the close (issue 27); the audit pinned to the key verifies it."""
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
    pipeline = _processors_only(kafka_bootstrap, topic_prefix, tmp_path)
    pipeline.start("processors")
    producer = KafkaProducer(bootstrap_servers=kafka_bootstrap, acks="all")
    log_topic = topics.name(topics.TOURNAMENT_LOG, topic_prefix)
    try:
        producer.send(topics.name(topics.TOURNAMENT_EVENTS, topic_prefix), key=TID.encode(), value=imported(*events))
        producer.flush()
        wait_for("round 1", lambda: len(read_all(kafka_bootstrap, log_topic, topics.TOURNAMENT_LOG.partitions)) >= len(events))
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
        audited = CliRunner().invoke(cli, ["audit", f"kafka://{kafka_bootstrap}/{TID}", "--no-trail", "--key",
                                           public_hex(load_or_create_key(key_file))], env={"COLUMNS": "300"})
        out = " ".join(audited.output.split())
        assert audited.exit_code == 0 and "audit: everything agrees, anchored to the pinned key" in out, out
        assert "rounds 1-1 reproduced, 1 signed checkpoint(s)" in out
        # The first line: what the log was compared with (the chain headers, the pinned key); then round 1.
        key = public_hex(load_or_create_key(key_file))
        assert re.match(rf"{TID}: log compared with the chain hashes stored with \d+ record\(s\), the pinned key {key[:12]}\.\.\. "
                        r"round 1 reproduced ", out), out
        pipeline.check()
    finally:
        producer.close()
        for name in list(pipeline.children):
            pipeline.stop(name)
