"""C.07 (2026) art. 7.1 Number of Wins (WIN) for teams: the rounds in which the team obtained, with or
without playing, the match points of a win (a forfeit win counts; a pairing-allocated bye only if it is
worth a win). Units: rounds."""
from __future__ import annotations

from decimal import Decimal

from projections.history import History


def number_of_wins(history: History, team: str, win_mp: int) -> Decimal:
    """Rounds 1..through_round in which ``team`` got ``win_mp`` match points."""
    return Decimal(sum(1 for tr in history.team_rounds(team) if tr.kind != "pending" and tr.mp == win_mp))
