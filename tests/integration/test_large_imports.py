"""Issue 26, acceptance 5: a 300-team import through each door (the CLI on the embedded store, the
HTTP API's commands, the arbiter page's file import, Kafka on a real broker) registers the same
teams; an import larger than one message (``schemas.limits.MAX_MESSAGE_BYTES``) goes through the
HTTP and Kafka doors in parts. The teams are generated (``tests.generated_teams``): names in eight
scripts, FIDE federations, ratings, titles. Before: over Kafka ~130 teams fit a command (the
Samarkand Open's 206 were dead-lettered, the CLI said "are the processors running?"), the page's
import answered 413 past ~160 teams, and one import took 1,000 teams at most."""
from __future__ import annotations

import signal
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import olympiad.cmd_arbiter
import olympiad.doors
from olympiad.cli import app as cli
from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.commands_api import NEW_EVENT
from olympiad.web.embedded import EmbeddedBackend, store_engine
from olympiad.web.http_door import HttpDoor
from processors.deciders.teams import REGISTRATION_RULE
from projections.store import EventStore
from schemas import limits
from schemas.canonical import canonical_json
from schemas.commands import import_batches, parse_command
from tests.generated_teams import team_csv, team_entries

TID = "import-open"
CLOCK = "2026-10-01T09:00:00+00:00"
TOKEN = "imports-chief-3e9b6a1f0c2d7584"
TEAMS = team_entries(300, 26)
MANY = team_entries(1600, 7)  # ~1.0 MB as one command: two parts


def _registrations(events: Any) -> list[str]:
    """The teams as registered: each ``TeamRegistered`` less when and by whom."""
    return [canonical_json(e.model_copy(update={"occurred_at": None, "actor": None})) for e in events
            if e.type == "TeamRegistered"]


def _embedded(tmp_path: Any, teams: list) -> list[str]:
    """The reference: ``olympiad team import`` of ``teams``' CSV on the embedded store."""
    db = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    (tmp_path / "teams.csv").write_text(team_csv(teams), encoding="utf-8")
    env = {"OLYMPIAD_DB": db, "OLYMPIAD_CLOCK": CLOCK}
    runner = CliRunner()
    assert runner.invoke(cli, ["new", TID, "--name", "Import Open", "--no-key"], env=env).exit_code == 0
    result = runner.invoke(cli, ["team", "import", TID, str(tmp_path / "teams.csv")], env=env)
    assert result.exit_code == 0, result.output
    registered = _registrations(EventStore(db).events())
    assert len(registered) == len(teams)
    return registered


def _import_command(teams: list) -> Any:
    return parse_command({"command": "ImportTeams", "tournament_id": TID, "actor": {"role": "chief", "id": "chief"},
                          "issued_at": CLOCK, "teams": teams})


def test_300_teams_through_the_http_api_and_the_arbiter_pages_import(tmp_path: Any, monkeypatch: Any) -> None:
    expected = _embedded(tmp_path, TEAMS)
    monkeypatch.setenv("OLYMPIAD_CLOCK", CLOCK)
    for door in ("commands", "page"):
        engine = store_engine(f"sqlite:///{tmp_path / f'{door}.sqlite'}")
        tokens = TokenStore(engine)
        tokens.set_chief_token(NEW_EVENT, TOKEN)
        with TestClient(create_app(EmbeddedBackend(EventStore(engine=engine)), tokens)) as client:
            chief = {"Authorization": f"Bearer {TOKEN}"}
            assert client.post("/api/tournaments", json={"command": "CreateTournament", "tournament_id": TID,
                                                         "name": "Import Open", "profile": "olympiad-2022"},
                               headers=chief).status_code == 201
            if door == "commands":  # the HTTP door: the CLI's command line posted to /commands
                http = HttpDoor(client, TOKEN)
                monkeypatch.setattr(olympiad.doors, "door", lambda db, kafka: http)
                monkeypatch.setattr(olympiad.cmd_arbiter, "embedded_state", lambda db, kafka: None)
                result = CliRunner().invoke(cli, ["team", "import", TID, str(tmp_path / "teams.csv")])
                assert result.exit_code == 0, result.output
            else:  # the arbiter page posts the file's text
                text = team_csv(TEAMS)
                assert len(text.encode()) > 64 * 1024
                answer = client.post(f"/api/tournaments/{TID}/teams/import", json={"text": text, "filename": "teams.csv"},
                                     headers=chief)
                assert answer.status_code == 201, answer.json()
                assert len(answer.json()["event_ids"]) == 300
        assert _registrations(EventStore(engine=engine).events()) == expected, door


