"""Issue 11, acceptance 3 (API half): each lifecycle refusal reaches the HTTP API as a
``Refusal`` naming the field and the rule (403 for ``actor``, else 422), and nothing is written.
The CLI versions are tests/e2e/test_lifecycle_refusals.py; the pages show the same body, a test
per kind in one browser session (tests/e2e/test_arbiter_refusals_browser.py)."""
from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.commands_api import NEW_EVENT
from olympiad.web.embedded import EmbeddedBackend, store_engine
from projections.store import EventStore
from tests import tournament_script as script

TID = "refusal-cup"
CHIEF_TOKEN = "refusals-chief-8d2f61c0a9e4b713"
CHIEF = {"Authorization": f"Bearer {CHIEF_TOKEN}"}


@pytest.fixture
def cup(tmp_path: Any, monkeypatch: Any):
    """8 teams, a nomination deadline, round 1 published, board 1 of table 1 entered: (post, store, client)."""
    monkeypatch.setenv("OLYMPIAD_CLOCK", "2026-12-01T09:00:00+00:00")
    engine = store_engine(f"sqlite:///{tmp_path / 'cup.sqlite'}")
    store = EventStore(engine=engine)
    tokens = TokenStore(engine)
    tokens.set_chief_token(NEW_EVENT, CHIEF_TOKEN)
    csv = script.write_teams_csv(tmp_path / "teams.csv")
    text = "\n".join(line for line in csv.read_text().splitlines() if not line.startswith("T") or int(line[1:3]) <= 8)
    with TestClient(create_app(EmbeddedBackend(store), tokens)) as client:
        def post(body: dict, headers: dict = CHIEF) -> Any:
            return client.post(f"/api/tournaments/{TID}/commands", json=body, headers=headers)

        assert client.post("/api/tournaments", json={"command": "CreateTournament", "tournament_id": TID, "name": "Refusal Cup",
                                                     "profile": "olympiad-2022", "rounds": 5,
                                                     "nomination_deadline": "2026-12-01T12:00:00+00:00"},
                           headers=CHIEF).status_code == 201
        assert client.post(f"/api/tournaments/{TID}/teams/import", json={"text": text, "filename": "teams.csv"},
                           headers=CHIEF).status_code == 201
        for body in ({"command": "PairRound", "round": 1}, {"command": "PublishRound", "round": 1},
                     {"command": "RecordResult", "round": 1, "table": 1, "board": 1, "result": "1-0"}):
            assert post(body).status_code == 201, post(body).json()
        yield post, store, client


def refused(post, store, body, field, rule, status=422, headers=CHIEF):
    before = len(store.events())
    r = post(body, headers)
    assert r.status_code == status, r.json()
    assert (r.json()["field"], r.json()["rule"]) == (field, rule), r.json()
    assert len(store.refresh() and store.events()) == before
    return r.json()["detail"]


PLAYERS = [{"board_order": b, "name": f"New {b}"} for b in range(1, 6)]


def test_a_roster_change_after_the_nomination_deadline(cup):
    post, store, _ = cup
    refused(post, store, {"command": "ChangeRoster", "team_id": "T01", "players": PLAYERS}, "players", "R-D1 nomination deadline")


def test_a_lineup_with_a_player_not_nominated_or_out_of_order(cup):
    post, store, _ = cup
    refused(post, store, {"command": "SubmitLineup", "round": 2, "team_id": "T01", "boards": [1, 2, 3, 6]}, "boards.3",
            "R-D1 only nominated players")
    refused(post, store, {"command": "SubmitLineup", "round": 2, "team_id": "T01", "boards": [2, 1, 3, 4]}, "boards",
            "R-D1 fixed board order")


def test_a_lineup_after_the_round_is_published(cup):
    post, store, _ = cup
    refused(post, store, {"command": "SubmitLineup", "round": 1, "team_id": "T01", "boards": [1, 2, 3, 5]}, "round",
            "line-ups before the round is published")


def test_pairing_a_round_before_the_previous_one_is_complete(cup):
    post, store, client = cup
    detail = refused(post, store, {"command": "PairRound", "round": 2}, "round", "pair a round when the previous round is complete")
    assert "round 1 is not complete" in detail
    r = client.get(f"/api/tournaments/{TID}/rounds/2/explanation")
    assert r.status_code == 422 and r.json()["rule"] == "pair a round when the previous round is complete"


def test_publishing_an_amended_pairing_that_breaks_an_absolute_rule_needs_a_reason(cup):
    post, store, client = cup
    t1 = store.state.rounds[1].tables[0]
    for t in store.state.rounds[1].tables:
        boards = [{"board": b, "result": "1/2-1/2"} for b in range(2 if t.table == 1 else 1, 5)]
        assert post({"command": "RecordResults", "round": 1, "table": t.table, "boards": boards}).status_code == 201
    assert post({"command": "PairRound", "round": 2}).status_code == 201
    proposal = client.get(f"/api/tournaments/{TID}/arbiter").json()["proposal"]
    table = next(t for t in proposal["tables"] if t1.home in (t["home"]["team_id"], t["away"]["team_id"]))
    opponent = table["away"]["team_id"] if table["home"]["team_id"] == t1.home else table["home"]["team_id"]
    r = post({"command": "AmendPairing", "round": 2, "swaps": [{"teams": [opponent, t1.away]}], "reason": "the captains asked"})
    assert r.status_code == 201
    report = client.get(f"/api/tournaments/{TID}/arbiter").json()["proposal"]["report"]
    assert any("R-P1 repeat opponent" in line and "they met in round 1" in line for line in report)
    refused(post, store, {"command": "PublishRound", "round": 2}, "override_reason",
            "an absolute pairing rule is broken only with a reason")
    assert post({"command": "PublishRound", "round": 2, "override_reason": "the organiser's decision"}).status_code == 201


