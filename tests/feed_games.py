"""Hand-made games and a small tournament for the live feed's tests (issue 29).

``feed_store(profile)``: an embedded store with teams A..D (players ``A player 1`` ..., no FIDE
ids) and round 1 paired A-C (table 1, A home), D-B (table 2), no results. ``snapshot`` builds the
``FeedGame`` a feed would show; ``report`` submits it as the feed's ``ReportGame``.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import chess

from producers.doors import EmbeddedDoor
from schemas.command_base import Actor
from schemas.game_commands import FeedGame, ReportGame
from schemas.profile import OLYMPIAD_2008, RuleProfile
from tests.factories import TID, created, paired, stored, team

FEED = Actor(role="feed", id="feed-test")
ARBITER = Actor(role="arbiter", id="arbiter-1")
T0 = datetime(2026, 12, 5, 15, 0, tzinfo=timezone.utc)

VIDIT_MAKOTO = ("Nf3 Nf6 c4 g6 Nc3 Bg7 e4 d6 d4 O-O Be2 e5 O-O Nc6 d5 Ne7 b4 a5 bxa5 Rxa5 a4 Nd7 Nd2 Nc5 Nb3 Nxb3 Qxb3 "
                "f5 f3 Kh8 Ba3 c5 dxc6 Nxc6 Bd3 Bh6 Kh1 Be3 Nb5 Bc5 Rad1 Nd4 Nxd4 exd4 Bc2 fxe4 Bxe4 Qe8 Bb2 Qxa4 Qd3 "
                "Qe8 Rfe1 Qf7 Bxd4+ Bxd4 Qxd4+ Qf6 Qxd6 Qxd6 Rxd6 Rc5").split()
"""Chennai 2022 round 1, Vidit v Makoto: its first 62 plies (through 31...Rc5), no draw claimable."""
AGREED_AT_20 = VIDIT_MAKOTO[:40]
"""Forty plies (through 20...Bc5): a draw agreed here is before Black's 30th move."""
THREEFOLD_AT_20 = ("e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O h3 h6 a4 a6 Re1 Re8 Nbd2 Be6 Bb3 Bb6 Nf1 Qd7 Ng3 Rad8 "
                   "Be3 Bxe3 Rxe3 Bxb3 Qxb3 Qe6 Qc2 Qd7 Qb3 Qe6 Qc2 Qd7 Qb3").split()
"""A threefold repetition claimable at White's 20th move (ply 39)."""
LOYD_STALEMATE = "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6".split()
"""Sam Loyd's stalemate in ten moves (ply 19)."""


def feed_store(profile: RuleProfile = OLYMPIAD_2008, feed_results: str = "automatic", url: str = "sqlite://", **rules):
    """An embedded store at ``url``: ``profile`` with ``feed_results`` (and ``rules``), teams A..D,
    round 1 paired A-C, D-B."""
    profile = RuleProfile.model_validate({**profile.model_dump(), "feed_results": feed_results, **rules})
    return stored([created(profile), *(team(c, n) for n, c in enumerate("ABCD", start=1)), paired(1, [("A", "C"), ("D", "B")])],
                  url)


def fen_after(moves: list[str]) -> str:
    """The FEN after ``moves`` (SAN) from the start."""
    board = chess.Board()
    for san in moves:
        board.push_san(san)
    return board.fen()


def snapshot(white: str, black: str, moves: list[str], result: str = "*", board: int | None = None, rnd: int = 1,
             game: str = "round-1.pgn#1", **clocks) -> FeedGame:
    """The ``FeedGame`` of ``white`` v ``black`` after ``moves``."""
    return FeedGame(game=game, round=rnd, board=board, white=white, black=black, moves=tuple(moves), fen=fen_after(moves),
                    result=result, **clocks)


def report(store, game: FeedGame, at: datetime = T0, source: str = "test-feed"):
    """Submit ``game`` as the feed's ``ReportGame`` (issued ``at``); the ``Outcome``."""
    return EmbeddedDoor(store).submit(ReportGame(tournament_id=TID, actor=FEED, issued_at=at, source=source, game=game))


def later(seconds: float) -> datetime:
    """``T0`` plus ``seconds``."""
    return T0 + timedelta(seconds=seconds)
