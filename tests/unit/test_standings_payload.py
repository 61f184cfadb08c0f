"""What the projection worker writes and publishes per standings update, built from each line's
texts (``TeamLine.summary_parts``, ``TeamLine.tiebreaks_text``, ``StandingRow.canonical``) instead
of per update: byte for byte what the plain path gives (``canonical_json`` of the standings
document and of ``standings_event(snap)``, the ``standings`` rows with every text formatted again), on the real Samarkand 2026 Open after results all through the
tournament (memos warm, as in the worker), and on a C.07 profile whose type A tie-breaks are
valued per tied group.
"""
from __future__ import annotations

import json

import sqlalchemy as sa

from bench.bench_worker_standings import Record, batches
from processors.tournament import TournamentState
from producers.sources import load_source
from projections.memo import clear_memos
from projections.projector import Projector, Snapshot, offsets_table, standings_event, standings_payload
from projections.replay import RoundStandings, standings_after
from projections.standings.catalogue import value_text
from projections.store import matches_table, standings_documents, standings_rows, standings_table
from projections.worker import make_engine
from schemas.canonical import canonical_json
from schemas.events import BoardResultCorrected
from schemas.points import fmt_points
from tests.unit.test_c07_tiebreaks import PROFILE, events as c07_events


def plain_rows(tid: str, st: RoundStandings) -> list[dict]:
    """The ``standings`` rows as formatted from the values on every call (before the line's texts)."""
    return [{"tournament_id": tid, "round": st.round, "team_id": row.team_id, "rank": row.rank, "mp": row.mp,
             "gp": fmt_points(row.gp), "tiebreaks": json.dumps({k: value_text(v) for k, v in row.tiebreaks.items()}, sort_keys=True)}
            for row in st.rows]


def check(state: TournamentState) -> int:
    """Compare both outputs for the last paired round of ``state``; the number of rows compared."""
    st = standings_after(state, max(state.rounds))
    snap = Snapshot(state.tournament_id, st, "0:1")
    assert st.canonical == canonical_json(st.document)  # the document from its rows' held texts
    assert standings_payload(snap) == canonical_json(standings_event(snap))
    assert standings_rows(state.tournament_id, st) == plain_rows(state.tournament_id, st)
    return len(st.rows)


def test_samarkand_payload_and_rows_equal_the_plain_ones_all_through():
    clear_memos()
    state = TournamentState()
    compared = results = 0
    for event in load_source("samarkand-2026-open"):
        state.evolve(event)
        if event.type in ("BoardResultRecorded", "BoardResultCorrected", "MatchForfeited"):
            results += 1
            if results % 97 == 0:  # some fifty points spread over every round, the memos warm between them
                compared += check(state)
    assert results > 4500 and compared >= 46 * 206
    assert check(state) == 206  # the final standings (round 11 complete)


def test_c07_group_values_payload_and_rows_equal_the_plain_ones():
    profile = PROFILE.model_copy(update={"tiebreaks": ("EDET", "TBR", "EMGSB/C1", "BC")})
    state = TournamentState()
    for event in c07_events(profile):
        state.evolve(event)
    st = standings_after(state, 4)
    assert any(row.group_values for row in st.rows)  # the type A values are the group's, not the line's
    assert check(state) == 5


def test_projector_updating_only_changed_rows_leaves_the_read_model_a_fresh_write_gives():
    """``Projector.apply_batch`` one result at a time (the rows and documents it wrote before are
    updated, the changed ones only; positions and matches updated in place) through round 2 of
    the Samarkand Open, then a correction of round 1 (its standings fixed: round 2's change): the tables hold what a new projector writes from nothing."""
    events = load_source("samarkand-2026-open")
    end = next(i for i, e in enumerate(events) if e.type == "RoundPaired" and e.round == 3)
    log = events[:end]
    state = TournamentState()
    for event in log:
        state.evolve(event)
    supersedes, code = state.results[(1, 1, 1)][0], state.results[(1, 1, 1)][1]
    log.append(BoardResultCorrected(event_id=f"{state.tournament_id}/r1/t1/b1/correction/1", tournament_id=state.tournament_id,
                                    supersedes=supersedes, round=1, table=1, board=1,
                                    result="0-1" if code != "0-1" else "1-0", reason="test"))
    engine = make_engine("sqlite://")
    projector = Projector(engine, "test")
    offset = 0
    for batch in batches(log, 1):
        records = []
        for event in batch:
            records.append(Record("tournament-log", 0, offset, canonical_json(event).encode()))
            offset += 1
        projector.apply_batch(records)
    fresh = make_engine("sqlite://")
    Projector(fresh, "test").apply_batch([Record("tournament-log", 0, i, canonical_json(e).encode()) for i, e in enumerate(log)])

    def dump(eng: sa.Engine) -> list:
        with eng.connect() as conn:
            return [sorted(tuple(r) for r in conn.execute(sa.select(t))) for t in (standings_table, standings_documents, matches_table, offsets_table)]

    stored, expected = dump(engine), dump(fresh)
    assert len(stored[0]) == 2 * 206 and len(stored[1]) == 2 and stored[3] == [("test", "tournament-log", 0, len(log))]
    assert stored == expected
