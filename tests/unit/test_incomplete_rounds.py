"""Issue 12: a round paired while the previous round misses one board is accepted data; the read
side must carry it. Before: ``olympiad replay`` ended with a traceback (the pairing proposal
asked the engine to pair on an incomplete round) and ``olympiad serve`` refused to start."""
from __future__ import annotations

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from projections.eventlog import write_log
from projections.pairing.read_model import next_round_proposal
from projections.store import EventStore
from tests.factories import TID, four_team_round_one, match, paired
from tests.web_app import embedded_app


def incomplete() -> list:
    """Round 1 without board 4 of table 2; round 2 paired over it and played in full."""
    events = [e for e in four_team_round_one() if e.event_id != "r1/t2/b4"]
    events.append(paired(2, [("A", "D"), ("B", "C")]))
    return events + match(2, 1, ("1-0", "1-0", "1-0", "1-0")) + match(2, 2, ("1-0", "0-1", "1-0", "0-1"))


def test_replay_prints_standings_and_no_proposal_while_a_board_is_missing(tmp_path):
    path = tmp_path / "log.jsonl"
    write_log(path, incomplete())
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "standings sha256" in result.output
    store = EventStore("sqlite://")
    store.append(incomplete())
    rounds = store.project().rounds
    assert sorted(rounds) == [1, 2] and not rounds[1].complete
    assert next_round_proposal(store.state) is None and store.proposed_pairing() is None


def test_the_web_app_starts_and_every_read_answers():
    with TestClient(embedded_app(incomplete())[0]) as client:
        base = f"/api/tournaments/{TID}"
        for path in ("", "/rounds", "/rounds/1/pairings", "/rounds/2/pairings", "/rounds/1/tables/2", "/standings",
                     "/standings/1", "/standings/2", "/teams", "/teams/B"):
            assert client.get(base + path).status_code == 200, path
        assert client.get(base + "/rounds/3/proposal").status_code == 404
        for page in ("/", "/entry", "/teams/B"):
            assert client.get(page).status_code == 200, page
