"""The tournament rules that accept or refuse each event (``processors.rules``, judged as an import: ``ImportFacts``)."""
from __future__ import annotations

from decimal import Decimal

import pytest

from processors.tournament import RuleViolation, TournamentState
from schemas.events import BoardResultCorrected, MatchForfeited, TeamWithdrawn
from tests.factories import TID, board, created, four_team_round_one, judged, paired, team


def state_of(events) -> TournamentState:
    state = TournamentState()
    for e in events:
        judged(state, e)
    return state


def refused(state: TournamentState, event) -> RuleViolation:
    before = (dict(state.results), dict(state.rounds), dict(state.teams))
    with pytest.raises(RuleViolation) as info:
        judged(state, event)
    assert (dict(state.results), dict(state.rounds), dict(state.teams)) == before  # nothing half-applied
    return info.value


def test_a_team_paired_twice_in_a_round_is_refused():
    state = state_of([created(), *(team(c, n) for n, c in enumerate("ABCD", start=1))])
    exc = refused(state, paired(1, [("A", "B"), ("C", "A")]))
    assert (exc.field, exc.rule) == ("tables.1.away", "a team is paired once per round")


def test_rounds_are_paired_in_order_and_within_the_profile():
    state = state_of([created(), *(team(c, n) for n, c in enumerate("ABCD", start=1))])
    assert refused(state, paired(2, [("A", "B"), ("C", "D")])).rule == "rounds in order"
    assert refused(state, paired(12, [("A", "B"), ("C", "D")])).rule == "rounds of the profile"


def test_team_registration_needs_four_to_five_players_in_board_order():
    state = state_of([created()])
    short = team("A", 1).model_copy(update={"players": team("A", 1).players[:3]})
    assert refused(state, short).rule == "R-D1 team of 4 boards + 1 reserve"


def test_an_identical_second_entry_is_harmless_and_a_different_one_refused():
    state = state_of(four_team_round_one())
    assert judged(state, board(1, 1, 1, "1-0").model_copy(update={"actor": "second-terminal"})) is False
    assert state.match(1, 1).home_gp == Decimal(3)
    assert refused(state, board(1, 1, 1, "1/2-1/2").model_copy(update={"actor": "third-terminal"})).field == "result"


def test_a_correction_must_name_the_result_it_replaces():
    state = state_of(four_team_round_one())
    wrong = BoardResultCorrected(event_id="fix", tournament_id=TID, supersedes=f"{TID}/r1/t2/b1", round=1, table=1, board=1,
                                 result="0-1", reason="scoresheet")
    assert refused(state, wrong).field == "supersedes"


def test_a_forfeited_match_scores_four_nil_and_its_boards_can_be_corrected():
    events = [created(), *(team(c, n) for n, c in enumerate("ABCD", start=1)), paired(1, [("A", "C"), ("D", "B")])]
    state = state_of(events)
    judged(state, MatchForfeited(event_id=f"{TID}/r1/t2/forfeit", tournament_id=TID, round=1, table=2, winner="B", forfeit="absence", note="D did not arrive"))
    m = state.match(1, 2)
    assert (m.home_gp, m.away_gp, m.home_mp, m.away_mp, m.played) == (Decimal(0), Decimal(4), 0, 2, False)
    judged(state, BoardResultCorrected(event_id=f"{TID}/r1/t2/b1/correction/1", tournament_id=TID, supersedes=f"{TID}/r1/t2/forfeit", round=1, table=2, board=1,
                                     result="1/2-1/2", reason="board 1 was played after all"))
    m = state.match(1, 2)
    assert (m.home_gp, m.away_gp, m.played) == (Decimal("0.5"), Decimal("3.5"), True)


def test_withdrawn_team_is_not_paired_again():
    state = state_of([*four_team_round_one(), TeamWithdrawn(event_id=f"{TID}/team/D/withdrawn", tournament_id=TID, team_id="D", from_round=2)])
    assert refused(state, paired(2, [("A", "B"), ("C", "D")])).rule == "withdrawn teams are not paired"
    judged(state, paired(2, [("A", "B")], absent=("C", "D")))


def test_an_event_id_reused_for_different_content_is_refused():
    state = state_of(four_team_round_one())
    assert judged(state, board(1, 1, 1, "1-0")) is False  # the same event again: a no-op
    exc = refused(state, board(1, 1, 1, "0-1"))  # same id f"{TID}/r1/t1/b1", another result: the board's rule
    assert (exc.field, exc.rule) == ("result", "one result per board; changes go through a correction")
    squat = board(1, 1, 1, "1-0", event_id=f"{TID}/r1/t1/b2")  # board 1's result under board 2's id
    assert (refused(state, squat).field, refused(state, squat).rule) == ("event_id", "an event's id is derived from its content")


def test_a_second_tournament_in_a_log_is_refused_naming_the_one_it_holds():
    from processors.deciders import handle
    from schemas.commands import parse_command

    state = state_of([created()])
    command = parse_command({"command": "CreateTournament", "tournament_id": "other-cup", "name": "Other Cup",
                             "actor": {"role": "chief", "id": "chief"}, "profile": "olympiad-2022"})
    with pytest.raises(RuleViolation) as info:
        handle(state, command)
    assert str(info.value) == (f"tournament_id: this log already holds the tournament {TID!r} (Test Open); create "
                               "'other-cup' in a store of its own [rule: one tournament per log]")
    assert state.tournament_id == TID and state.created.name == "Test Open"
    same = parse_command({"command": "CreateTournament", "tournament_id": TID, "name": "Test Open again",
                          "actor": {"role": "chief", "id": "chief"}, "profile": "olympiad-2022"})
    with pytest.raises(RuleViolation) as info:
        handle(state, same)  # the same tournament again, other facts: created once
    assert (info.value.field, info.value.rule) == ("type", "created once")
