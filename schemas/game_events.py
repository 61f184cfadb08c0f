"""Events of the games a live feed shows (issue 29): a game started, its progress, its reported
end, and what the feed shows the arbiter (the draw-offer rule, a possible late arrival, a bad feed).

A game is on one board: ``round``, ``table``, ``board`` (the feed's game mapped through the
line-ups, ``processors.deciders.games``). A reported result (``GameEnded``) is not the board's
result: that is a ``BoardResultRecorded`` the arbiter confirms (``ConfirmResults``), or the feed's
decider records at once where the profile says so (``feed_results="automatic"``). Clocks are whole
seconds left on a player's clock; ``ply`` counts half-moves (ply 60 is Black's 30th move).
"""
from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import Field

from schemas import limits
from schemas.event_base import EventBase
from schemas.limits import Board, Int, Note, Round, TableNo

MAX_PLIES = 1200
"""Half-moves a game may have in a feed (the longest game on record has 538)."""
MAX_COPY = 4096
"""Characters of a bad feed's text kept in its ``FeedProblemReported`` (its digest names the whole)."""


def copy_fields(text: str) -> dict[str, Any]:
    """A bad feed's ``text`` as a ``FeedProblemReported`` keeps it: ``copy_text``, the text
    JSON-escaped (line breaks as ``\\n``: a field holds no control character; ``json.loads('"' +
    copy_text + '"')`` gives it back) and cut to ``MAX_COPY`` characters (never inside an escape);
    ``copy_bytes`` and ``copy_sha256`` of the whole text (UTF-8)."""
    whole = text.encode("utf-8", "replace")
    cut: list[str] = []
    size = 0
    for ch in text:
        piece = json.dumps(ch, ensure_ascii=False)[1:-1]
        if size + len(piece) > MAX_COPY:
            break
        cut.append(piece)
        size += len(piece)
    return {"copy_text": "".join(cut), "copy_bytes": len(whole), "copy_sha256": hashlib.sha256(whole).hexdigest()}


Ply = Annotated[int, Field(strict=True, ge=0, le=MAX_PLIES)]
San = limits.text(12)
"""A move in standard algebraic notation (``Nf3``, ``exd8=Q+``)."""
Fen = limits.text(100)
Seconds = Annotated[int, Field(strict=True, ge=0, le=10 * 86400)]
GameResult = Literal["1-0", "0-1", "1/2-1/2"]
"""A game's result as a feed reports it, White first."""
FeedProblem = Literal["malformed-pgn", "unmapped-game", "board-claimed-twice", "result-flipped"]
"""What is wrong with a feed: text python-chess cannot read as a game, a game that maps to no board
of the round, a second game on a board another game holds (a board swap), a result the feed
changed after it reported it."""

FEED_PROBLEM_RULES: dict[str, tuple[str, str]] = {
    "malformed-pgn": ("game", "a feed is read as games"),
    "unmapped-game": ("game.white, game.black", "a game maps to one board through the line-ups"),
    "board-claimed-twice": ("game.board", "one game per board"),
    "result-flipped": ("game.result", "a reported result is not overwritten"),
}
"""Each ``FeedProblem``'s field of the feed's game and the rule it breaks (the deciders of
``processors.deciders.games`` name them; the ingester names them in its line per problem)."""


class _BoardEvent(EventBase):
    round: Round
    table: TableNo
    board: Board


class GameStarted(_BoardEvent):
    """The feed shows a game on this board: the players as the feed names them, the feed
    (``source``) and the game's place in it (``game``)."""

    type: Literal["GameStarted"] = "GameStarted"
    schema_version: Literal[1] = 1
    white: Note = ""
    black: Note = ""
    source: Note = ""
    game: Note = ""


class GameProgressed(_BoardEvent):
    """The game after ``ply`` half-moves: the last move (SAN), the position (FEN) and the clocks
    (seconds left, None when the feed shows none). At most one per game per poll."""

    type: Literal["GameProgressed"] = "GameProgressed"
    schema_version: Literal[1] = 1
    ply: Ply
    last_move: Note = ""
    fen: Fen
    white_clock: Seconds | None = None
    black_clock: Seconds | None = None


class GameEnded(_BoardEvent):
    """The feed reports the game's result after ``ply`` half-moves: a reported result, for the
    arbiter to confirm (or recorded at once where the profile says so)."""

    type: Literal["GameEnded"] = "GameEnded"
    schema_version: Literal[1] = 1
    result: GameResult
    ply: Ply


class DrawOfferRuleFlagged(_BoardEvent):
    """A drawn game that ended after ``ply`` half-moves, before the profile's threshold
    (``threshold_ply``), in a position neither forced nor claimable as a draw (no stalemate, no
    insufficient material, no threefold repetition or fifty-move claim): the arbiter looks at it.
    The result is not changed. ``rule`` is the profile's draw-offer rule, ``rule_source`` its source."""

    type: Literal["DrawOfferRuleFlagged"] = "DrawOfferRuleFlagged"
    schema_version: Literal[1] = 1
    ply: Ply
    threshold_ply: Ply
    rule: Note
    rule_source: Note = ""


class LateArrivalSuspected(_BoardEvent):
    """The round's clocks have run ``waited_s`` seconds and ``colour``'s player has made no move,
    past the profile's default time (``default_time_s``; 0: zero tolerance, R-D5): a possible
    late-arrival forfeit. The arbiter decides (``RecordForfeit``, reason late-arrival)."""

    type: Literal["LateArrivalSuspected"] = "LateArrivalSuspected"
    schema_version: Literal[1] = 1
    colour: Literal["white", "black"]
    player: Note = ""
    waited_s: Seconds
    default_time_s: Seconds


class FeedProblemReported(EventBase):
    """A bad feed, named for the arbiter and kept as its dead letter: the ``kind``, the feed
    (``source``) and the game's place in it (``game``), the board where one is known, the rule it
    broke and why (``reason``), a flipped result's new ``result``, the text (``copy_text``, JSON-escaped, its first ``MAX_COPY`` characters: ``copy_fields``;
    ``copy_bytes`` and ``copy_sha256`` name the whole). The feed goes on."""

    type: Literal["FeedProblemReported"] = "FeedProblemReported"
    schema_version: Literal[1] = 1
    kind: FeedProblem
    source: Note = ""
    game: Note = ""
    round: Round | None = None
    table: TableNo | None = None
    board: Board | None = None
    result: GameResult | None = None
    rule: Note = ""
    reason: limits.text(2000)
    copy_text: limits.text(MAX_COPY) = ""
    copy_bytes: Int = 0
    copy_sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None


GAME_EVENTS = (GameStarted, GameProgressed, GameEnded, DrawOfferRuleFlagged, LateArrivalSuspected, FeedProblemReported)
"""The event types of a live feed (input events of a tournament's log, decided by the feed's commands)."""
