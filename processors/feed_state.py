"""What a live game feed's events add up to (issue 29): the game on each board, its reported
result, the arbiter's flags and the feed's problems. Evolved by ``TournamentState.evolve`` with no
rule checks (the feed's decider, ``processors.deciders.games``, judged them once)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

BoardKey = tuple[int, int, int]  # (round, table, board)

FEED_EVENTS = frozenset({"GameStarted", "GameProgressed", "GameEnded", "DrawOfferRuleFlagged", "LateArrivalSuspected",
                         "FeedProblemReported"})
"""The event types ``FeedState.evolve`` takes."""


@dataclass(frozen=True)
class BoardGame:
    """The game a feed shows on one board: its players as the feed names them, the feed and the
    game's place in it, when it was first seen (``started_at``), its latest progress (``ply``,
    ``last_move``, ``fen``, clocks in seconds), the result the feed reported first (``reported``,
    after ``reported_ply`` half-moves) and the one it changed to (``changed_to``: a flip)."""

    white: str
    black: str
    source: str
    game: str
    started_at: datetime | None
    ply: int = 0
    last_move: str = ""
    fen: str = ""
    white_clock: int | None = None
    black_clock: int | None = None
    reported: str | None = None
    reported_ply: int | None = None
    changed_to: str | None = None


@dataclass
class FeedState:
    """``games[(round, table, board)]``: the game on each board; ``round_started[round]``: when the
    feed first showed a game of the round (its clocks started); ``draw_flags`` and ``late`` (by
    board and colour): the arbiter's flags; ``problems``: the feed's problems by event id, in log
    order."""

    games: dict[BoardKey, BoardGame] = field(default_factory=dict)
    round_started: dict[int, datetime | None] = field(default_factory=dict)
    draw_flags: dict[BoardKey, Any] = field(default_factory=dict)
    late: dict[tuple[BoardKey, str], Any] = field(default_factory=dict)
    problems: dict[str, Any] = field(default_factory=dict)

    def fork(self) -> "FeedState":
        """A copy to try events on (``TournamentState.fork``): copies of its dicts (a game is
        replaced, never changed in place, so the games themselves are shared)."""
        return FeedState(games=dict(self.games), round_started=dict(self.round_started), draw_flags=dict(self.draw_flags),
                         late=dict(self.late), problems=dict(self.problems))

    def evolve(self, e: Any) -> None:
        """Apply one accepted feed event (``FEED_EVENTS``)."""
        getattr(self, "_on_" + e.type)(e)

    def _on_GameStarted(self, e: Any) -> None:
        self.games[(e.round, e.table, e.board)] = BoardGame(e.white, e.black, e.source, e.game, e.occurred_at)
        self.round_started.setdefault(e.round, e.occurred_at)

    def _on_GameProgressed(self, e: Any) -> None:
        key = (e.round, e.table, e.board)
        if e.ply >= self.games[key].ply:
            self.games[key] = replace(self.games[key], ply=e.ply, last_move=e.last_move, fen=e.fen, white_clock=e.white_clock,
                                      black_clock=e.black_clock)

    def _on_GameEnded(self, e: Any) -> None:
        key = (e.round, e.table, e.board)
        if self.games[key].reported is None:
            self.games[key] = replace(self.games[key], reported=e.result, reported_ply=e.ply)

    def _on_DrawOfferRuleFlagged(self, e: Any) -> None:
        self.draw_flags[(e.round, e.table, e.board)] = e

    def _on_LateArrivalSuspected(self, e: Any) -> None:
        self.late[((e.round, e.table, e.board), e.colour)] = e

    def _on_FeedProblemReported(self, e: Any) -> None:
        self.problems[e.event_id] = e
        if e.kind == "result-flipped" and e.round is not None and e.board is not None:
            key = (e.round, e.table, e.board)
            if key in self.games:
                self.games[key] = replace(self.games[key], changed_to=e.result)
