"""The web API over the embedded store, Samarkand 2026 Open loaded through round 10 (round 11 to enter).

Refusals (issue 5, acceptance 2): each asserts the status, the message, and that nothing was
stored (event count, board result) or published (stream update count). Accepted writes are
checked against the core: the standings digest equals a replay of the same events.
"""
from __future__ import annotations

import json
import socket
import threading
import time

import httpx2
import pytest
import uvicorn
from fastapi.testclient import TestClient

from projections.replay import replay
from producers.sources import load_source
from olympiad.web.preload import held_back, through_round
from tests.web_app import embedded_app

TID = "samarkand-2026-open"
CHIEF = "chief-test-token-4f9c1a7e2b"
BASE = f"/api/tournaments/{TID}"


@pytest.fixture(scope="module")
def events():
    return load_source(TID)


@pytest.fixture(scope="module")
def served(events):
    app, store, backend = embedded_app(through_round(events, 10), CHIEF)
    with TestClient(app) as client:
        yield client, store, backend, app


@pytest.fixture(scope="module")
def table_token(served):
    """A terminal token for table 7 only."""
    client = served[0]
    r = client.post(f"{BASE}/terminals", json={"terminal_id": "table-7", "tables": [7]}, headers=auth(CHIEF))
    assert r.status_code == 201, r.text
    return r.json()["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def results(events, table: int) -> list[dict]:
    """The real round-11 board results of ``table`` as an entry body."""
    return [{"board": e.board, "result": e.result} for e in held_back(events, 10) if e.table == table]


class Unchanged:
    """Asserts that a block stored nothing and published nothing."""

    def __init__(self, served):
        self.client, self.store, self.backend, self.app = served

    def __enter__(self):
        self.count = len(self.store.events())
        self.results = dict(self.store.state.results)
        self.published = self.app.state.hub.published
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            time.sleep(0.05)  # give a (wrongly) woken updater the chance to publish
            assert len(self.store.events()) == self.count
            assert dict(self.store.state.results) == self.results
            assert self.app.state.hub.published == self.published
        return False


def wait_published(app, at_least: int, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while app.state.hub.published < at_least:
        assert time.monotonic() < deadline, "no standings update was published"
        time.sleep(0.01)


# ---------------------------------------------------------------------- refusals
def test_write_without_token_is_refused(served, events):
    client = served[0]
    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/7/results", json={"boards": results(events, 7)})
    assert r.status_code == 401
    assert r.json()["detail"].startswith("no terminal token: writes need 'Authorization: Bearer <token>'")


def test_unknown_or_revoked_token_is_refused(served, events):
    client = served[0]
    r = client.post(f"{BASE}/terminals", json={"terminal_id": "spare", "tables": [9]}, headers=auth(CHIEF))
    spare = r.json()["token"]
    assert client.delete(f"{BASE}/terminals/spare", headers=auth(CHIEF)).status_code == 204
    with Unchanged(served):
        for token in ("not-a-token", spare):
            r = client.post(f"{BASE}/rounds/11/tables/9/results", json={"boards": results(events, 9)}, headers=auth(token))
            assert r.status_code == 401
            assert r.json()["detail"].startswith("unknown or revoked terminal token")


def test_token_for_another_table_is_refused(served, events, table_token):
    client = served[0]
    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/8/results", json={"boards": results(events, 8)}, headers=auth(table_token))
    assert r.status_code == 403
    assert r.json()["detail"] == "terminal 'table-7' may enter results for table 7 only; table 8 is outside its scope"


def test_terminal_token_cannot_issue_tokens(served, table_token):
    client = served[0]
    r = client.post(f"{BASE}/terminals", json={"terminal_id": "rogue", "tables": None}, headers=auth(table_token))
    assert r.status_code == 403
    assert "only the chief arbiter's token issues and revokes terminal tokens" in r.json()["detail"]


def test_result_code_that_does_not_exist_is_refused(served, table_token):
    client = served[0]
    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/7/results", json={"boards": [{"board": 1, "result": "2-0"}]},
                        headers=auth(table_token))
    assert r.status_code == 422
    body = r.json()
    assert (body["field"], body["rule"]) == ("boards[0].result", "result codes")
    assert body["detail"].endswith("boards[0].result: '2-0' is not one of '1-0', '0-1', '1/2-1/2', '+/-', '-/+' or '-/-' "
                                   "[rule: result codes]")


def test_board_that_does_not_exist_is_refused_and_the_batch_with_it(served, events, table_token):
    client = served[0]
    boards = results(events, 7)[:3] + [{"board": 5, "result": "1-0"}]
    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/7/results", json={"boards": boards}, headers=auth(table_token))
    assert r.status_code == 422
    body = r.json()
    assert body["detail"] == "board: board 5 does not exist in a 4-board match [rule: R-D1 boards 1..4]"
    assert (body["field"], body["rule"]) == ("board", "R-D1 boards 1..4")


def test_table_that_does_not_exist_is_refused(served):
    client = served[0]
    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/104/results", json={"boards": [{"board": 1, "result": "1-0"}]},
                        headers=auth(CHIEF))
    assert r.status_code == 422
    assert r.json()["detail"].startswith("table: round 11 has no table 104")


