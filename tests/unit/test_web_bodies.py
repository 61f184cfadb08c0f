"""A request body with a key the door does not know is refused with the key named, and nothing is
written (a misspelt ``reason`` or ``forfeit`` was dropped without a word)."""
from __future__ import annotations

from fastapi.testclient import TestClient

from tests.factories import TID, four_team_round_one
from tests.web_app import embedded_app

TOKEN = "chief-token-of-the-test"


def test_a_misspelt_key_of_a_correction_is_refused_naming_it_and_nothing_is_stored():
    web, store, _ = embedded_app(four_team_round_one(), chief=TOKEN)
    before = len(store.events())
    with TestClient(web) as client:
        answer = client.post(f"/api/tournaments/{TID}/rounds/1/tables/1/corrections", headers={"Authorization": f"Bearer {TOKEN}"},
                             json={"board": 1, "result": "0-1", "reason": "scoresheet", "reasn": "typo"})
    assert answer.status_code == 422
    assert answer.json()["field"] == "reasn" and answer.json()["rule"] == "request schema"
    assert "reasn: not a field here (given 'typo')" in answer.json()["detail"]
    assert len(store.events()) == before


def test_a_board_entry_with_an_unknown_key_is_refused_naming_its_path():
    web, store, _ = embedded_app(four_team_round_one(), chief=TOKEN)
    with TestClient(web) as client:
        answer = client.post(f"/api/tournaments/{TID}/rounds/1/tables/1/results", headers={"Authorization": f"Bearer {TOKEN}"},
                             json={"boards": [{"board": 1, "result": "1-0", "forfiet": "late-arrival"}]})
    assert answer.status_code == 422 and answer.json()["field"] == "boards[0].forfiet", answer.text
