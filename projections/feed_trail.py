"""What a live game feed adds to the audit trail (``projections.audit.trail``, issue 29): the
draw-offer flags (R-D6), the possible late arrivals (R-D5) and the feed's problems, each as
(what, reason). The results the feed reported stay as they were: the flags change nothing."""
from __future__ import annotations

from typing import Any, Callable


def _draw(e: Any) -> tuple[str, str]:
    return (f"draw-offer flag: table {e.table} board {e.board} drawn after {e.ply} plies (threshold {e.threshold_ply})",
            f"{e.rule}; {e.rule_source}".rstrip("; "))


def _late(e: Any) -> tuple[str, str]:
    return (f"possible late arrival: table {e.table} board {e.board} {e.colour} ({e.player})",
            f"no move after {e.waited_s} s; default time {e.default_time_s} s")


def _problem(e: Any) -> tuple[str, str]:
    where = f" table {e.table} board {e.board}" if e.table is not None and e.board is not None else ""
    return f"feed problem ({e.kind}){where} in {e.game or e.source}", e.reason


FEED_TRAIL: dict[str, Callable[[Any], tuple[str, str]]] = {
    "DrawOfferRuleFlagged": _draw, "LateArrivalSuspected": _late, "FeedProblemReported": _problem,
}
"""Event type -> (what, reason) of its line in the audit trail."""
