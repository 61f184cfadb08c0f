"""The memos behind the per-batch standings and proposals (``projections.memo``): whatever the
order of computations, a memoised result equals the one computed from nothing.

The projection worker takes the standings of the last paired round after every batch; these
tests fold the real Samarkand 2026 Open the same way, warm every memo, then correct earlier
rounds and compare with a computation after ``clear_memos`` (and with a state rebuilt from the
events, whose objects are equal copies of the memoised ones).
"""
from __future__ import annotations

import json

import pytest

from processors.tournament import TournamentState
from projections.memo import SlotMemo, clear_memos
from projections.pairing.read_model import next_round_proposal
from projections.replay import standings_after
from producers.sources import load_source
from projections.store import standings_rows
from schemas.canonical import canonical_json
from schemas.events import BoardResultCorrected, BoardResultRecorded, parse_event
from tests import factories as f


def outputs(state: TournamentState, rnd: int) -> tuple[str, str, str]:
    """Everything the worker writes and publishes for round ``rnd``: the canonical standings
    document, the ``standings`` rows and the next round's proposal."""
    st = standings_after(state, rnd)
    proposal = next_round_proposal(state)
    return (st.canonical, json.dumps(standings_rows(state.tournament_id, st)),
            canonical_json(proposal) if proposal is not None else "none")


def fresh(state: TournamentState, rnd: int) -> tuple[str, str, str]:
    clear_memos()
    return outputs(state, rnd)


def rebuilt(events: list) -> TournamentState:
    """A state folded from copies of ``events`` (parsed again from their JSON: equal, not the same objects)."""
    state = TournamentState()
    for event in events:
        state.evolve(parse_event(canonical_json(event)))
    return state


def correction(state: TournamentState, rnd: int, table: int, board: int, result: str, n: int) -> BoardResultCorrected:
    supersedes = state.results[(rnd, table, board)][0]
    return BoardResultCorrected(event_id=f"{state.tournament_id}/r{rnd}/t{table}/b{board}/correction/{n + 1}", tournament_id=state.tournament_id,
                                supersedes=supersedes, round=rnd, table=table, board=board, result=result, reason="test")


@pytest.fixture(scope="module")
def samarkand() -> list:
    """The Samarkand events through the last result of round 4 (the pairing of round 5 left out)."""
    events = load_source("samarkand-2026-open")
    end = next(i for i, e in enumerate(events) if e.type == "RoundPaired" and e.round == 5)
    return events[:end]


def test_slot_memo_recomputes_on_changed_inputs_only() -> None:
    memo: SlotMemo[str] = SlotMemo(2)
    calls = []

    def compute(value: str):
        return lambda: calls.append(value) or value

    assert memo.get("a", (1, [2]), compute("x")) == "x"
    assert memo.get("a", (1, [2]), compute("y")) == "x"  # equal inputs (another list): held value
    assert memo.get("a", (1, [3]), compute("z")) == "z"  # changed input: recomputed
    assert memo.get("b", (1, [3]), compute("w")) == "w"  # another slot: its own value
    assert calls == ["x", "z", "w"]
    memo.get("c", (), compute("v"))  # a third slot beyond the bound empties the memo
    assert len(memo) == 1
    assert memo.get("a", (1, [3]), compute("u")) == "u"


def test_worker_batches_then_corrections_to_earlier_rounds_match_a_fresh_computation(samarkand) -> None:
    state = TournamentState()
    results = 0
    for event in samarkand:
        state.evolve(event)
        results += isinstance(event, BoardResultRecorded)
        if state.rounds and results % 25 == 0:  # the worker: standings of the last paired round after each batch
            outputs(state, max(state.rounds))
    warm = outputs(state, 4)
    assert warm == fresh(state, 4)
    assert warm[2] != "none"  # round 4 is complete: a round-5 proposal exists and is compared too
    flips = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0", "+/-": "-/+", "-/+": "+/-", "-/-": "1-0"}
    applied = list(samarkand)
    for n, (rnd, table, board) in enumerate([(2, 1, 1), (1, 50, 3), (3, 7, 2), (2, 1, 1)]):
        outputs(state, 4)
        outputs(state, 3)  # an earlier round's standings between (the worker's snapshot at a pairing)
        before = outputs(state, 4)
        fix = correction(state, rnd, table, board, flips[state.results[(rnd, table, board)][1]], n)
        state.evolve(fix)
        applied.append(fix)
        after = outputs(state, 4)
        assert after != before  # the correction moved something (a flipped board changes a match's GP)
        assert after == fresh(state, 4)
        assert outputs(state, 3) == fresh(state, 3)
    assert outputs(rebuilt(applied), 4) == outputs(state, 4)  # equal copies of the memoised inputs: the same


def test_a_duplicate_fact_after_the_round_is_complete_reuses_the_proposal(samarkand) -> None:
    state = TournamentState()
    for event in samarkand:
        state.evolve(event)
    proposal = next_round_proposal(state)
    first = samarkand[-1]
    assert isinstance(first, BoardResultRecorded)
    # The same result entered again from a second terminal: already recorded, nothing the pairing reads changed.
    assert state.evolve(first.model_copy(update={"actor": "t2"})) is False
    assert next_round_proposal(state) is proposal


def test_tournaments_sharing_team_ids_and_profile_in_one_process() -> None:
    """Two small tournaments with the same id, teams and profile object, taken in turn: each
    gets its own standings, as computed from nothing."""
    common = [f.created(), *(f.team(c, n) for n, c in enumerate("ABCD", start=1)), f.paired(1, [("A", "C"), ("D", "B")])]
    one, two = TournamentState(), TournamentState()
    for event in common + f.match(1, 1, ("1-0", "0-1", "1-0", "1-0")) + f.match(1, 2, ("1/2-1/2", "1/2-1/2", "1-0", "1-0")):
        one.evolve(event)
    for event in common + f.match(1, 1, ("0-1", "1-0", "0-1", "0-1")) + f.match(1, 2, ("1-0", "0-1", "1-0", "1-0")):
        two.evolve(event)
    taken = [outputs(one, 1), outputs(two, 1), outputs(one, 1), outputs(two, 1)]
    assert taken[0] != taken[1]
    assert taken == [fresh(one, 1), fresh(two, 1)] * 2


def test_tournaments_sharing_team_ids_keep_their_own_memoised_lines() -> None:
    """Two tournaments with the same team ids and profile but other results (copies of an event
    at different points, a league's divisions), taken in turn: the second does not evict the
    first's lines, so taking the first again reuses every one of them (the same objects), and
    each still equals a fresh computation."""
    common = [f.created(), *(f.team(c, n) for n, c in enumerate("ABCD", start=1)), f.paired(1, [("A", "C"), ("D", "B")])]
    one, two = TournamentState(), TournamentState()
    for event in common + f.match(1, 1, ("1-0", "0-1", "1-0", "1-0")) + f.match(1, 2, ("1/2-1/2", "1/2-1/2", "1-0", "1-0")):
        one.evolve(event)
    for event in common + f.match(1, 1, ("0-1", "1-0", "0-1", "0-1")) + f.match(1, 2, ("1-0", "0-1", "1-0", "1-0")):
        two.evolve(event.model_copy(update={"tournament_id": "other-" + event.tournament_id, "event_id": "other-" + event.event_id}))
    clear_memos()
    first = standings_after(one, 1).rows
    standings_after(two, 1)
    again = standings_after(one, 1).rows
    assert all(a.line is b.line for a, b in zip(first, again))
    assert outputs(one, 1) == fresh(one, 1) and outputs(two, 1) == fresh(two, 1)
    assert outputs(one, 1) != outputs(two, 1)
