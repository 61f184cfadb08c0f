"""Issue 25, who may write on Kafka: on a real broker with authentication on (SASL/SCRAM, topic
ACLs: ``KAFKA_AUTH=scram deploy/kafka.sh``) a command's actor is its producer's principal, never
the message's word. A forged chief arbiter is refused (by the broker's ACLs, or by the processors,
which give the command its principal's actor); the same correction is accepted from the chief's
principal."""
from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import KafkaTimeoutError, TopicAuthorizationFailedError
from typer.testing import CliRunner

from deploy import principals, topics
from deploy.kafka_security import client_config
from olympiad.cli import app
from olympiad.cmd_live import LivePipeline
from producers.doors import KafkaDoor
from schemas.canonical import canonical_json
from schemas.commands import parse_command

pytestmark = pytest.mark.integration

TID = "auth-cup"
CLOCK = "2026-12-05T10:00:00+00:00"
CHIEF_AS_CLAIMED = {"role": "chief", "id": "chief"}
WAIT = 60.0


def _command(kind: str, **fields: Any) -> Any:
    """A command as any producer could write it: the actor it names is the chief arbiter's."""
    return parse_command({"command": kind, "tournament_id": TID, "actor": CHIEF_AS_CLAIMED, "issued_at": CLOCK, **fields})


def _teams() -> list[dict[str, Any]]:
    return [{"team_id": f"C{t}", "name": f"Club {t}", "federation": "UZB",
             "players": [{"board_order": b, "name": f"Player {t}.{b}", "rating": 2400 - 40 * t - 10 * b} for b in range(1, 6)]}
            for t in range(1, 5)]


def _log(bootstrap: str, prefix: str) -> dict[str, dict[str, Any]]:
    """The events on ``tournament-log`` (read as the chief arbiter), by event id."""
    name = topics.name(topics.TOURNAMENT_LOG, prefix)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False, **client_config("chief"))
    tps = [TopicPartition(name, p) for p in range(topics.TOURNAMENT_LOG.partitions)]
    consumer.assign(tps)
    consumer.seek_to_beginning(*tps)
    ends = consumer.end_offsets(tps)
    events: dict[str, dict[str, Any]] = {}
    while any(consumer.position(tp) < ends[tp] for tp in tps):
        for records in consumer.poll(timeout_ms=1000).values():
            for rec in records:
                body = json.loads(rec.value)
                events.setdefault(body["event_id"], body)
    consumer.close()
    return events


def _dead_letters(bootstrap: str, prefix: str, count: int) -> list[dict[str, Any]]:
    """The first ``count`` envelopes on ``dead-letters`` (waited for up to ``WAIT`` s)."""
    name = topics.name(topics.DEAD_LETTERS, prefix)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False, **client_config("chief"))
    tp = TopicPartition(name, 0)
    consumer.assign([tp])
    consumer.seek_to_beginning(tp)
    found: list[dict[str, Any]] = []
    deadline = time.monotonic() + WAIT
    while len(found) < count and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            found += [json.loads(rec.value) for rec in records]
    consumer.close()
    return found


def _raw_send(bootstrap: str, principal: str | None, topic: str, value: str) -> Any:
    """Write one message keyed by the tournament as ``principal`` (None: without authentication);
    returns the record's metadata, or raises what the broker answered."""
    auth = client_config(principal) if principal else {}
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", max_block_ms=4000, **auth)
    try:
        return producer.send(topic, key=TID.encode(), value=value.encode()).get(timeout=15)
    finally:
        producer.close(timeout=2)


