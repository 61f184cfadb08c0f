"""C.07 (2026) art. 12 board tie-breaks: Board Count (BC), Top Board Results (TBR), Bottom Board
Elimination (BBE). Art. 12 preamble: an individual forfeit counts as a standard win or loss (``+`` 1,
``-`` 0) and a pairing-allocated bye as a standard win on every board; an absence scores nothing.
Units: game points (half-points) per board.
"""
from __future__ import annotations

from decimal import Decimal

from processors.scoring import board_points
from projections.history import History
from schemas.points import ONE, ZERO


def board_game_points(history: History, team: str, boards: int) -> list[Decimal]:
    """The team's game points on each board 1..``boards`` summed over rounds 1..through_round."""
    if history.board_results is None:
        raise ValueError("board tie-breaks (C.07 art. 12) need the board results: build the history with build_history")
    totals = [ZERO] * boards
    for tr in history.team_rounds(team):
        if tr.kind == "bye":
            totals = [gp + ONE for gp in totals]
        elif tr.table is not None:
            home, codes = history.board_results(tr.round, tr.table)
            for board, code in codes.items():
                h, a, _ = board_points(code, board)
                totals[board - 1] += h if home == team else a
    return totals


def board_count(per_board: list[Decimal]) -> Decimal:
    """12.1 BC: sum of board number x game points on that board (lower is better)."""
    return sum((b * gp for b, gp in enumerate(per_board, start=1)), ZERO)


def top_board_results(per_board: list[Decimal]) -> tuple[Decimal, ...]:
    """12.2 TBR: game points on board 1, then board 2, ... compared in that order (higher is better)."""
    return tuple(per_board)


def bottom_board_elimination(per_board: list[Decimal]) -> tuple[Decimal, ...]:
    """12.3 BBE: game points on every board but the bottom one, then without the next board up, ...
    compared in that order (higher is better)."""
    return tuple(sum(per_board[:k], ZERO) for k in range(len(per_board) - 1, 0, -1))