def test_a_correction_with_a_terminals_token(cup):
    post, store, client = cup
    token = client.post(f"/api/tournaments/{TID}/terminals", json={"terminal_id": "t1", "tables": [1]}, headers=CHIEF).json()["token"]
    refused(post, store, {"command": "CorrectResult", "round": 1, "table": 1, "board": 1, "result": "0-1", "reason": "sheet"},
            "actor", "the chief arbiter's command", status=403, headers={"Authorization": f"Bearer {token}"})
    r = post({"command": "RecordResult", "round": 1, "table": 2, "board": 1, "result": "1-0"}, {"Authorization": f"Bearer {token}"})
    assert r.status_code == 403 and "table 2 is outside its scope" in r.json()["detail"]


def test_a_result_for_a_round_not_yet_published(cup):
    post, store, _ = cup
    refused(post, store, {"command": "RecordResult", "round": 2, "table": 1, "board": 1, "result": "1-0"}, "round",
            "results only for paired rounds")


def test_a_body_that_is_not_a_command(cup):
    post, store, _ = cup
    r = post({"command": "PairRound", "round": 2, "actor": {"role": "chief", "id": "x"}})
    assert r.status_code == 422 and r.json()["rule"] == "request schema"  # the server sets the actor
    r = post({"command": "RecordResult", "round": 1, "table": 1, "board": 2, "result": "2-0"})
    assert r.status_code == 422 and r.json()["field"].endswith("result")


def test_a_captains_token_submits_its_own_teams_lineup_for_the_round_to_pair_only(cup):
    """Issue 11: the chief arbiter issues a captain's token for T01; it submits T01's line-up for
    round 2 (round 1 is published); the role rule (processors.deciders.roles) refuses it another
    team, a later round and every command not a captain's, and nothing is written."""
    post, store, client = cup
    r = client.post(f"/api/tournaments/{TID}/captains", json={"team_id": "T01"}, headers=CHIEF)
    assert r.status_code == 201 and r.json()["terminal_id"] == "captain-T01", r.json()
    captain = {"Authorization": f"Bearer {r.json()['token']}"}
    ok = post({"command": "SubmitLineup", "round": 2, "team_id": "T01", "boards": [1, 2, 3, 5]}, captain)
    assert ok.status_code == 201, ok.json()
    assert store.refresh() and store.state.lineup(2, "T01") == (1, 2, 3, 5)
    assert store.state.applied[ok.json()["event_ids"][0]].actor == "captain-T01"
    refused(post, store, {"command": "SubmitLineup", "round": 2, "team_id": "T02", "boards": [1, 2, 3, 5]}, "team_id",
            "a captain acts for its own team", headers=captain)
    refused(post, store, {"command": "SubmitLineup", "round": 3, "team_id": "T01", "boards": [1, 2, 3, 5]}, "round",
            "a captain submits the next round's line-up", headers=captain)
    refused(post, store, {"command": "PairRound", "round": 2}, "actor", "the chief arbiter's command", status=403, headers=captain)
    refused(post, store, {"command": "RecordResult", "round": 1, "table": 1, "board": 2, "result": "1-0"}, "actor",
            "RecordResult by arbiter or chief or terminal", status=403, headers=captain)
    # Only the chief arbiter issues one, for a registered team; a new one replaces the old.
    terminal = client.post(f"/api/tournaments/{TID}/terminals", json={"terminal_id": "t1", "tables": [1]}, headers=CHIEF).json()
    r = client.post(f"/api/tournaments/{TID}/captains", json={"team_id": "T02"}, headers={"Authorization": f"Bearer {terminal['token']}"})
    assert r.status_code == 403 and "only the chief arbiter" in r.json()["detail"]
    r = client.post(f"/api/tournaments/{TID}/captains", json={"team_id": "T99"}, headers=CHIEF)
    assert r.status_code == 422 and (r.json()["field"], r.json()["rule"]) == ("team_id", "registered teams only")
    assert client.post(f"/api/tournaments/{TID}/captains", json={"team_id": "T01"}, headers=CHIEF).status_code == 201
    r = post({"command": "SubmitLineup", "round": 2, "team_id": "T01", "boards": [1, 2, 3, 4]}, captain)
    assert r.status_code == 401 and "revoked" in r.json()["detail"]


def test_a_retried_creation_is_already_recorded_and_another_tournament_is_a_conflict(cup):
    post, store, client = cup
    before = len(store.events())
    create = {"command": "CreateTournament", "tournament_id": TID, "name": "Refusal Cup", "profile": "olympiad-2022",
              "rounds": 5, "nomination_deadline": "2026-12-01T12:00:00+00:00"}
    again = client.post("/api/tournaments", json=create, headers=CHIEF)
    assert again.status_code == 201 and again.json()["already_recorded"] is True, again.json()
    other = client.post("/api/tournaments", json={**create, "tournament_id": "other-cup"}, headers=CHIEF)
    assert other.status_code == 409, other.json()
    assert (other.json()["field"], other.json()["rule"]) == ("tournament_id", "one tournament per server")
    assert f"this server serves tournament {TID!r} already" in other.json()["detail"]
    assert len(store.refresh() and store.events()) == before
