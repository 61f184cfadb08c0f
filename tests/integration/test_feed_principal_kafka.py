"""Issue 29 on a broker with authentication (SASL/SCRAM, topic ACLs: ``KAFKA_AUTH=scram
deploy/kafka.sh``): ``olympiad feed --kafka`` runs as the principal ``feed-<id>``. Its games
become events with the actor ``feed-<id>``, its problem's dead letter reaches ``dead-letters``,
and the broker lets it do nothing else: no other commands topic, no shared input topic, no read
of the tournament's log or standings (``deploy.principals.acls_of``)."""
from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.errors import TopicAuthorizationFailedError
from typer.testing import CliRunner

from deploy import principals, topics
from deploy.kafka_security import client_config
from olympiad.cli import app
from olympiad.cmd_live import LivePipeline
from producers.doors import KafkaDoor
from schemas.commands import parse_command

pytestmark = pytest.mark.integration

TID = "feed-cup"
CLOCK = "2026-12-05T10:00:00+00:00"
WAIT = 60.0
FEED = "feed-live"


def _chief(kind: str, **fields: Any) -> Any:
    return parse_command({"command": kind, "tournament_id": TID, "actor": {"role": "chief", "id": "chief"},
                          "issued_at": CLOCK, **fields})


def _teams() -> list[dict[str, Any]]:
    return [{"team_id": f"C{t}", "name": f"Club {t}", "federation": "UZB",
             "players": [{"board_order": b, "name": f"Player {t}.{b}", "rating": 2400 - 40 * t - 10 * b} for b in range(1, 6)]}
            for t in range(1, 5)]


def _pgn(white: str, black: str, result: str) -> str:
    return (f'[Round "1"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {result}\n")


def _read(bootstrap: str, principal: str, spec: Any, prefix: str, count: int = 1, wait: float = WAIT) -> list[dict[str, Any]]:
    """The first ``count`` records of ``spec``'s topic read as ``principal`` (waited for up to ``WAIT`` s)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False, **client_config(principal))
    tps = [TopicPartition(topics.name(spec, prefix), p) for p in range(spec.partitions)]
    try:
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        found: list[dict[str, Any]] = []
        deadline = time.monotonic() + wait
        while len(found) < count and time.monotonic() < deadline:
            for records in consumer.poll(timeout_ms=500).values():
                found += [json.loads(rec.value) for rec in records]
        return found
    finally:
        consumer.close()


def _end_offsets(bootstrap: str, principal: str, spec: Any, prefix: str) -> list[int]:
    """The end offsets of ``spec``'s partitions as ``principal`` asks them (a read the ACLs judge)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False, **client_config(principal))
    try:
        tps = [TopicPartition(topics.name(spec, prefix), p) for p in range(spec.partitions)]
        return [consumer.end_offsets(tps)[tp] for tp in tps]
    finally:
        consumer.close()


def _raw_send(bootstrap: str, principal: str, topic: str) -> Any:
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", max_block_ms=4000, **client_config(principal))
    try:
        return producer.send(topic, key=TID.encode(), value=b"{}").get(timeout=15)
    finally:
        producer.close(timeout=2)


def test_a_feeds_principal_sends_games_and_dead_letters_and_nothing_else(
        kafka_authenticated: tuple[str, Path], fresh_database: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bootstrap, credentials = kafka_authenticated
    monkeypatch.setenv("KAFKA_CREDENTIALS", str(credentials))
    for name in ("KAFKA_SASL_USERNAME", "KAFKA_SASL_PASSWORD", "KAFKA_SASL_PASSWORD_FILE"):
        monkeypatch.delenv(name, raising=False)
    prefix = f"t{uuid.uuid4().hex[:10]}."
    # made before the processors start: they read the commands topics that exist then
    assert principals.add([FEED], bootstrap, prefix, username="admin") == [
        f"{FEED}: writes {prefix}commands.{FEED}, {prefix}dead-letters"]

    with LivePipeline(bootstrap, prefix, fresh_database(), credentials=str(credentials)) as pipeline:
        chief = KafkaDoor(bootstrap, prefix, wait=WAIT, principal="chief")
        try:
            for command in (_chief("CreateTournament", name="Feed Cup", profile="olympiad-2022", rounds=3),
                            _chief("ImportTeams", teams=_teams()), _chief("SetStartingRanks"), _chief("PairRound", round=1),
                            _chief("PublishRound", round=1)):
                outcome = chief.submit(command)
                assert outcome.accepted, outcome.text()
            state, _ = chief.log(TID, outcome.event_ids[-1], timeout=WAIT)
            table = state.rounds[1].tables[0]
            home, away = int(table.home[1:]), int(table.away[1:])
            folder = tmp_path / "feed"
            folder.mkdir()
            (folder / "round-1.pgn").write_text(_pgn(f"Player {home}.1", f"Player {away}.1", "1-0")
                                                + "\n" + _pgn("Stranger, A", "Nobody, B", "*"), encoding="utf-8")

            env = {"OLYMPIAD_TOPIC_PREFIX": prefix, "OLYMPIAD_WAIT": str(WAIT), "OLYMPIAD_CLOCK": CLOCK,
                   "KAFKA_CREDENTIALS": str(credentials), "KAFKA_SASL_USERNAME": FEED}
            argv = ["feed", str(folder), "--tournament", TID, "--kafka", bootstrap, "--polls", "1", "--id", "live"]
            cli = CliRunner().invoke(app, argv, env=env)
            assert cli.exit_code == 0, cli.output
            assert "2 games" in cli.output and "1 ended" in cli.output, cli.output

            ended = f"{TID}/r1/t{table.table}/b1/game/end/1-0/6"
            chief.log(TID, ended, timeout=WAIT)
            state, _, _ = chief.log_head(TID)  # through the feed's problem too (sent after the ended game)
            assert state.applied[ended].actor == FEED  # the principal's actor, whatever the message said
            assert state.feed.games[(1, table.table, 1)].reported == "1-0"
            [problem] = state.feed.problems.values()
            assert (problem.kind, problem.actor) == ("unmapped-game", FEED)
            [letter] = [d for d in _read(bootstrap, "chief", topics.DEAD_LETTERS, prefix) if d["topic"] == "feed"]
            assert letter["source"] == str(folder) and "Stranger, A" in letter["value"], letter
            pipeline.check()
        finally:
            chief.close()

    # the broker refuses the feed every other topic
    for topic in (topics.principal_topic("chief", prefix), topics.name(topics.BOARD_RESULTS, prefix),
                  topics.name(topics.TOURNAMENT_EVENTS, prefix), topics.name(topics.TOURNAMENT_LOG, prefix)):
        with pytest.raises(TopicAuthorizationFailedError):
            _raw_send(bootstrap, FEED, topic)
    for spec in (topics.TOURNAMENT_LOG, topics.STANDINGS):  # not even described
        with pytest.raises(TopicAuthorizationFailedError):
            _end_offsets(bootstrap, FEED, spec, prefix)
    with pytest.raises(TopicAuthorizationFailedError):  # written, described (WRITE implies DESCRIBE), never read
        _read(bootstrap, FEED, topics.DEAD_LETTERS, prefix, wait=10)
    assert sum(_end_offsets(bootstrap, FEED, topics.VERDICTS, prefix)) >= 2  # its verdicts it may read
