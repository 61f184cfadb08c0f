"""Issue 12: on PostgreSQL, an event whose values its columns cannot hold (a federation code longer
than its column, a name longer than its column, a NUL character) is dead-lettered by the
projection worker, and the other tournaments of the batch, and the valid events of its own, go on.

The input limits of ``schemas.limits`` refuse these at every door; the worker must survive them
all the same (a log written by an older build, a topic written by hand).
"""
from __future__ import annotations

import json

import pytest

from projections.store import events_table, teams_table
from projections.projector import Projector
from projections.worker import make_engine
from schemas.canonical import canonical_json
from tests.factories import four_team_round_one, team
from tests.unit.test_worker_isolation import as_tournament, records, stored

pytestmark = pytest.mark.integration


def registration(tid: str, **change) -> bytes:
    body = json.loads(canonical_json(team("E", 5)))
    body.update(tournament_id=tid, event_id=f"{tid}/team/E", **change)
    return json.dumps(body).encode()


@pytest.mark.parametrize("change", [{"federation": "FEDERATION-CODE"}, {"name": "N" * 300}, {"name": "Team\u0000E"}],
                         ids=["federation too long", "name too long", "NUL"])
def test_a_value_the_column_cannot_hold_is_dead_lettered(fresh_database, change):
    engine = make_engine(fresh_database())
    if engine.dialect.name != "postgresql":
        pytest.fail("DATABASE_URL must name a PostgreSQL server for this test")
    projector = Projector(engine, "test")
    events = four_team_round_one()
    a = records(as_tournament(events, "a-open"), 0)
    b_values = as_tournament(events[:5], "b-open") + [registration("b-open", **change)] + as_tournament(events[5:], "b-open")
    projector.apply_batch(a + records(b_values, 1))
    assert stored(engine, events_table, "a-open") == len(events)
    assert stored(engine, events_table, "b-open") == len(events)
    assert stored(engine, teams_table, "b-open") == 4
    assert [json.loads(d)["offset"] for d in projector.dead_letters] == [5]
    again = Projector(engine, "test")  # a restart loads what was stored
    assert len(again.tournaments["b-open"].state.teams) == 4
    engine.dispose()
