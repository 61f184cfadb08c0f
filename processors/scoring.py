"""Pure fold of board results into a match result (no I/O).

Rules: R-D2 (GP of a match = sum of the board results), R-D3 (MP 2/1/0 on the match score),
R-D4 (the home team has White on boards 1 and 3), spec README "Standings as published at
Samarkand 2026" 1 (a whole-team forfeit is a 4-0 match; a double-forfeited board scores 0 for
both, and the match is scored on the board points: 3-0 is a win).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Mapping

from schemas.points import HALF, ONE, ZERO
from schemas.profile import MatchPointScale

# White's and Black's game points, and whether the game was played over the board.
_CODES: dict[str, tuple[Decimal, Decimal, bool]] = {
    "1-0": (ONE, ZERO, True),
    "0-1": (ZERO, ONE, True),
    "1/2-1/2": (HALF, HALF, True),
    "+/-": (ONE, ZERO, False),
    "-/+": (ZERO, ONE, False),
    "-/-": (ZERO, ZERO, False),
}


def home_is_white(board: int) -> bool:
    """R-D4: the home team (White on board 1) has White on the odd boards."""
    return board % 2 == 1


def board_points(code: str, board: int) -> tuple[Decimal, Decimal, bool]:
    """Return ``(home GP, away GP, played over the board)`` of one board result.

    ``code`` is White-Black (``"1-0"``, ``"1/2-1/2"``, ``"+/-"`` ...). Raises ``KeyError`` for an
    unknown code (validation refuses those before they get here).
    """
    white, black, played = _CODES[code]
    return (white, black, played) if home_is_white(board) else (black, white, played)


@dataclass(frozen=True)
class MatchOutcome:
    """The state of one table: GP per side (half-points), MP per side once complete.

    ``played`` is True when at least one board was played over the board (R-D7): a match
    forfeited on every board is not a meeting and gives no colour.
    """

    home_gp: Decimal
    away_gp: Decimal
    home_mp: int | None
    away_mp: int | None
    boards_in: int
    complete: bool
    played: bool


def match_points(own_gp: Decimal, other_gp: Decimal, scale: MatchPointScale) -> int:
    """R-D3: MP on the match score (more GP than the opponent wins, equal draws)."""
    if own_gp > other_gp:
        return scale.win
    if own_gp == other_gp:
        return scale.draw
    return scale.loss


def fold_match(results: Mapping[int, str], boards: int, scale: MatchPointScale) -> MatchOutcome:
    """Fold the board results of one table (``{board: code}``) into a ``MatchOutcome``.

    The match is complete when all ``boards`` boards have a result; MP are only given then.
    """
    home = away = ZERO
    played = False
    for board, code in results.items():
        h, a, over_board = board_points(code, board)
        home += h
        away += a
        played = played or over_board
    complete = len(results) == boards
    home_mp = match_points(home, away, scale) if complete else None
    away_mp = match_points(away, home, scale) if complete else None
    if complete and not played and home == away == ZERO:
        home_mp = away_mp = scale.loss  # R-D8: a match forfeited by both teams is lost by both
    return MatchOutcome(
        home_gp=home,
        away_gp=away,
        home_mp=home_mp,
        away_mp=away_mp,
        boards_in=len(results),
        complete=complete,
        played=played,
    )
