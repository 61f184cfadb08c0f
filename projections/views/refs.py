"""Team references and the tables of a round, as every view names them; ``NotFound``."""
from __future__ import annotations

from typing import Any

from processors.tournament import TournamentState
from projections.seeding import tournament_pairing_numbers
from schemas.events import Table


class NotFound(LookupError):
    """A round, table, team or standings that does not exist (HTTP 404)."""


def team_refs(state: TournamentState) -> dict[str, dict[str, Any]]:
    """team id -> ``{team_id, name, federation, pairing_number}`` (pairing numbers per R-I1)."""
    numbers = tournament_pairing_numbers(state)
    return {tid: {"team_id": tid, "name": t.name, "federation": t.federation, "pairing_number": numbers[tid]}
            for tid, t in state.teams.items()}


def paired_table(state: TournamentState, rnd: int, table: int) -> Table:
    """The ``Table`` (home, away) of round ``rnd``'s table ``table``; raises ``NotFound``."""
    if rnd not in state.rounds:
        raise NotFound(f"round {rnd} has not been paired (paired: {sorted(state.rounds) or 'none'})")
    try:
        return state.tables[(rnd, table)]
    except KeyError:
        raise NotFound(f"round {rnd} has no table {table} (tables 1..{len(state.rounds[rnd].tables)})") from None
