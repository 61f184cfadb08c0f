"""Issue 29, the arbiter's word through a real broker: the processors decide the feed's games and the
arbiter's commands with the same deciders as the embedded store. Where the profile says the
arbiter confirms (``feed_results="arbiter"``), a result the feed reported is the board's result
only once the arbiter confirms it; a result the arbiter entered stands over a later feed result;
a feed that flips a result it reported raises a ``FeedProblemReported`` for the arbiter and the
board's result is not touched. A feed resending an unchanged game (alone in its batch) is nothing
new, and the processors go on judging (it once stopped their agent: ``tests/unit/test_feed_judge.py``)."""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from olympiad.cmd_live import LivePipeline
from producers.doors import KafkaDoor
from producers.sources import IMPORTER
from schemas import game_ids
from schemas.commands import ImportFacts, RecordResult
from schemas.game_commands import ConfirmResults, ReportGame
from tests.factories import TID
from tests.feed_games import ARBITER, FEED, VIDIT_MAKOTO, feed_store, later, snapshot

pytestmark = pytest.mark.integration


def test_the_arbiters_word_over_the_feed_through_kafka(kafka_bootstrap: str, fresh_database: Any) -> None:
    prefix = f"a{uuid.uuid4().hex[:10]}."
    with LivePipeline(kafka_bootstrap, prefix, fresh_database()) as pipeline:
        door = KafkaDoor(kafka_bootstrap, prefix, wait=60)
        ticks = iter(range(1, 100))

        def feed(white: str, black: str, moves: list[str], result: str, game: str) -> Any:
            return door.submit(ReportGame(tournament_id=TID, actor=FEED, issued_at=later(next(ticks)), source="round-1.pgn",
                                          game=snapshot(white, black, moves, result, game=game)))

        def arbiter(command: type, **fields: Any) -> Any:
            return door.submit(command(tournament_id=TID, actor=ARBITER, round=1, table=1, **fields))

        try:
            setup = door.submit(ImportFacts(tournament_id=TID, actor=IMPORTER, source="feed test",
                                            facts=list(feed_store(feed_results="arbiter").events())))
            assert setup.accepted, setup.text()

            # a reported result waits for the arbiter, who confirms it
            reported = feed("A player 1", "C player 1", VIDIT_MAKOTO, "1-0", "round-1.pgn#1")
            assert reported.accepted and f"{TID}/r1/t1/b1" not in reported.event_ids, reported.text()
            assert game_ids.ended(TID, 1, 1, 1, "1-0", 62) in reported.event_ids
            confirmed = arbiter(ConfirmResults, board=1)
            assert confirmed.accepted and confirmed.event_ids == (f"{TID}/r1/t1/b1",), confirmed.text()

            # the same game again, alone: nothing new, and the processors still answer
            resent = feed("A player 1", "C player 1", VIDIT_MAKOTO, "1-0", "round-1.pgn#1")
            assert (resent.accepted, resent.already_recorded, resent.event_ids) == (True, True, ()), resent.text()

            # the arbiter's result stands over a later feed result
            entered = arbiter(RecordResult, board=2, result="0-1")
            assert entered.accepted, entered.text()
            late = feed("C player 2", "A player 2", VIDIT_MAKOTO[:30], "1-0", "round-1.pgn#2")
            assert late.accepted and f"{TID}/r1/t1/b2" not in late.event_ids, late.text()
            refused = arbiter(ConfirmResults, board=2)
            assert (refused.accepted, refused.rule) == (False, "the arbiter's result wins over the feed"), refused.text()

            # a feed that flips its result raises a problem for the arbiter; the board keeps its result
            flipped = feed("A player 1", "C player 1", VIDIT_MAKOTO, "0-1", "round-1.pgn#1")
            assert flipped.accepted, flipped.text()
            [problem_id] = [i for i in flipped.event_ids if "/feed/result-flipped/" in i]
            state, _ = door.log(TID, problem_id, timeout=60)
            assert {k: v[1] for k, v in state.results.items()} == {(1, 1, 1): "1-0", (1, 1, 2): "0-1"}
            problem = state.applied[problem_id]
            assert (problem.kind, problem.result, problem.round, problem.table, problem.board) == ("result-flipped", "0-1", 1, 1, 1)
            assert "the feed reported 1-0" in problem.reason and "now says 0-1" in problem.reason
            assert state.feed.games[(1, 1, 1)].changed_to == "0-1"
            assert not arbiter(ConfirmResults, board=1).accepted  # the arbiter enters it (RecordResult), never a confirm
        finally:
            door.close()
        pipeline.check()
