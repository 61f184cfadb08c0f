"""What a source read: a game (``schemas.game_commands.FeedGame``) or a text that is no game
(``Unreadable``), and the python-chess replay both feed formats share (``Positions``)."""
from __future__ import annotations

from dataclasses import dataclass

import chess

from schemas.game_commands import START_FEN, FeedGame


@dataclass(frozen=True)
class Unreadable:
    """A text of a feed that python-chess cannot read as a game: where it is (``game``), why, and
    the text itself."""

    game: str
    reason: str
    text: str


Read = FeedGame | Unreadable


class Positions:
    """Boards replayed per game place, so that a game resent with more moves costs only its new
    moves (both feeds resend whole games)."""

    def __init__(self) -> None:
        self._boards: dict[str, tuple[tuple[str, ...], chess.Board]] = {}

    def fen(self, place: str, moves: tuple[str, ...]) -> str:
        """The FEN after ``moves`` (SAN) from the start. Raises ``ValueError`` naming the first
        move that is not legal."""
        if not moves:
            return START_FEN
        known, board = self._boards.get(place, ((), None))
        if board is None or moves[:len(known)] != known:
            known, board = (), chess.Board()
        for i in range(len(known), len(moves)):
            try:
                board.push_san(moves[i])
            except ValueError:
                self._boards.pop(place, None)
                raise ValueError(f"move {i // 2 + 1}{'.' if i % 2 == 0 else '...'} {moves[i]} is not legal") from None
        self._boards[place] = (moves, board)
        return board.fen()


def result_of(token: str) -> str:
    """A game's result as a feed writes it: ``1-0``, ``0-1``, ``1/2-1/2`` (also ``½-½``), else
    ``*`` (played on, or a result that is no game's: ``0-0``)."""
    token = token.strip().replace("½", "1/2")
    return token if token in ("1-0", "0-1", "1/2-1/2") else "*"
