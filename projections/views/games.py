"""What the live feed shows (issue 29): the boards in progress for spectators, and for the arbiter
the reported results to confirm, the draw-offer flags, the possible late arrivals and the feed's
problems. Read from ``TournamentState.feed`` (``processors.feed_state``); the position is drawn by
python-chess (``chess.svg``)."""
from __future__ import annotations

from typing import Any

import chess
import chess.svg

from projections.views.snapshot import Snapshot

BOARD_PX = 132


def board_svg(fen: str, size: int = BOARD_PX) -> str:
    """A small SVG board of the position ``fen``; an unreadable FEN draws the start position."""
    try:
        board = chess.Board(fen)
    except ValueError:
        board = chess.Board()
    return chess.svg.board(board, size=size, coordinates=False)


def _clock(seconds: int | None) -> str:
    if seconds is None:
        return ""
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def games_view(snap: Snapshot, rnd: int | None = None) -> dict[str, Any]:
    """The games of round ``rnd`` (default the last paired round), table by table, board by board:
    players, move number (``move``: the move being played, 1 + ply // 2), ply, last move, clocks
    (seconds and ``h:mm:ss``), the reported result, the board's result, and the position (``svg``)."""
    state = snap.state
    rnd = rnd or snap.last_round
    games = []
    for (r, table, board), g in sorted(state.feed.games.items()):
        if r != rnd:
            continue
        result = state.results.get((r, table, board))
        games.append({
            "round": r, "table": table, "board": board, "white": g.white, "black": g.black, "ply": g.ply,
            "move": g.ply // 2 + 1, "last_move": g.last_move, "fen": g.fen, "white_clock": g.white_clock,
            "black_clock": g.black_clock, "white_clock_text": _clock(g.white_clock), "black_clock_text": _clock(g.black_clock),
            "reported": g.reported, "result": result[1] if result else None,
            "in_progress": g.reported is None, "svg": board_svg(g.fen),
        })
    return {"round": rnd, "games": games}


def feed_view(snap: Snapshot) -> dict[str, Any]:
    """What the arbiter sees of the feed: ``to_confirm`` (reported results of boards without a
    result, not changed by the feed), ``disagree`` (a board whose result is not the one the feed
    reported: the arbiter's stands), ``draw_flags``, ``late`` (possible late arrivals of boards
    without a result) and ``problems`` (the feed's problems, newest last)."""
    state = snap.state
    to_confirm, disagree = [], []
    for (r, table, board), g in sorted(state.feed.games.items()):
        if g.reported is None:
            continue
        where = {"round": r, "table": table, "board": board, "white": g.white, "black": g.black, "reported": g.reported,
                 "ply": g.reported_ply, "changed_to": g.changed_to}
        result = state.results.get((r, table, board))
        if result is None:
            to_confirm.append(where)
        elif result[1] != g.reported:
            disagree.append({**where, "result": result[1]})
    flags = [{"round": e.round, "table": e.table, "board": e.board, "ply": e.ply, "threshold_ply": e.threshold_ply,
              "rule": e.rule, "rule_source": e.rule_source} for _, e in sorted(state.feed.draw_flags.items())]
    late = [{"round": e.round, "table": e.table, "board": e.board, "colour": e.colour, "player": e.player,
             "waited_s": e.waited_s, "default_time_s": e.default_time_s}
            for (key, _), e in sorted(state.feed.late.items()) if key not in state.results]
    problems = [{"event_id": e.event_id, "kind": e.kind, "source": e.source, "game": e.game, "round": e.round,
                 "table": e.table, "board": e.board, "rule": e.rule, "reason": e.reason, "copy_bytes": e.copy_bytes}
                for e in state.feed.problems.values()]
    return {"to_confirm": to_confirm, "disagree": disagree, "draw_flags": flags, "late": late, "problems": problems}
