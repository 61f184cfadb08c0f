"""The draw-offer rule (R-D6; the founding document's points 10-11: no draw offers before Black's
30th move): was a drawn game forced or claimable where it ended? python-chess replays the moves.

A draw before the profile's threshold is allowed when the position forced it or a player could
claim it (FIDE Laws 9.2, 9.3, 5.2): stalemate, insufficient material (neither side can mate), a
threefold repetition or the fifty-move rule claimable, the fivefold repetition or 75-move rule.
Otherwise it is a draw by agreement and the arbiter is shown it; the result is not changed.
"""
from __future__ import annotations

from typing import Iterable

import chess

THRESHOLD_PLY = {"black-30": 60, "move-31": 61}
"""The ply from which a draw may be agreed, per ``RuleProfile.draw_offers``: Black's 30th move is
ply 60 (a draw offered with it is allowed); the 31st move begins at ply 61 (White's 31st)."""
RULE_TEXT = {"black-30": "no draw offers before Black's 30th move", "move-31": "no draw offers before the 31st move"}


class IllegalMove(ValueError):
    """A move of a game that is not legal (or not SAN) in its position: ``index`` (0-based ply)."""

    def __init__(self, index: int, san: str):
        super().__init__(f"move {index // 2 + 1}{'.' if index % 2 == 0 else '...'} {san} is not a legal move")
        self.index = index


def final_position(moves: Iterable[str]) -> chess.Board:
    """The board after ``moves`` (SAN) from the start; raises ``IllegalMove``."""
    board = chess.Board()
    for i, san in enumerate(moves):
        try:
            board.push_san(san)
        except ValueError:
            raise IllegalMove(i, san) from None
    return board


def forced_or_claimable(board: chess.Board) -> str | None:
    """Why the game could end drawn at ``board`` without an agreement ("stalemate", "insufficient
    material", "threefold repetition", "fifty-move rule", ...), or None: a draw by agreement."""
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient material"
    if board.is_fivefold_repetition():
        return "fivefold repetition"
    if board.is_seventyfive_moves():
        return "75-move rule"
    if board.can_claim_threefold_repetition():
        return "threefold repetition"
    if board.can_claim_fifty_moves():
        return "fifty-move rule"
    return None


def breaks_draw_offer_rule(rule: str, moves: tuple[str, ...]) -> bool:
    """True if a game drawn after ``moves`` breaks the draw-offer rule ``rule``
    (``RuleProfile.draw_offers``): it ended before the rule's threshold in a position neither
    forced nor claimable as a draw. "none" never. Raises ``IllegalMove``."""
    threshold = THRESHOLD_PLY.get(rule)
    if threshold is None or len(moves) >= threshold:
        return False
    return forced_or_claimable(final_position(moves)) is None
