"""Issue 12: a round paired while the previous round misses one board, in a log decided before
issue 25 refused it (``processors.rules.next_round``), still loads; the read side must carry it.
Before: ``olympiad replay`` ended with a traceback (the pairing proposal asked the engine to pair
on an incomplete round) and ``olympiad serve`` refused to start."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from projections.eventlog import write_log
from projections.pairing.read_model import next_round_proposal
from projections.store import EventStore
from tests.factories import TID, four_team_round_one, imported, match, paired, stored, written_earlier
from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.embedded import EmbeddedBackend
from processors.tournament import RuleViolation


def incomplete() -> list:
    """Round 1 without board 4 of table 2; round 2 paired over it and played in full."""
    events = [e for e in four_team_round_one() if e.event_id != f"{TID}/r1/t2/b4"]
    events.append(paired(2, [("A", "D"), ("B", "C")]))
    return events + match(2, 1, ("1-0", "1-0", "1-0", "1-0")) + match(2, 2, ("1-0", "0-1", "1-0", "0-1"))


def test_replay_prints_standings_and_no_proposal_while_a_board_is_missing(tmp_path):
    path = tmp_path / "log.jsonl"
    write_log(path, incomplete())
    result = CliRunner().invoke(cli, ["replay", str(path)])  # the log loader judges the file's events now
    assert result.exit_code == 2, result.output
    assert (f"refused: event {TID}/r2/pairing: round: round 1 is not complete: 1 match(es) still miss results "
            "[rule: pair a round when the previous round is complete]") in " ".join(result.output.split())
    store = decided_store(tmp_path / "old.sqlite")
    rounds = store.project().rounds
    assert sorted(rounds) == [1, 2] and not rounds[1].complete
    assert next_round_proposal(store.state) is None and store.proposed_pairing() is None


def decided_store(path) -> EventStore:
    """A store holding ``incomplete()`` as decided then (loading evolves, it does not judge again)."""
    return written_earlier(f"sqlite:///{path}", incomplete())


def test_the_event_rules_now_refuse_that_pairing():
    events = incomplete()
    at = next(i for i, e in enumerate(events) if e.type == "RoundPaired" and e.round == 2)
    store = stored(events[:at])
    with pytest.raises(RuleViolation) as refused:
        imported(store, [events[at]])
    assert (refused.value.field, refused.value.rule) == ("round", "pair a round when the previous round is complete")


def test_the_web_app_starts_and_every_read_answers(tmp_path):
    store = decided_store(tmp_path / "old.sqlite")
    with TestClient(create_app(EmbeddedBackend(store), TokenStore(store.engine))) as client:
        base = f"/api/tournaments/{TID}"
        for path in ("", "/rounds", "/rounds/1/pairings", "/rounds/2/pairings", "/rounds/1/tables/2", "/standings",
                     "/standings/1", "/standings/2", "/teams", "/teams/B"):
            assert client.get(base + path).status_code == 200, path
        assert client.get(base + "/rounds/3/proposal").status_code == 404
        for page in ("/", "/entry", "/teams/B"):
            assert client.get(page).status_code == 200, page
