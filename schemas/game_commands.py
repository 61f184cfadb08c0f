"""Commands of a live game feed (issue 29): a game as the feed shows it, a bad feed, and the
arbiter's confirmation of reported results. Decided by ``processors.deciders.games``.

A feed resends whole games, so each ``ReportGame`` is a snapshot of one game: its players (names,
FIDE ids), the round and the board the feed gives (hints: the board is mapped through the
line-ups), its moves (SAN, from the start position), the position reached (FEN, for spectators),
the clocks (seconds left) and the result (``*`` while it is played).
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas import limits
from schemas.command_base import CommandBase
from schemas.game_events import MAX_COPY, MAX_PLIES, Fen, FeedProblem, San, Seconds
from schemas.limits import Board, FideId, Int, Note, Round, TableNo

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


class FeedGame(BaseModel):
    """One game as a feed shows it now. ``game``: its place in the feed (``round-3.pgn#12``,
    ``round-3/game-12.json``); ``round``, ``table``, ``board``: what the feed says (PGN tags
    ``Round "r.t"`` and ``Board``, DGT's place in ``index.json``), None when it says nothing;
    ``moves``: SAN from the start; ``fen``: the position after them; clocks in seconds left;
    ``result``: ``*`` while the game is played."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    game: Note
    round: Round | None = None
    table: TableNo | None = None
    board: Board | None = None
    white: Note = ""
    black: Note = ""
    white_fide_id: FideId | None = None
    black_fide_id: FideId | None = None
    moves: Annotated[tuple[San, ...], Field(max_length=MAX_PLIES)] = ()
    fen: Fen = START_FEN
    white_clock: Seconds | None = None
    black_clock: Seconds | None = None
    result: Literal["1-0", "0-1", "1/2-1/2", "*"] = "*"


class ReportGame(CommandBase):
    """A feed's snapshot of one game (``source``: the feed, a folder or URL). Yields the game's
    start, its progress, its end (a reported result) and the flags the moves show; a game the
    line-ups cannot place, a second game on a board, a result the feed changed are recorded as
    feed problems (``FeedProblemReported``), never refused silently."""

    command: Literal["ReportGame"] = "ReportGame"
    source: Note
    game: FeedGame


class ReportFeedProblem(CommandBase):
    """A bad feed the ingester could not read as a game (``malformed-pgn``): named for the arbiter
    and kept (``copy_text``: the first ``MAX_COPY`` characters; ``copy_bytes``, ``copy_sha256``:
    the whole text)."""

    command: Literal["ReportFeedProblem"] = "ReportFeedProblem"
    kind: FeedProblem
    source: Note
    game: Note = ""
    reason: limits.text(2000, min_length=1)
    copy_text: limits.text(MAX_COPY) = ""
    copy_bytes: Int = 0
    copy_sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None


class ConfirmResults(CommandBase):
    """The arbiter's word on the results a feed reported: one board (``board`` given) or every
    board of the match with a reported result and no result yet (``board`` None)."""

    command: Literal["ConfirmResults"] = "ConfirmResults"
    round: Round
    table: TableNo
    board: Board | None = None


GAME_COMMANDS = (ReportGame, ReportFeedProblem, ConfirmResults)
