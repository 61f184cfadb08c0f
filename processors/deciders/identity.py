"""The identity of a decided event: its id (the scheme is ``schemas.event_ids``), the number of
a repeated command's next event, whether two events say the same, the fields every event carries.
"""
from __future__ import annotations

from typing import Any, Callable

from processors.tournament import same_fact


def count(state, prefix: str) -> int:
    """How many events of ``state`` have ids ``prefix<n>``: the next such event is ``count + 1``."""
    return sum(1 for event_id in state.applied if event_id.startswith(prefix) and event_id[len(prefix):].isdigit())


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
