"""What the projection worker writes and publishes per standings update, built from each line's
texts (``TeamLine.summary_parts``, ``TeamLine.tiebreaks_text``, ``StandingRow.canonical``) instead
of per update: byte for byte what the plain path gives (``canonical_json`` of the standings
document and of ``standings_event(snap)``, the ``standings`` rows with every text formatted again), on the real Samarkand 2026 Open after results all through the
tournament (memos warm, as in the worker), and on a C.07 profile whose type A tie-breaks are
valued per tied group.
"""
from __future__ import annotations

import json

from processors.tournament import TournamentState
from producers.sources import load_source
from projections.memo import clear_memos
from projections.projector import Snapshot, standings_event, standings_payload
from projections.replay import RoundStandings, standings_after
from projections.standings.catalogue import value_text
from projections.store import standings_rows
from schemas.canonical import canonical_json
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