def test_an_import_larger_than_a_message_goes_through_the_http_door_in_parts(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("OLYMPIAD_CLOCK", CLOCK)
    command = _import_command(MANY)
    assert len(import_batches(command)) == 2
    engine = store_engine(f"sqlite:///{tmp_path / 'parts.sqlite'}")
    tokens = TokenStore(engine)
    tokens.set_chief_token(NEW_EVENT, TOKEN)
    store = EventStore(engine=engine)
    with TestClient(create_app(EmbeddedBackend(store), tokens)) as client:
        whole = client.post(f"/api/tournaments/{TID}/commands", content=canonical_json(command).encode(),
                            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        assert whole.status_code == 413 and whole.json()["detail"].endswith(f"at most {limits.MAX_MESSAGE_BYTES}")
        http = HttpDoor(client, TOKEN)
        assert http.submit(parse_command({"command": "CreateTournament", "tournament_id": TID, "name": "Import Open",
                                          "profile": "olympiad-2022", "actor": {"role": "chief", "id": "chief"}})).accepted
        out = http.submit(command)
        assert out.accepted and len(out.event_ids) == 1600
        assert list(store.refresh().teams) == [t["team_id"] for t in MANY]
        again = http.submit(command)  # an identical import: every part already recorded
        assert again.accepted and again.already_recorded and len(again.event_ids) == 1600
        # More than 1,000 teams ranked (before: a traceback, HTTP 500): pairing numbers 1..1600.
        ranks = client.post(f"/api/tournaments/{TID}/commands", json={"command": "SetStartingRanks"},
                            headers={"Authorization": f"Bearer {TOKEN}"})
        assert ranks.status_code == 201, ranks.json()
        assert sorted(store.refresh().starting_ranks) == sorted(t["team_id"] for t in MANY)


@pytest.mark.integration
def test_300_teams_and_an_import_in_parts_through_kafka(kafka_bootstrap: str, fresh_database: Any, tmp_path: Any) -> None:
    from olympiad.cmd_live import LivePipeline
    from producers.doors import KafkaDoor

    expected = _embedded(tmp_path, TEAMS)
    prefix = f"t{uuid.uuid4().hex[:10]}."
    env = {"OLYMPIAD_CLOCK": CLOCK, "OLYMPIAD_TOPIC_PREFIX": prefix, "OLYMPIAD_WAIT": "60"}
    runner = CliRunner()
    with LivePipeline(kafka_bootstrap, prefix, fresh_database()) as pipeline:
        for line in (["new", TID, "--name", "Import Open", "--no-key"], ["team", "import", TID, str(tmp_path / "teams.csv")]):
            result = runner.invoke(cli, [*line, "--kafka", kafka_bootstrap], env=env)
            assert result.exit_code == 0, (line, result.output)
        assert " ".join(result.output.split()) == f"recorded: 300 events, {TID}/team/{TEAMS[0]['team_id']} ... " \
                                                  f"{TID}/team/{TEAMS[-1]['team_id']}"
        door = KafkaDoor(kafka_bootstrap, prefix, wait=60)
        try:
            state, _ = door.log(TID, f"{TID}/team/{TEAMS[-1]['team_id']}")
            assert _registrations(state.teams.values()) == expected
            # 1,600 more teams: one command of ~1.0 MB, sent as two, each decided by the processors.
            more = [{**t, "team_id": f"M{i}"} for i, t in enumerate(MANY)]
            out = door.submit(_import_command(more))
            assert out.accepted, out.reason
            assert len(out.event_ids) == 1600 and out.event_ids[-1] == f"{TID}/team/M1599"
            state, _ = door.log(TID, out.event_ids[-1])
            assert len(state.teams) == 1900
            # Restarted, the processors rebuild the tournament from their store, whose entries (one
            # changelog record each) held the 1,600 registrations in more than one record.
            pipeline.stop("processors", signal.SIGKILL)
            pipeline.start("processors")
            out = door.submit(_import_command([{**more[-1], "name": "Another name"}]))
            assert (out.accepted, out.field) == (False, "teams.0.name")
            assert out.reason == (f"teams.0.name: team 'M1599' is registered with name {more[-1]['name']!r}; this entry "
                                  f"gives 'Another name' [rule: {REGISTRATION_RULE}]")
            pipeline.check()
        finally:
            door.close()
