"""Issue 11, acceptance 2: the 31-team tournament's command sequence (``tests.tournament_script``)
sent through the HTTP API yields the same events, ids and content, and the same standings
digest as through the CLI on the embedded store.

The same CLI lines drive both: for the HTTP run ``olympiad.doors.door`` is an
``olympiad.web.http_door.HttpDoor`` posting each command to the app (FastAPI's TestClient over
a real SQLite event store); the server stamps ``issued_at`` from ``$OLYMPIAD_CLOCK``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

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
from projections.replay import replay
from projections.store import EventStore
from schemas.canonical import canonical_json
from tests import tournament_script as script
from tests.factories import imported


def test_the_command_sequence_through_http_yields_the_same_events_and_digest(tmp_path: Any, monkeypatch: Any) -> None:
    lines, store, _ = script.play_embedded(tmp_path)
    expected = [canonical_json(e) for e in store.events()]

    engine = store_engine(f"sqlite:///{tmp_path / 'http.sqlite'}")
    served = EventStore(engine=engine)
    tokens = TokenStore(engine)
    tokens.set_chief_token(NEW_EVENT, "setup-token-5b8e0f3a92c7d164")
    runner = CliRunner()
    with TestClient(create_app(EmbeddedBackend(served), tokens)) as client:
        door = HttpDoor(client, "setup-token-5b8e0f3a92c7d164")
        monkeypatch.setattr(olympiad.doors, "door", lambda db, kafka: door)
        monkeypatch.setattr(olympiad.cmd_arbiter, "embedded_state", lambda db, kafka: None)
        for line in lines:
            result = runner.invoke(cli, line, env={"OLYMPIAD_CLOCK": script.CLOCK})
            assert result.exit_code == 0, (line, result.output)
        final = client.get(f"/api/tournaments/{script.TID}/standings/11").json()
    got = [canonical_json(e) for e in EventStore(engine=engine).events()]
    assert len(got) == len(expected) > 800
    assert got == expected
    assert final["digest"] == store.state.closed[11] == replay(EventStore(engine=engine).events()).rounds[11].digest


def test_the_audit_trail_is_served_as_json_and_as_a_page(tmp_path: Any) -> None:
    """Issue 16: the audit trail on the web (``/api/tournaments/{tid}/audit-trail``, ``/audit``)."""
    from projections.eventlog import read_log

    log = Path(__file__).resolve().parents[1] / "data" / "club-league-2026.events.jsonl.gz"
    engine = store_engine(f"sqlite:///{tmp_path / 'trail.sqlite'}")
    imported(EventStore(engine=engine), read_log(log))
    with TestClient(create_app(EmbeddedBackend(EventStore(engine=engine)), TokenStore(engine))) as client:
        trail = client.get(f"/api/tournaments/{script.TID}/audit-trail").json()
        page = client.get("/audit")
    assert page.status_code == 200 and "audit.js" in page.text
    whats = [a["what"] for a in trail]
    assert "late correction: table 1 board 2 -> " + EventStore(engine=engine).state.results[(4, 1, 2)][1] in whats
    assert any(a["what"] == "T20 withdrawn from round 7" and a["reason"] == "the team left the event after round 6" for a in trail)
    assert sum(a["what"].endswith(" closed") for a in trail) == 11


def test_the_served_pages_read_what_the_cli_stores_beside_them(tmp_path: Any) -> None:
    """``olympiad serve --new`` and the arbiter's CLI commands share ``olympiad.sqlite``: a line-up
    the CLI stores while the server runs is on the arbiter page's next read (not only after the
    server's own next write)."""
    db = tmp_path / "club.sqlite"
    engine = store_engine(f"sqlite:///{db}")
    tokens = TokenStore(engine)
    tokens.set_chief_token(NEW_EVENT, "setup-token-5b8e0f3a92c7d164")
    chief = {"Authorization": "Bearer setup-token-5b8e0f3a92c7d164"}
    with TestClient(create_app(EmbeddedBackend(EventStore(engine=engine)), tokens)) as client:
        assert client.post("/api/tournaments", json={"command": "CreateTournament", "tournament_id": script.TID,
                                                     "name": "Club", "profile": "olympiad-2022"}, headers=chief).status_code == 201
        text = script.write_teams_csv(tmp_path / "teams.csv").read_text()
        assert client.post(f"/api/tournaments/{script.TID}/teams/import", json={"text": text, "filename": "t.csv"},
                           headers=chief).status_code == 201
        result = CliRunner().invoke(cli, ["lineup", script.TID, "1", "T03", "1", "2", "3", "5"],
                                    env={"OLYMPIAD_DB": f"sqlite:///{db}"})
        assert result.exit_code == 0, result.output
        t03 = next(t for t in client.get(f"/api/tournaments/{script.TID}/arbiter").json()["teams"] if t["team_id"] == "T03")
    assert (t03["lineup"], t03["lineup_submitted"]) == ([1, 2, 3, 5], True)
