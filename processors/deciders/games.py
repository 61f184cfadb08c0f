"""A live game feed's commands (issue 29): a game's snapshot, a bad feed, the arbiter's word.

``report`` decides a ``ReportGame``: the game is mapped to its board (``game_mapping``); the
first snapshot yields ``GameStarted``; a snapshot with more moves a ``GameProgressed`` (one per
command: at most one per game per poll); a result other than ``*`` a ``GameEnded``, the reported
result. Where the profile says ``feed_results="automatic"`` the reported result is recorded as
the board's result at once (``BoardResultRecorded``), unless the board has one: the arbiter's
result always wins. A drawn game that breaks the profile's draw-offer rule is flagged
(``DrawOfferRuleFlagged``, R-D6; the result stands); a board whose player has made no move past
the profile's default time after the round's clocks started is listed as a possible late
arrival (``LateArrivalSuspected``, R-D5; the arbiter decides with ``RecordForfeit``).

What a feed gets wrong is never refused silently nor overwritten: a game that maps to no board, a
second game on a board, a result the feed changed after it reported it each yield a
``FeedProblemReported`` (the arbiter's page names it; the event keeps its text as the dead letter)
and the feed goes on. ``confirm`` decides the arbiter's ``ConfirmResults``.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import processors.deciders.identity as identity
from processors.deciders.draw_claims import RULE_TEXT, THRESHOLD_PLY, IllegalMove, breaks_draw_offer_rule
from processors.deciders.game_mapping import map_game
from processors.deciders.results import board_result
from processors.rules import board_key
from processors.tournament import RuleViolation, TournamentState
from schemas import game_ids
from schemas.canonical import canonical_json
from schemas.game_events import (
    FEED_PROBLEM_RULES, DrawOfferRuleFlagged, FeedProblemReported, GameEnded, GameProgressed, GameStarted, LateArrivalSuspected,
    copy_fields,
)


def report(state: TournamentState, c: Any) -> list[Any]:
    """``ReportGame`` -> the game's events (module docstring), or one ``FeedProblemReported``.
    Raises ``RuleViolation`` for a round not published yet (field ``game.round``: not a problem of
    the feed, which sends the game again) and for a move that is not legal (field ``game.moves``)."""
    g = c.game
    try:
        rnd, table, board = map_game(state, g)
    except RuleViolation as exc:
        if exc.field == "game.round":  # a round not published yet: refused, the feed sends it again once it is
            raise
        return [_problem(c, "unmapped-game", str(exc), exc.rule, (g.round, g.white, g.black, g.white_fide_id, g.black_fide_id))]
    t, key = c.tournament_id, (rnd, table, board)
    where = {"round": rnd, "table": table, "board": board}
    stamp = identity.stamp(c)
    on_board = state.feed.games.get(key)
    events: list[Any] = []
    if on_board is None:
        events.append(GameStarted(event_id=game_ids.game(t, *key), **stamp, **where, white=g.white, black=g.black,
                                  source=c.source, game=g.game))
    elif (on_board.white, on_board.black) != (g.white, g.black):
        return [_problem(c, "board-claimed-twice", f"round {rnd} table {table} board {board} holds {on_board.white} v "
                         f"{on_board.black} ({on_board.game}); {g.white} v {g.black} ({g.game}) claims it too",
                         FEED_PROBLEM_RULES["board-claimed-twice"][1], (key, g.white, g.black, g.game), where)]
    ply = len(g.moves)
    if on_board is None or ply > on_board.ply:
        events.append(GameProgressed(event_id=game_ids.progress(t, *key, ply), **stamp, **where, ply=ply,
                                     last_move=g.moves[-1] if g.moves else "", fen=g.fen, white_clock=g.white_clock,
                                     black_clock=g.black_clock))
    if g.result != "*":
        events.extend(_ended(state, c, key, where, ply, on_board))
    elif ply < 2:
        events.extend(_late(state, c, key, where, ply, on_board))
    return events


def _ended(state: TournamentState, c: Any, key: tuple[int, int, int], where: dict, ply: int, on_board: Any) -> list[Any]:
    """The events of a game whose snapshot has a result: its end, the draw-offer flag and the
    board result (automatic confirmation) the first time; a problem when the result changed."""
    g, t, stamp = c.game, c.tournament_id, identity.stamp(c)
    if on_board is not None and on_board.reported is not None:
        if g.result in (on_board.reported, on_board.changed_to):
            return []
        return [_problem(c, "result-flipped", f"the feed reported {on_board.reported} on round {key[0]} table {key[1]} "
                         f"board {key[2]} after {on_board.reported_ply} plies and now says {g.result}: the board's result "
                         "is not changed; the arbiter decides", FEED_PROBLEM_RULES["result-flipped"][1],
                         (key, on_board.reported, g.result), where, result=g.result)]
    events: list[Any] = [GameEnded(event_id=game_ids.ended(t, *key, g.result, ply), **stamp, **where, result=g.result, ply=ply)]
    rule = state.profile.draw_offers
    if g.result == "1/2-1/2":
        try:
            flagged = breaks_draw_offer_rule(rule, g.moves)
        except IllegalMove as exc:
            raise RuleViolation(f"{g.game}: {exc}", field=f"game.moves.{exc.index}", rule="a game's moves are legal") from None
        if flagged:
            events.append(DrawOfferRuleFlagged(event_id=game_ids.draw_offer(t, *key), **stamp, **where, ply=ply,
                                               threshold_ply=THRESHOLD_PLY[rule], rule=RULE_TEXT[rule],
                                               rule_source=state.profile.draw_offers_source))
    if state.profile.feed_results == "automatic" and key not in state.results:
        events.append(board_result(state, _at(c, key), key[2], g.result))
    return events


def _late(state: TournamentState, c: Any, key: tuple[int, int, int], where: dict, ply: int, on_board: Any) -> list[Any]:
    """A possible late arrival: ``ply`` 0 (White has not moved) or 1 (Black has not), the round's
    clocks started more than the profile's default time ago, no result on the board yet."""
    colour = "white" if ply == 0 else "black"
    started = state.feed.round_started.get(key[0], c.issued_at)
    if c.issued_at is None or started is None or key in state.results or (key, colour) in state.feed.late:
        return []
    waited = int((c.issued_at - started).total_seconds())
    if waited <= state.profile.default_time_s:
        return []
    return [LateArrivalSuspected(event_id=game_ids.late(c.tournament_id, *key, colour), **identity.stamp(c), **where,
                                 colour=colour, player=getattr(c.game, colour), waited_s=waited,
                                 default_time_s=state.profile.default_time_s)]


