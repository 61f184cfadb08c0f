"""The thin HTTP door (issue 25): the ranking explanation is the read side's (``decided_by``, for C.07
profiles too), "pair, then publish" is one command decided once, the web app has one clock, and a
forfeit's winner who is not at the table is refused, not turned into a double forfeit."""
from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli

from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.embedded import EmbeddedBackend, store_engine
from processors.deciders import handle
from processors.tournament import TournamentState
from projections.replay import standings_after
from projections.standings.decided_by import SHARED, decided_by_documents
from projections.store import EventStore
from projections.views.ranking import ranking_explanation
from schemas.commands import parse_command
from tests.factories import TID, four_team_round_one, imported
from tests.unit.test_c07_tiebreaks import PROFILE as C07_EXAMPLE
from tests.unit.test_c07_tiebreaks import TID as C07_TID
from tests.unit.test_c07_tiebreaks import events as c07_events

CHIEF = "chief-thin-door-token-7d3e9a1c5b"
AUTH = {"Authorization": f"Bearer {CHIEF}"}
FIXED = "2026-09-14T09:30:00+00:00"
AT = datetime.fromisoformat(FIXED)


def serve(events: list, clock: Any = None) -> tuple[Any, EventStore]:
    """``create_app`` over an in-memory store holding ``events``; ``clock``: the app's clock (default its own)."""
    engine = store_engine("sqlite://")
    store = EventStore(engine=engine)
    imported(store, events)
    tokens = TokenStore(engine)
    tokens.set_chief_token(store.state.tournament_id, CHIEF)
    app = create_app(EmbeddedBackend(store), tokens, **({"clock": clock} if clock else {}))
    return app, store


# ---------------------------------------------------------------------- the ranking explanation
@pytest.mark.parametrize("tiebreaks,expected", [
    # T4 and T2 tie on 4 MP and EDET (they met, T4 won) decides; T5 and T3 tie on 1 MP and TBR decides.
    (("EDET", "TBR", "EMGSB/C1", "BC"), [None, "MP", "EDET", "MP", "TBR"]),
    # BC compares only teams equal on GP (C.07 12.1, docs/tiebreaks.md): T2 (4.5 GP) and T4 (3.5), T3 (1.5)
    # and T5 (1) are not, so EMGSB/C1 decides both.
    (("BC", "EMGSB/C1"), [None, "MP", "EMGSB/C1", "MP", "EMGSB/C1"]),
])
def test_the_explanation_on_a_c07_profile_is_decided_by(tiebreaks, expected):
    profile = C07_EXAMPLE.model_copy(update={"tiebreaks": tiebreaks})
    app, _ = serve(c07_events(profile))
    with TestClient(app) as client:
        rows = client.get(f"/api/tournaments/{C07_TID}/standings/4").json()["rows"]
        assert [r["decided_by"] for r in rows] == expected == decided_by_documents(rows, tiebreaks)
        for above, below in zip(rows, rows[1:]):
            r = client.get(f"/api/tournaments/{C07_TID}/standings/4/compare",
                           params={"a": below["team_id"], "b": above["team_id"]})
            assert r.status_code == 200, r.text
            c = r.json()
            assert c["ahead"] == above["team_id"]
            assert c["decided_by"] == ("SNo" if below["decided_by"] == SHARED else below["decided_by"])
            assert [s["criterion"] for s in c["steps"]][-1] == c["decided_by"]
            assert all(s["equal"] for s in c["steps"][:-1]) and not c["steps"][-1]["equal"]
    if "BC" in tiebreaks[:1]:
        assert [r["team_id"] for r in rows[-2:]] == ["T3", "T5"]
        assert c["explanation"] == ("Level on MP, BC; EMGSB/C1 separates them: Team 3 7 to Team 5 1. EMGSB/C1 is the "
                                    "tie-break of C.07 2026 art. 13.2.2.")


def test_the_explanation_of_teams_apart_names_the_first_key_they_differ_on():
    """T1 (6 MP) and T3 (1 MP) are not neighbours: MP separates them, whichever is named first."""
    profile = C07_EXAMPLE.model_copy(update={"tiebreaks": ("EDET", "TBR", "EMGSB/C1", "BC")})
    state = TournamentState()
    for e in c07_events(profile):
        state.evolve(e)
    rows = standings_after(state, 4).document["rows"]
    c = ranking_explanation(rows, profile.tiebreaks, "T3", "T1")
    assert (c["ahead"], c["decided_by"], c["terms"]) == ("T1", "MP", {})
    assert c["explanation"] == "Team 1 has more match points (6 to 1): MP decide first (R-T1)."


# ---------------------------------------------------------------------- pair and publish: one command
def _round_one_complete() -> TournamentState:
    state = TournamentState()
    for e in four_team_round_one():
        state.evolve(e)
    return state


def _command(kind: str, **fields: Any) -> Any:
    return parse_command({"command": kind, "tournament_id": TID, "actor": {"role": "chief", "id": "chief"},
                          "issued_at": FIXED, **fields})


