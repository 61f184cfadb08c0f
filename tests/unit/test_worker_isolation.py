"""Issue 12: the projection worker dead-letters an event it cannot project and goes on.

``Projector.apply_batch`` over SQLite (the PostgreSQL column cases are in
``tests/integration/test_worker_postgres.py``): one tournament's bad event never stops another's,
the valid events around it are projected, the stored positions move past it, and a restart
(a new ``Projector`` on the same database) meets nothing that stops it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import sqlalchemy as sa

from projections.store import events_table, standings_documents, teams_table
from projections import projector as worker
from projections.projector import Projector, offsets_table
from projections.worker import log_partition, make_engine
from schemas.canonical import canonical_json
from tests.factories import board, four_team_round_one, team

TOPIC = "tournament-log"


@dataclass(frozen=True)
class Record:
    """The fields of a kafka-python ``ConsumerRecord`` the projector reads."""

    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes
    headers: tuple[tuple[str, bytes], ...] = ()


def as_tournament(events: list, tid: str) -> list[bytes]:
    """The canonical JSON of ``events`` moved to tournament ``tid`` (event ids made unique too)."""
    out = []
    for e in events:
        body = json.loads(canonical_json(e))
        body.update(tournament_id=tid, event_id=f"{tid}/{body['event_id']}")
        out.append(json.dumps(body).encode())
    return out


def records(values: list[bytes], partition: int, start: int = 0) -> list[Record]:
    return [Record(TOPIC, partition, start + i, b"k", v) for i, v in enumerate(values)]


def stored(engine, table, tid: str) -> int:
    with engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table).where(table.c.tournament_id == tid)).scalar()


def bad_registration(tid: str) -> bytes:
    body = json.loads(canonical_json(team("E", 5)))
    body.update(tournament_id=tid, event_id=f"{tid}/team/E")
    return json.dumps(body).encode()


def test_a_bad_event_is_dead_lettered_and_the_other_tournament_goes_on(tmp_path, monkeypatch):
    real_team_rows = worker.team_rows

    def team_rows(state):  # a registration the read model cannot hold (as the pairing number 99 of 5 teams once)
        if "E" in state.teams:
            raise ValueError("pairing numbers must be 1..N without gaps or repeats")
        return real_team_rows(state)

    monkeypatch.setattr(worker, "team_rows", team_rows)
    engine = make_engine(f"sqlite:///{tmp_path / 'w.sqlite'}")
    projector = Projector(engine, "test")
    good, bad = four_team_round_one(), four_team_round_one()
    a = records(as_tournament(good, "a-open"), 0)
    b_values = as_tournament(bad[:5], "b-open") + [bad_registration("b-open")] + as_tournament(bad[5:], "b-open")
    b = records(b_values, 1)
    snapshots = projector.apply_batch(a + b)
    # Tournament a is whole; tournament b has everything but the bad registration.
    assert stored(engine, events_table, "a-open") == len(good)
    assert stored(engine, events_table, "b-open") == len(bad)
    assert stored(engine, teams_table, "b-open") == 4
    assert {s.tournament_id for s in snapshots} == {"a-open", "b-open"}
    assert stored(engine, standings_documents, "b-open") == 1
    assert len(projector.dead_letters) == 1
    letter = json.loads(projector.dead_letters[0])
    assert (letter["partition"], letter["offset"]) == (1, 5)
    assert "pairing numbers" in letter["reason"] and letter["rule"]
    # The positions moved past the bad event; a restart loads and goes on.
    with engine.connect() as conn:
        assert {r.partition: r.next_offset for r in conn.execute(sa.select(offsets_table))} == {0: len(a), 1: len(b)}
    again = Projector(engine, "test")
    more = records(as_tournament([board(2, 1, 1, "1-0")], "b-open"), 1, len(b))
    again.apply_batch(more)  # round 2 is not paired: its match cannot be projected; dead-lettered, nothing stops
    assert len(again.dead_letters) == 1 and json.loads(again.dead_letters[0])["offset"] == len(b)
    assert stored(engine, events_table, "b-open") == len(bad)


def test_an_unreadable_record_is_dead_lettered_alone(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'w.sqlite'}")
    projector = Projector(engine, "test")
    values = as_tournament(four_team_round_one(), "a-open")
    poison = [b'{"type": ["TeamRegistered"]}', b"\xff", b"[" * 100_000]
    batch = records(values[:3] + poison + values[3:], 0)
    projector.apply_batch(batch)
    assert stored(engine, events_table, "a-open") == len(values)
    assert [json.loads(d)["offset"] for d in projector.dead_letters] == [3, 4, 5]


def test_a_stored_event_that_no_longer_applies_does_not_stop_a_restart(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'w.sqlite'}")
    projector = Projector(engine, "test")
    projector.apply_batch(records(as_tournament(four_team_round_one(), "a-open"), 0))
    with engine.begin() as conn:  # what an older, looser build may have stored
        conn.execute(sa.insert(events_table), {"event_id": "junk", "tournament_id": "a-open", "type": "X",
                                               "schema_version": 1, "body": '{"type": "BoardResultRecorded", "round": true}'})
    again = Projector(engine, "test")
    assert len(again.tournaments["a-open"].state.teams) == 4
    assert [s.tournament_id for s in again.latest_standings(TOPIC, log_partition)] == ["a-open"]


def test_a_group_member_rebuilds_only_the_tournaments_of_its_partitions(tmp_path):
    # Issue 32: workers of one group share a database; on an assignment each rebuilds the state
    # of the tournaments on its partitions from the stored events, and only those.
    engine = make_engine(f"sqlite:///{tmp_path / 'w.sqlite'}")
    first = Projector(engine, "test")
    for tid in ("a-open", "b-open", "c-open"):
        first.apply_batch(records(as_tournament(four_team_round_one(), tid), log_partition(tid)))
    other = Projector(engine, "test", load=False)
    assert other.tournaments == {}
    mine = {log_partition("b-open")}
    other.load_only(lambda tid: log_partition(tid) in mine)
    assert set(other.tournaments) == {t for t in ("a-open", "b-open", "c-open") if log_partition(t) in mine}
    assert other.tournaments["b-open"].state.teams == first.tournaments["b-open"].state.teams
    assert set(other.tournaments["b-open"].state.applied) == set(first.tournaments["b-open"].state.applied)
    other.load_only(lambda tid: False)  # every partition revoked
    assert other.tournaments == {}
