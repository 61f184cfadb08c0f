"""Match scores as board results: which board codes give a score, which scores a table can still reach.

A match score is the home team's and the away team's game points (R-D2: the sum of the board
results). Board codes are White-Black and the home team has White on the odd boards (R-D4,
``processors.scoring.home_is_white``). Used by the what-if (``projections.whatif``: a hypothetical
"2.5-1.5") and by the simulator's hand-written tournaments (``producers.simulator.record_match``).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Mapping

from processors.scoring import board_points, home_is_white
from schemas.points import HALF, ZERO, fmt_points


def score_codes(home_gp: Decimal | float | str, boards: int = 4, recorded: Mapping[int, str] | None = None) -> dict[int, str]:
    """``{board: code}`` for every board of a table so that the home team has ``home_gp`` game
    points: the ``recorded`` boards (``{board: code}``, results already in) as they are, then on the
    others the home team wins the first boards, draws the next if a half is left, loses the rest.

    Raises ``ValueError`` when the recorded boards leave ``home_gp`` out of reach (more than the
    open boards can add, or less than the home team already has) or it is not a whole multiple of 1/2.
    """
    recorded = dict(recorded or {})
    home = Decimal(str(home_gp))
    have = sum((board_points(code, b)[0] for b, code in recorded.items()), ZERO)
    open_boards = [b for b in range(1, boards + 1) if b not in recorded]
    need = home - have
    if (need * 2) % 1 != 0 or not ZERO <= need <= len(open_boards):
        reach = ", ".join(fmt_points(s) for s in reachable(boards, recorded))
        raise ValueError(f"a home score of {fmt_points(home)} cannot be reached at this table (reachable: {reach})")
    wins = int(need)
    draw = need - wins == HALF
    codes = dict(recorded)
    for i, board in enumerate(open_boards):
        if i < wins:
            codes[board] = "1-0" if home_is_white(board) else "0-1"
        elif i == wins and draw:
            codes[board] = "1/2-1/2"
        else:
            codes[board] = "0-1" if home_is_white(board) else "1-0"
    return dict(sorted(codes.items()))


def reachable(boards: int, recorded: Mapping[int, str] | None = None) -> list[Decimal]:
    """The home team's game points a table can still end with, in half-point steps, lowest first:
    from what the ``recorded`` boards give it to that plus one point per open board."""
    recorded = recorded or {}
    have = sum((board_points(code, b)[0] for b, code in recorded.items()), ZERO)
    open_boards = boards - len(recorded)
    return [have + HALF * i for i in range(2 * open_boards + 1)]


def home_score(codes: Mapping[int, str]) -> tuple[Decimal, Decimal]:
    """``(home GP, away GP)`` of a table's board ``codes`` (R-D2)."""
    home = away = ZERO
    for board, code in codes.items():
        h, a, _ = board_points(code, board)
        home += h
        away += a
    return home, away