def test_pair_and_publish_is_one_command_in_process():
    state = _round_one_complete()
    decision = handle(state, _command("PairRound", round=2, publish=True))
    proposed, published = decision.events
    assert (proposed.type, published.type) == ("PairingProposed", "RoundPaired")
    assert published.tables == proposed.tables and published.note == "engine proposal (olympiad-2022)"
    assert state.rounds[2] == published
    again = handle(state, _command("PairRound", round=2, publish=True))
    assert again.already_recorded and [e.event_id for e in again.recorded] == [published.event_id]


def test_pair_and_publish_publishes_a_pending_amendment_as_it_stands():
    state = _round_one_complete()
    proposed = handle(state, _command("PairRound", round=2)).events[0]
    t1, t2 = proposed.tables
    handle(state, _command("AmendPairing", round=2, swaps=[{"tables": [1, 2]}], reason="table 1 is by the window"))
    (published,) = handle(state, _command("PairRound", round=2, publish=True)).events
    assert [(t.table, t.home) for t in published.tables] == [(1, t2.home), (2, t1.home)]
    assert published.note == "amended by the chief arbiter: table 1 is by the window"


def test_pair_and_publish_over_http_is_the_command_the_commands_endpoint_takes():
    answers = []
    for path, body in ((f"/api/tournaments/{TID}/rounds/2/pairing", None),
                       (f"/api/tournaments/{TID}/commands", {"command": "PairRound", "round": 2, "publish": True})):
        app, store = serve(four_team_round_one(), clock=lambda: FIXED)
        with TestClient(app) as client:
            r = client.post(path, json=body, headers=AUTH)
            assert r.status_code == 201, r.text
        answers.append(r.json())
        assert [e.type for e in store.events()[-2:]] == ["PairingProposed", "RoundPaired"]
        assert store.state.rounds[2].occurred_at == AT
        if body is None:
            tables = [(t["home"], t["away"]) for t in r.json()["tables"]]
        else:
            assert [(t.home, t.away) for t in store.state.rounds[2].tables] == tables
    pairing, outcome = answers
    assert pairing["type"] == "RoundPaired" and outcome["event_ids"][-1] == pairing["event_id"]


def test_pair_and_publish_from_the_command_line_is_the_same_command(tmp_path):
    db = f"sqlite:///{tmp_path / 'events.sqlite'}"
    imported(EventStore(db), four_team_round_one())
    result = CliRunner().invoke(cli, ["round", "pair", TID, "2", "--publish", "--db", db],
                                env={"OLYMPIAD_CLOCK": FIXED, "COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "round 2, published" in result.output
    store = EventStore(db)
    assert [e.type for e in store.events()[-2:]] == ["PairingProposed", "RoundPaired"]
    assert store.state.rounds[2].occurred_at == AT


# ---------------------------------------------------------------------- one clock
def test_one_clock_stamps_every_command_and_token():
    app, store = serve(four_team_round_one()[:-8], clock=lambda: FIXED)  # round 1 paired, no result yet
    with TestClient(app) as client:
        issued = client.post(f"/api/tournaments/{TID}/terminals", json={"terminal_id": "t1", "tables": [1]}, headers=AUTH)
        terminal = {"Authorization": f"Bearer {issued.json()['token']}"}
        entered = client.post(f"/api/tournaments/{TID}/rounds/1/tables/1/results",
                              json={"boards": [{"board": 1, "result": "1-0"}]}, headers=terminal)
        command = client.post(f"/api/tournaments/{TID}/commands", headers=AUTH,
                              json={"command": "RecordResult", "round": 1, "table": 2, "board": 1, "result": "0-1"})
        assert (entered.status_code, command.status_code) == (201, 201), (entered.text, command.text)
        listed = client.get(f"/api/tournaments/{TID}/terminals", headers=AUTH).json()
    stamped = [store.state.applied[i] for i in entered.json()["event_ids"] + command.json()["event_ids"]]
    assert [e.occurred_at for e in stamped] == [AT, AT]
    assert [t["issued_at"] for t in listed if t["terminal_id"] == "t1"] == [FIXED]


# ---------------------------------------------------------------------- a forfeit's winner
def test_a_forfeit_winner_not_at_the_table_is_refused_not_a_double_forfeit():
    app, store = serve(four_team_round_one()[:-8])  # round 1: A-C, D-B, no result yet
    forfeit = f"/api/tournaments/{TID}/rounds/1/tables/1/forfeit"
    with TestClient(app) as client:
        r = client.post(forfeit, json={"winner": "B"}, headers=AUTH)
        assert r.status_code == 422 and r.json()["field"] == "winner", r.text
        assert not store.state.results and store.events()[-1].type == "RoundPaired"
        both = client.post(forfeit, json={"winner": None}, headers=AUTH)
        assert both.status_code == 201, both.text
    (event,) = [store.state.applied[i] for i in both.json()["event_ids"]]
    assert (event.type, event.winner) == ("MatchForfeited", None)