def test_a_forged_chief_arbiter_is_refused_and_the_chiefs_principal_is_accepted(
        kafka_authenticated: tuple[str, Path], fresh_database: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    bootstrap, credentials = kafka_authenticated
    monkeypatch.setenv("KAFKA_CREDENTIALS", str(credentials))
    for name in ("KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD", "KAFKA_SASL_PASSWORD_FILE"):
        monkeypatch.delenv(name, raising=False)
    prefix = f"t{uuid.uuid4().hex[:10]}."
    # The terminal of table 1 and the captain of C2: principals made before the processors start
    # (they read the commands topics that exist then).
    lines = principals.add(["terminal-1", "captain-C2"], bootstrap, prefix, username="admin")
    assert lines == [f"terminal-1: writes {prefix}commands.terminal-1", f"captain-C2: writes {prefix}commands.captain-C2"]

    cli_env = {"OLYMPIAD_TOPIC_PREFIX": prefix, "OLYMPIAD_WAIT": str(WAIT), "OLYMPIAD_CLOCK": CLOCK,
               "KAFKA_CREDENTIALS": str(credentials)}
    with LivePipeline(bootstrap, prefix, fresh_database(), credentials=str(credentials)) as pipeline:
        chief = KafkaDoor(bootstrap, prefix, wait=WAIT, principal="chief")
        terminal = KafkaDoor(bootstrap, prefix, wait=WAIT, principal="terminal-1")
        captain = KafkaDoor(bootstrap, prefix, wait=WAIT, principal="captain-C2")
        try:
            for command in (_command("CreateTournament", name="Auth Cup", profile="olympiad-2022", rounds=3),
                            _command("ImportTeams", teams=_teams()), _command("SetStartingRanks"),
                            _command("PairRound", round=1), _command("PublishRound", round=1)):
                outcome = chief.submit(command)
                assert outcome.accepted, outcome.text()

            # The terminal claims to be the chief arbiter (the issue's `olympiad correct ... --kafka ...
            # --as chief`, and the same JSON through its door): its principal's actor is what counts.
            argv = ["correct", TID, "1", "1", "1", "0-1", "--reason", "forged", "--kafka", bootstrap, "--as", "chief"]
            cli = CliRunner().invoke(app, argv, env={**cli_env, "KAFKA_SASL_USERNAME": "terminal-1"})
            refusal = ("refused: actor: terminal 'terminal-1' may not CorrectResult: only the chief arbiter may "
                       "[rule: the chief arbiter's command]")
            assert cli.exit_code == 2 and " ".join(cli.output.split()) == refusal, cli.output
            correction = _command("CorrectResult", round=1, table=1, board=1, result="0-1", reason="forged")
            assert terminal.submit(correction).text() == refusal
            assert captain.submit(_command("WithdrawTeam", team_id="C1", reason="forged")).text() == (
                "refused: actor: captain 'captain-C2' may not WithdrawTeam: only the chief arbiter may [rule: the chief arbiter's command]")
            # Its own table's result is accepted, recorded as the terminal's; another table's is not.
            entered = terminal.submit(_command("RecordResult", round=1, table=1, board=1, result="1-0"))
            assert entered.accepted and entered.event_ids == (f"{TID}/r1/t1/b1",), entered.text()
            other = terminal.submit(_command("RecordResult", round=1, table=2, board=1, result="1-0"))
            assert other.text() == ("refused: table: terminal 'terminal-1' enters the results of table 1, not table 2 "
                                    "[rule: a terminal enters its own table's results]"), other.text()

            # Past the processors: the broker's ACLs refuse the terminal the chief's topic and the
            # shared input topics, and an unauthenticated client gets no connection at all.
            body = canonical_json(correction.model_copy(update={"command_id": "forged-1"}))
            for topic in (topics.principal_topic("chief", prefix), topics.name(topics.BOARD_RESULTS, prefix),
                          topics.name(topics.TOURNAMENT_EVENTS, prefix)):
                with pytest.raises(TopicAuthorizationFailedError):
                    _raw_send(bootstrap, "terminal-1", topic, body)
            with pytest.raises(KafkaTimeoutError):
                _raw_send(bootstrap, None, topics.principal_topic("chief", prefix), body)
            # A command on a shared input topic (the chief may write there) names its actor in the
            # message only: refused; an event on a commands topic is no command (input topics carry commands): refused.
            _raw_send(bootstrap, "chief", topics.name(topics.BOARD_RESULTS, prefix), body)
            forged_event = {"type": "BoardResultCorrected", "schema_version": 2, "event_id": f"{TID}/r1/t1/b1/c9",
                            "tournament_id": TID, "occurred_at": CLOCK, "actor": "chief", "supersedes": f"{TID}/r1/t1/b1",
                            "round": 1, "table": 1, "board": 1, "result": "0-1", "reason": "forged"}
            _raw_send(bootstrap, "terminal-1", topics.principal_topic("terminal-1", prefix), json.dumps(forged_event))

            # The chief's principal: the same correction is accepted.
            argv = ["correct", TID, "1", "1", "1", "0-1", "--reason", "scoresheet signed 0-1", "--kafka", bootstrap]
            cli = CliRunner().invoke(app, argv, env={**cli_env, "KAFKA_SASL_USERNAME": "chief"})
            assert cli.exit_code == 0 and " ".join(cli.output.split()) == f"recorded: {TID}/r1/t1/b1/correction/1", cli.output
            letters = _dead_letters(bootstrap, prefix, 5)  # three refused commands, the two raw messages
            pipeline.check()
        finally:
            for door in (chief, terminal, captain):
                door.close()

    reasons = [(d["topic"].removeprefix(prefix), d["field"], d["rule"]) for d in letters]
    assert ("board-results", "actor", "the actor is the producer's authenticated principal") in reasons, reasons
    assert ("commands.terminal-1", "command", "input topics carry commands") in reasons, reasons
    shared = next(d for d in letters if d["topic"] == f"{prefix}board-results")
    assert shared["reason"] == ("actor: CorrectResult came on a shared input topic, where no principal vouches for its actor "
                                "chief 'chief'; commands travel on the producer's commands topic "
                                "[rule: the actor is the producer's authenticated principal]")
    events = _log(bootstrap, prefix)
    assert events[f"{TID}/r1/t1/b1"]["actor"] == "terminal-1"  # the principal's id, not the message's "chief"
    corrections = [e for e in events.values() if e["type"] == "BoardResultCorrected"]
    assert [(e["result"], e["actor"], e["reason"]) for e in corrections] == [("0-1", "chief", "scoresheet signed 0-1")]