def _at(c: Any, key: tuple[int, int, int]) -> SimpleNamespace:
    """``c`` as a command about ``key``'s table (what ``board_result`` reads)."""
    return SimpleNamespace(tournament_id=c.tournament_id, round=key[0], table=key[1], issued_at=c.issued_at, actor=c.actor)


def _problem(c: Any, kind: str, reason: str, rule: str, names: tuple, where: dict | None = None,
             result: str | None = None) -> FeedProblemReported:
    """The ``FeedProblemReported`` of ``c`` (a ``ReportGame``): ``names`` say which problem it is
    (its id's key), the game's snapshot is its copy."""
    text = canonical_json(c.game)
    return FeedProblemReported(event_id=game_ids.problem(c.tournament_id, kind, game_ids.problem_key(c.source, *names)),
                               **identity.stamp(c), kind=kind, source=c.source, game=c.game.game, **(where or {}),
                               result=result, rule=rule, reason=reason[:2000], **copy_fields(text))


def problem(state: TournamentState, c: Any) -> list[Any]:
    """``ReportFeedProblem`` -> its ``FeedProblemReported`` (a text the ingester could not read as
    a game); the same problem again is already recorded."""
    key = game_ids.problem_key(c.source, c.game, c.copy_sha256 or c.reason)
    return [FeedProblemReported(event_id=game_ids.problem(c.tournament_id, c.kind, key), **identity.stamp(c), kind=c.kind,
                                source=c.source, game=c.game, rule=FEED_PROBLEM_RULES["malformed-pgn"][1], reason=c.reason,
                                copy_text=c.copy_text, copy_bytes=c.copy_bytes, copy_sha256=c.copy_sha256)]


def confirm(state: TournamentState, c: Any) -> list[Any]:
    """``ConfirmResults`` -> a ``BoardResultRecorded`` with the reported result of one board, or of
    every board of the match that has one and no result yet (``board`` None).

    Raises ``RuleViolation``: a board without a reported result (field ``board``), a board whose
    result the feed changed (the arbiter enters it: ``RecordResult``), a board whose result is
    another one (the arbiter's result stands; a correction changes it), a match with nothing to confirm.
    """
    board_key(state, SimpleNamespace(round=c.round, table=c.table, **({"board": c.board} if c.board else {})))
    boards = [c.board] if c.board else range(1, state.profile.boards + 1)
    events = []
    for b in boards:
        key = (c.round, c.table, b)
        game = state.feed.games.get(key)
        if game is None or game.reported is None:
            if c.board:
                raise RuleViolation(f"round {c.round} table {c.table} board {b} has no result reported by the feed",
                                    field="board", rule="confirm a reported result")
            continue
        if game.changed_to is not None:
            if c.board:
                raise RuleViolation(f"the feed reported {game.reported}, then {game.changed_to} on board {b}: enter the "
                                    "board's result (RecordResult)", field="board", rule=FEED_PROBLEM_RULES["result-flipped"][1])
            continue
        if key in state.results and state.results[key][1] != game.reported:
            if c.board:
                raise RuleViolation(f"board {b} already has {state.results[key][1]}; the feed reported {game.reported}: "
                                    "the arbiter's result stands (a correction changes it)", field="board",
                                    rule="the arbiter's result wins over the feed")
            continue
        if key in state.results and not c.board:
            continue
        events.append(board_result(state, c, b, game.reported))
    if not events:
        raise RuleViolation(f"round {c.round} table {c.table} has no reported result to confirm", field="table",
                            rule="confirm a reported result")
    return events