def test_forfeit_without_reason_is_refused(served, table_token):
    client = served[0]
    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/7/results", json={"boards": [{"board": 2, "result": "-/+"}]},
                        headers=auth(table_token))
    assert r.status_code == 422
    body = r.json()
    assert body["detail"] == ("boards.0.note: a forfeit for the reason 'other' needs a note of 1 characters at least "
                              "[rule: a forfeit says why]")
    assert (body["field"], body["rule"]) == ("boards.0.note", "a forfeit says why")


def test_second_different_result_needs_the_correction_flow(served, table_token):
    client, store, backend, app = served
    published = app.state.hub.published
    r = client.post(f"{BASE}/rounds/11/tables/7/results", json={"boards": [{"board": 1, "result": "1-0"}]},
                    headers=auth(table_token))
    assert r.status_code == 201, r.text
    first_id = r.json()["event_ids"][0]
    wait_published(app, published + 1)

    with Unchanged(served):
        r = client.post(f"{BASE}/rounds/11/tables/7/results", json={"boards": [{"board": 1, "result": "0-1"}]},
                        headers=auth(table_token))
    assert r.status_code == 422
    body = r.json()
    assert body["detail"].startswith(f"result: round 11 table 7 board 1 already has 1-0 (event {first_id}); "
                                     "0-1 needs a correction with a reason")
    assert body["rule"] == "one result per board; changes go through a correction"
    assert store.state.results[(11, 7, 1)] == (first_id, "1-0")

    with Unchanged(served):  # a correction without a reason is refused too
        r = client.post(f"{BASE}/rounds/11/tables/7/corrections", json={"board": 1, "result": "0-1", "reason": ""},
                        headers=auth(table_token))
    assert r.status_code == 422
    assert r.json()["field"] == "reason"

    with Unchanged(served):  # corrections are the chief arbiter's alone
        r = client.post(f"{BASE}/rounds/11/tables/7/corrections",
                        json={"board": 1, "result": "0-1", "reason": "scoresheet signed 0-1"}, headers=auth(table_token))
    assert r.status_code == 403
    assert (r.json()["field"], r.json()["rule"]) == ("actor", "the chief arbiter's command")

    r = client.post(f"{BASE}/rounds/11/tables/7/corrections",
                    json={"board": 1, "result": "0-1", "reason": "scoresheet signed 0-1"}, headers=auth(CHIEF))
    assert r.status_code == 201, r.text
    correction_id = r.json()["event_ids"][0]
    assert store.state.results[(11, 7, 1)] == (correction_id, "0-1")
    stored = next(e for e in store.events() if e.event_id == correction_id)
    assert (stored.type, stored.supersedes, stored.reason) == ("BoardResultCorrected", first_id, "scoresheet signed 0-1")


# ---------------------------------------------------------------------- accepted writes and reads
def test_entered_table_updates_standings_as_the_core_computes_them(served, events):
    client, store, backend, app = served
    issued = client.post(f"{BASE}/terminals", json={"terminal_id": "table-3", "tables": [3]}, headers=auth(CHIEF))
    token = issued.json()["token"]
    published = app.state.hub.published
    r = client.post(f"{BASE}/rounds/11/tables/3/results", json={"boards": results(events, 3)}, headers=auth(token))
    assert r.status_code == 201, r.text
    written = r.json()
    assert written["accepted"] == 4 and written["terminal_id"] == "table-3"
    assert written["match"]["complete"] is True
    wait_published(app, published + 1)

    expected = replay(store.events()).rounds[11]  # the core, on exactly what was stored
    live = client.get(f"{BASE}/standings").json()
    assert live["digest"] == expected.digest
    # decided_by and byes (the PAB, display only) are served beside the digested document's rows
    assert [{k: v for k, v in row.items() if k not in ("decided_by", "byes")} for row in live["rows"]] == expected.document["rows"]
    from projections.standings.decided_by import decided_by_documents

    assert [row["decided_by"] for row in live["rows"]] == decided_by_documents(expected.document["rows"], live["tiebreaks"])
    match = client.get(f"{BASE}/rounds/11/tables/3").json()
    assert [b["result"] for b in match["boards"]] == [b["result"] for b in results(events, 3)]
    assert all(b["event_id"].startswith(f"{TID}/r11/t3/b") for b in match["boards"])


