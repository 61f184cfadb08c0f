"""The identity of a decided event: its id (the scheme is ``schemas.event_ids``), the number of
a repeated command's next event, whether two events say the same, the fields every event carries.
"""
from __future__ import annotations

from typing import Any, Callable

from processors.tournament import same_fact
from schemas import event_ids


def count(state, prefix: str) -> int:
    """How many events of ``state`` have ids ``prefix<n>``: the next such event is ``count + 1``."""
    return event_ids.series_count(state.applied, prefix)


def numbered(state, prefix: str, build: Callable[[str], Any]) -> Any:
    """The event ``build(prefix + n)`` of a command that may be repeated: n is the next number,
    unless the latest such event says the same (a retry), which is returned as it was built
    (``schemas.event_ids.next_in_series``)."""
    return event_ids.next_in_series(state.applied, prefix, build, same_fact)


def stamp(command: Any) -> dict[str, Any]:
    """The fields every event of ``command`` carries: tournament, when, by whom."""
    return {"tournament_id": command.tournament_id, "occurred_at": command.issued_at, "actor": command.actor.id}
