"""The embedded event store (real SQLite file): idempotent imports, atomic refusals, read models."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from processors.tournament import RuleViolation
from projections.store import EventStore, events_table, matches_table, standings_table
from tests.factories import board, four_team_round_one, imported


@pytest.fixture
def store(tmp_path):
    return EventStore(f"sqlite:///{tmp_path / 'olympiad.sqlite'}")


def count(store, table):
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def test_second_copy_of_an_event_is_a_no_op(store):
    events = four_team_round_one()
    first = imported(store, events)
    again = imported(store, events)
    assert (len(first.events), len(first.recorded)) == (len(events), 0)
    assert again.already_recorded and len(again.recorded) == len(events)
    assert count(store, events_table) == len(events)


def test_refused_batch_writes_nothing_and_keeps_the_state(store, tmp_path):
    events = four_team_round_one()
    imported(store, events[:5])  # tournament + 4 teams
    with pytest.raises(RuleViolation) as refused:
        imported(store, events[5:] + [board(1, 1, 1, "0-1", "conflict")])
    assert refused.value.event_id == "conflict" and refused.value.field == "result"
    assert count(store, events_table) == 5 and len(store.state.applied) == 5
    reopened = EventStore(f"sqlite:///{tmp_path / 'olympiad.sqlite'}")
    assert len(imported(reopened, events).events) == len(events) - 5


def test_read_models_after_projection(store):
    imported(store, four_team_round_one())
    result = store.project()
    assert count(store, matches_table) == 2
    with store.engine.connect() as conn:
        rows = conn.execute(select(standings_table).order_by(standings_table.c.rank, standings_table.c.team_id)).all()
    assert [(r.team_id, r.rank, r.mp, r.gp) for r in rows] == [("A", 1, 2, "3"), ("B", 2, 1, "2"), ("D", 2, 1, "2"), ("C", 4, 0, "1")]
    assert json.loads(rows[0].tiebreaks) == {"BH-C1": "0", "GP": "3", "OSB-C1": "0"}
    doc = store.standings_document(1)
    assert doc["rows"][0]["team_id"] == "A" and result.rounds[1].digest


def test_proposed_pairing_read_model_appears_when_the_round_is_complete(store):
    events = four_team_round_one()
    imported(store, events[:-1])  # the last board of round 1 is still being played
    store.project()
    assert store.proposed_pairing() is None
    imported(store, events[-1:])
    store.project()
    proposal = store.proposed_pairing()
    event = proposal["event"]
    # D.02 2022: round 2 pairs the 2-MP A with the 1-MP group leader B (A met C); D meets C.
    assert (proposal["round"], event["type"]) == (2, "PairingProposed")
    assert sorted(tuple(sorted((t["home"], t["away"]))) for t in event["tables"]) == [("A", "B"), ("C", "D")]