def test_standings_after_an_earlier_round_match_the_replay(served, events):
    client = served[0]
    expected = replay(events, through_round=3).rounds[3]
    got = client.get(f"{BASE}/standings/3").json()
    assert got["digest"] == expected.digest
    assert got["tiebreaks"] == ["OSB-C1", "GP", "BH-C1"]
    row = got["rows"][0]
    assert set(row["tiebreaks"]) == {"OSB-C1", "GP", "BH-C1"}
    assert len(row["breakdown"]) == 3 and sum(e["cut"] for e in row["breakdown"]) == 1


def test_compare_names_the_separating_criterion(served):
    client = served[0]
    # After round 3 France and Poland share 2nd place (6 MP, OSB-C1 28, GP 11, BH-C1 8).
    c = client.get(f"{BASE}/standings/3/compare", params={"a": "POL", "b": "FRA"}).json()
    assert c["decided_by"] == "SNo" and c["ahead"] == "FRA"
    assert [s["criterion"] for s in c["steps"]] == ["MP", "OSB-C1", "GP", "BH-C1", "SNo"]
    assert "share place 2" in c["explanation"]
    # Romania leads them on OSB-C1 (32 to 28).
    c = client.get(f"{BASE}/standings/3/compare", params={"a": "ROU", "b": "FRA"}).json()
    assert (c["decided_by"], c["ahead"]) == ("OSB-C1", "ROU")
    assert "Romania 32 to France 28" in c["explanation"]
    assert sum(float(t["term"]) for t in c["terms"]["ROU"] if not t["cut"]) == 32


def test_reads_are_public_and_unknown_things_are_404(served):
    client = served[0]
    assert client.get("/api/tournaments").json()[0]["current_round"] == 11
    assert client.get(f"{BASE}/rounds").json()[9]["complete"] is True
    team = client.get(f"{BASE}/teams/UZB").json()
    assert team["name"] == "Uzbekistan" and len(team["rounds"]) == 11 and len(team["players"]) == 5
    assert team["rounds"][0]["opponent"]["team_id"] == "JAM"
    for path, message in ((f"{BASE}/rounds/12/pairings", "round 12 has not been paired"),
                          (f"{BASE}/teams/XXX", "unknown team 'XXX'"),
                          ("/api/tournaments/other/standings", "unknown tournament 'other'")):
        r = client.get(path)
        assert r.status_code == 404 and r.json()["detail"].startswith(message)


def test_openapi_documents_the_api(served):
    schema = served[0].get("/openapi.json").json()
    paths = schema["paths"]
    for path in ("/api/tournaments/{tid}/rounds/{rnd}/pairings", "/api/tournaments/{tid}/standings/{rnd}",
                 "/api/tournaments/{tid}/teams/{team_id}", "/api/tournaments/{tid}/stream",
                 "/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/results", "/api/tournaments/{tid}/terminals"):
        assert path in paths
    assert "HTTPBearer" in schema["components"]["securitySchemes"]
    results = paths["/api/tournaments/{tid}/rounds/{rnd}/tables/{table}/results"]["post"]
    assert set(results["responses"]) >= {"201", "401", "403", "422"}


def test_stream_sends_the_standings_then_one_update_per_write(events):
    """The SSE stream over a real server (uvicorn): the current standings first, then the update
    caused by a write, with the written table and the standings the core computes."""
    app, store, _ = embedded_app(through_round(events, 2), CHIEF)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}{BASE}"
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.05)
        with httpx2.Client(timeout=10) as client, client.stream("GET", f"{base}/stream") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()

            def message() -> tuple[str, str, dict]:
                fields = {}
                for line in lines:
                    if not line:
                        return fields["event"], fields["id"], json.loads(fields["data"])
                    key, _, value = line.partition(": ")
                    fields[key] = value
                raise AssertionError("the stream ended")

            event, seq, first = message()
            assert (event, seq, first["round"], first["caused_by"]) == ("standings", "0", 3, [])
            assert first["digest"] == replay(store.events()).rounds[3].digest
            assert set(first["rows"][0]) == {"rank", "pairing_number", "team_id", "name", "mp", "gp", "tiebreaks", "decided_by"}

            boards = [{"board": e.board, "result": e.result} for e in events
                      if e.type == "BoardResultRecorded" and e.round == 3 and e.table == 1]
            r = client.post(f"{base}/rounds/3/tables/1/results", json={"boards": boards}, headers=auth(CHIEF))
            assert r.status_code == 201, r.text
            event, seq, update = message()
            assert (event, seq, update["seq"]) == ("standings", "1", 1)
            assert update["caused_by"] == r.json()["event_ids"]
            assert [(m["round"], m["table"], m["complete"]) for m in update["matches"]] == [(3, 1, True)]
            assert update["digest"] == replay(store.events()).rounds[3].digest != first["digest"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
