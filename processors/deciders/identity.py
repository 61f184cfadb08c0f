"""Event ids derived from a command's identity: equal for a retry, different for a new decision.

One scheme for every door (CLI, HTTP, Kafka) and for the importers, which use the same ids for
the same facts: ``T/created``, ``T/team/<team>``, ``T/r<round>/t<table>/b<board>`` ... A command
that may be repeated with new content (a line-up resubmitted before the round is published, a
second proposal) numbers its events ``/1``, ``/2`` ... in the order they were accepted.
"""
from __future__ import annotations

from typing import Any, Callable


def created(t: str) -> str:
    return f"{t}/created"


def team(t: str, team_id: str) -> str:
    return f"{t}/team/{team_id}"


def roster(t: str, team_id: str, n: int) -> str:
    return f"{t}/team/{team_id}/roster/{n}"


def starting_ranks(t: str, n: int) -> str:
    return f"{t}/starting-ranks/{n}"


def withdrawn(t: str, team_id: str) -> str:
    return f"{t}/team/{team_id}/withdrawn"


def lineup(t: str, rnd: int, team_id: str, n: int) -> str:
    return f"{t}/r{rnd}/lineup/{team_id}/{n}"


def absence(t: str, rnd: int, team_id: str) -> str:
    return f"{t}/r{rnd}/absent/{team_id}"


def proposal(t: str, rnd: int, n: int) -> str:
    return f"{t}/r{rnd}/proposal/{n}"


def amendment(t: str, rnd: int, n: int) -> str:
    return f"{t}/r{rnd}/amendment/{n}"


def pairing(t: str, rnd: int) -> str:
    return f"{t}/r{rnd}/pairing"


def board(t: str, rnd: int, table: int, board_no: int) -> str:
    return f"{t}/r{rnd}/t{table}/b{board_no}"


def match_forfeit(t: str, rnd: int, table: int) -> str:
    return f"{t}/r{rnd}/t{table}/forfeit"


def correction(t: str, rnd: int, table: int, board_no: int, n: int) -> str:
    return f"{t}/r{rnd}/t{table}/b{board_no}/correction/{n}"


def closed(t: str, rnd: int) -> str:
    return f"{t}/r{rnd}/closed"


def checkpoint(t: str, rnd: int) -> str:
    return f"{t}/r{rnd}/checkpoint"


def count(state, prefix: str) -> int:
    """How many events of ``state`` have ids ``prefix<n>``: the next such event is ``count + 1``."""
    return sum(1 for event_id in state.applied if event_id.startswith(prefix) and event_id[len(prefix):].isdigit())


def same_fact(a: Any, b: Any) -> bool:
    """True if events ``a`` and ``b`` say the same thing: equal but for when and by whom (a
    second terminal entering the same result, a retry a second later)."""
    blank = {"occurred_at": None, "actor": None}
    return a.model_copy(update=blank) == b.model_copy(update=blank)


def numbered(state, prefix: str, build: Callable[[str], Any]) -> Any:
    """The event ``build(prefix + n)`` of a command that may be repeated: n is the next number,
    unless the latest such event says the same (a retry), which is returned as it was built."""
    n = count(state, prefix)
    if n:
        again = build(f"{prefix}{n}")
        if same_fact(state.applied[f"{prefix}{n}"], again):
            return again
    return build(f"{prefix}{n + 1}")


def stamp(command: Any) -> dict[str, Any]:
    """The fields every event of ``command`` carries: tournament, when, by whom."""
    return {"tournament_id": command.tournament_id, "occurred_at": command.issued_at, "actor": command.actor.id}
