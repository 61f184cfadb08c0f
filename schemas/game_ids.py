"""Event ids of a live feed's events (``schemas.game_events``), derived from what they say, so
that a feed polled again yields the same ids (idempotent on tournament, round, board, result, ply):

``T/r<round>/t<table>/b<board>/game`` (``GameStarted``), ``.../game/ply<n>`` (``GameProgressed``),
``.../game/end/<result>/<ply>`` (``GameEnded``; result ``1-0``, ``0-1`` or ``draw``),
``.../game/draw-offer`` (``DrawOfferRuleFlagged``), ``.../game/late/<colour>``
(``LateArrivalSuspected``), ``T/feed/<kind>/<key>`` (``FeedProblemReported``; ``key``: 16 hex of
the SHA-256 of what names the problem, ``problem_key``).
"""
from __future__ import annotations

import hashlib
from typing import Any

SLUGS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "draw"}


def game(t: str, rnd: int, table: int, board: int) -> str:
    """``GameStarted``; the prefix of a game's other events."""
    return f"{t}/r{rnd}/t{table}/b{board}/game"


def progress(t: str, rnd: int, table: int, board: int, ply: int) -> str:
    """``GameProgressed`` after ``ply`` half-moves."""
    return f"{game(t, rnd, table, board)}/ply{ply}"


def ended(t: str, rnd: int, table: int, board: int, result: str, ply: int) -> str:
    """``GameEnded`` with ``result`` after ``ply`` half-moves."""
    return f"{game(t, rnd, table, board)}/end/{SLUGS[result]}/{ply}"


def draw_offer(t: str, rnd: int, table: int, board: int) -> str:
    """``DrawOfferRuleFlagged``."""
    return f"{game(t, rnd, table, board)}/draw-offer"


def late(t: str, rnd: int, table: int, board: int, colour: str) -> str:
    """``LateArrivalSuspected`` of ``colour``'s player."""
    return f"{game(t, rnd, table, board)}/late/{colour}"


def problem_key(*parts: Any) -> str:
    """16 hex digits of the SHA-256 of ``parts`` (joined by newlines): what names one feed problem."""
    return hashlib.sha256("\n".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:16]


def problem(t: str, kind: str, key: str) -> str:
    """``FeedProblemReported`` of ``kind`` named by ``key`` (``problem_key``)."""
    return f"{t}/feed/{kind}/{key}"


def of_event(e: Any) -> tuple[str, bool]:
    """The id ``e`` (an event of ``schemas.game_events``) must carry: ``(id, False)``; a feed
    problem's key is its own (``(prefix, True)``: any key of 16 hex digits)."""
    t = e.tournament_id
    if e.type == "FeedProblemReported":
        return f"{t}/feed/{e.kind}/", True
    where = (t, e.round, e.table, e.board)
    return {
        "GameStarted": lambda: game(*where),
        "GameProgressed": lambda: progress(*where, e.ply),
        "GameEnded": lambda: ended(*where, e.result, e.ply),
        "DrawOfferRuleFlagged": lambda: draw_offer(*where),
        "LateArrivalSuspected": lambda: late(*where, e.colour),
    }[e.type](), False


KINDS = frozenset({"GameStarted", "GameProgressed", "GameEnded", "DrawOfferRuleFlagged", "LateArrivalSuspected",
                   "FeedProblemReported"})
