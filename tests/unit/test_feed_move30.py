"""Issue 29, acceptance 2: the draw-offer rule (R-D6, founding document points 10-11) seen in the
moves of a live feed, and the arbiter's result over the feed's."""
from __future__ import annotations

from producers.doors import EmbeddedDoor
from projections.audit import trail
from schemas import game_ids
from schemas.commands import CorrectResult, RecordResult
from schemas.game_commands import ConfirmResults
from tests.factories import TID
from tests.feed_games import (
    AGREED_AT_20, ARBITER, LOYD_STALEMATE, THREEFOLD_AT_20, VIDIT_MAKOTO, feed_store, later, report, snapshot,
)


def drawn(moves, **profile):
    """A store where the feed reported A player 1 v C player 1 drawn after ``moves``."""
    store = feed_store(**profile)
    outcome = report(store, snapshot("A player 1", "C player 1", moves, "1/2-1/2"))
    assert outcome.accepted, outcome.text()
    return store


def test_a_draw_agreed_at_move_20_is_flagged_with_the_rule_and_its_source_and_the_result_stands():
    store = drawn(AGREED_AT_20)
    flag = store.state.applied[game_ids.draw_offer(TID, 1, 1, 1)]
    assert (flag.ply, flag.threshold_ply, flag.rule) == (40, 60, "no draw offers before Black's 30th move")
    assert "points 10-11" in flag.rule_source
    assert store.state.results[(1, 1, 1)][1] == "1/2-1/2"
    assert [e.type for e in store.events()][-5:] == ["GameStarted", "GameProgressed", "GameEnded", "DrawOfferRuleFlagged",
                                                     "BoardResultRecorded"]


def test_threefold_at_move_20_stalemate_and_a_draw_after_move_30_are_not_flagged():
    for moves in (THREEFOLD_AT_20, LOYD_STALEMATE, VIDIT_MAKOTO):
        store = drawn(moves)
        assert store.state.feed.draw_flags == {}, moves[-1]
        assert store.state.results[(1, 1, 1)][1] == "1/2-1/2"


def test_the_31st_move_rule_flags_a_draw_at_black_30_and_no_rule_flags_nothing():
    assert (1, 1, 1) in drawn(VIDIT_MAKOTO[:60], draw_offers="move-31").state.feed.draw_flags
    assert (1, 1, 1) not in drawn(VIDIT_MAKOTO[:60]).state.feed.draw_flags  # black-30: ply 60 is allowed
    assert drawn(AGREED_AT_20, draw_offers="none").state.feed.draw_flags == {}


def test_a_result_entered_by_the_arbiter_over_a_feed_result_stands():
    store = feed_store(feed_results="arbiter")
    door = EmbeddedDoor(store)
    assert report(store, snapshot("A player 1", "C player 1", AGREED_AT_20, "1/2-1/2")).accepted
    assert (1, 1, 1) not in store.state.results  # reported, not yet the board's result
    entered = door.submit(RecordResult(tournament_id=TID, actor=ARBITER, round=1, table=1, board=1, result="1-0"))
    assert entered.accepted, entered.text()
    refused = door.submit(ConfirmResults(tournament_id=TID, actor=ARBITER, round=1, table=1, board=1))
    assert not refused.accepted and refused.rule == "the arbiter's result wins over the feed"
    report(store, snapshot("A player 1", "C player 1", AGREED_AT_20, "1/2-1/2"), at=later(10))
    assert store.state.results[(1, 1, 1)][1] == "1-0"


def test_an_automatic_feed_result_corrected_by_the_chief_arbiter_stays_corrected():
    store = feed_store()
    assert report(store, snapshot("A player 1", "C player 1", VIDIT_MAKOTO, "1-0")).accepted
    assert store.state.results[(1, 1, 1)][1] == "1-0"
    chief = ARBITER.model_copy(update={"role": "chief", "id": "chief"})
    fixed = EmbeddedDoor(store).submit(CorrectResult(tournament_id=TID, actor=chief, round=1, table=1, board=1,
                                                     result="1/2-1/2", reason="the scoresheets say draw"))
    assert fixed.accepted, fixed.text()
    again = report(store, snapshot("A player 1", "C player 1", VIDIT_MAKOTO, "1-0"), at=later(5))
    assert again.accepted and again.already_recorded
    assert store.state.results[(1, 1, 1)][1] == "1/2-1/2"


def test_the_arbiter_confirms_a_reported_result_per_board_and_per_match():
    store = feed_store(feed_results="arbiter")
    door = EmbeddedDoor(store)
    report(store, snapshot("A player 1", "C player 1", VIDIT_MAKOTO, "1-0"))
    report(store, snapshot("C player 2", "A player 2", VIDIT_MAKOTO[:10], "0-1", game="round-1.pgn#2"))
    one = door.submit(ConfirmResults(tournament_id=TID, actor=ARBITER, round=1, table=1, board=1))
    assert one.accepted and one.event_ids == (f"{TID}/r1/t1/b1",)
    match = door.submit(ConfirmResults(tournament_id=TID, actor=ARBITER, round=1, table=1))
    assert match.accepted and match.event_ids == (f"{TID}/r1/t1/b2",)
    assert {k: v[1] for k, v in store.state.results.items()} == {(1, 1, 1): "1-0", (1, 1, 2): "0-1"}
    nothing = door.submit(ConfirmResults(tournament_id=TID, actor=ARBITER, round=1, table=2))
    assert not nothing.accepted and nothing.field == "table"


def test_the_flag_is_in_the_audit_trail_with_its_rule_and_source():
    actions = [a for a in trail(drawn(AGREED_AT_20).state) if a.what.startswith("draw-offer flag")]
    assert [(a.round, a.what, a.who) for a in actions] == [(1, "draw-offer flag: table 1 board 1 drawn after 40 plies (threshold 60)",
                                                            "feed-test")]
    assert actions[0].reason.startswith("no draw offers before Black's 30th move; R-D6: founding document points 10-11")
