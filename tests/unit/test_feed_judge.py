"""Issue 29 on the processors: a feed resends whole games, so the judge sees a game snapshot it has
already recorded again and again. The resend is an identical retry that yields nothing: accepted,
no event, and no store entry (an empty entry reached ``processors.app.judge_batch`` for a
tournament no event of the batch named, whose changelog partition it looks up by those events:
``KeyError``, and the agent stopped)."""
from __future__ import annotations

from processors.judge import Judge, judge_message
from schemas.canonical import canonical_json
from schemas.game_commands import ReportGame
from tests.factories import TID
from tests.feed_games import FEED, VIDIT_MAKOTO, feed_store, later, snapshot
from tests.kafka_messages import imported

KEY = TID.encode()


def batch(judge: Judge, store: dict, messages: list[bytes]) -> list:
    """Judge ``messages`` as one batch and commit it to ``store`` as ``processors.app.judge_batch``
    does: every committed tournament's changelog partition is that of an accepted event of the
    batch (a ``KeyError`` there is the crash this module guards)."""
    verdicts = [judge_message(judge, raw, KEY) for raw in messages]
    partitions = {e.tournament_id: 0 for v in verdicts for e in v.events}
    for tid, key, value in judge.commit():
        assert partitions[tid] == 0
        store[key] = value
    return verdicts


def game(moves: list[str], result: str, tick: int) -> bytes:
    """The message of the feed's ``ReportGame``: A player 1 v C player 1 after ``moves``."""
    command = ReportGame(tournament_id=TID, actor=FEED, issued_at=later(tick), source="round-1.pgn", command_id=f"c{tick}",
                         game=snapshot("A player 1", "C player 1", moves, result))
    return canonical_json(command).encode()


def test_a_resent_unchanged_game_is_accepted_with_no_event_and_no_store_entry():
    store: dict = {}
    judge = Judge(store)
    [setup] = batch(judge, store, [imported(*feed_store().events())])
    assert setup.accepted, setup.reason
    [started] = batch(judge, store, [game(VIDIT_MAKOTO[:10], "*", 1)])
    [ended] = batch(judge, store, [game(VIDIT_MAKOTO, "1-0", 2)])
    assert [e.type for e in started.events] == ["GameStarted", "GameProgressed"]
    assert [e.type for e in ended.events] == ["GameProgressed", "GameEnded", "BoardResultRecorded"]
    entries = dict(store)
    for tick in (3, 4):  # the feed's next polls show the same ended game
        [again] = batch(judge, store, [game(VIDIT_MAKOTO, "1-0", tick)])
        assert (again.accepted, again.already_recorded, again.events, again.reason) == (True, True, (), "")
    assert store == entries and judge.pending == {}
    judge.forget()  # rebuilt from the store (a restart): the resend is still nothing new
    [after_restart] = batch(judge, store, [game(VIDIT_MAKOTO, "1-0", 5)])
    assert (after_restart.accepted, after_restart.events) == (True, ())
    assert store == entries and judge.state(TID).results[(1, 1, 1)][1] == "1-0"


def test_a_resent_game_in_a_batch_with_new_events_commits_only_those():
    store: dict = {}
    judge = Judge(store)
    batch(judge, store, [imported(*feed_store().events())])
    batch(judge, store, [game(VIDIT_MAKOTO[:10], "*", 1)])
    before = len(store)
    resent, moved = batch(judge, store, [game(VIDIT_MAKOTO[:10], "*", 2), game(VIDIT_MAKOTO[:20], "*", 3)])
    assert resent.events == () and [e.event_id for e in moved.events] == [f"{TID}/r1/t1/b1/game/ply20"]
    assert len(store) == before + 1
