"""The chief arbiter publishes the engine's proposed pairing through the web API (issues 3 and 5)."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.factories import TID, four_team_round_one, imported
from tests.web_app import embedded_app

CHIEF = "chief-pairing-token-4f9c1a7e2b"
BASE = f"/api/tournaments/{TID}"


@pytest.fixture
def served():
    events = four_team_round_one()
    app, store, _ = embedded_app(events[:-1], CHIEF)  # round 1 not complete yet
    with TestClient(app) as client:
        yield client, store, events[-1]


def test_proposal_exists_once_the_round_is_complete_and_only_the_chief_publishes_it(served):
    client, store, last_board = served
    assert client.get(f"{BASE}/rounds/2/proposal").status_code == 404
    imported(store, [last_board])
    proposal = client.get(f"{BASE}/rounds/2/proposal")
    assert proposal.status_code == 200, proposal.text
    body = proposal.json()
    # D.02 2022: A (2 MP) floats to the 1-MP group and meets B (A met C in round 1); D meets C.
    assert sorted(tuple(sorted((t["home"], t["away"]))) for t in body["tables"]) == [("A", "B"), ("C", "D")]
    assert body["type"] == "PairingProposed" and body["trace"]

    token = client.post(f"{BASE}/terminals", json={"terminal_id": "t1", "tables": [1]},
                        headers={"Authorization": f"Bearer {CHIEF}"}).json()["token"]
    refused = client.post(f"{BASE}/rounds/2/pairing", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 403, refused.text
    assert 2 not in store.state.rounds

    published = client.post(f"{BASE}/rounds/2/pairing", headers={"Authorization": f"Bearer {CHIEF}"})
    assert published.status_code == 201, published.text
    assert published.json()["type"] == "RoundPaired"
    assert [(t.home, t.away) for t in store.state.rounds[2].tables] == [(t["home"], t["away"]) for t in body["tables"]]
    stored = len(store.events())
    again = client.post(f"{BASE}/rounds/2/pairing", headers={"Authorization": f"Bearer {CHIEF}"})
    assert again.status_code == 201 and again.json() == published.json()  # a retry: already recorded
    assert len(store.events()) == stored
