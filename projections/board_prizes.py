"""Board prizes: the best rating performance on each nominated board.

Rule (FIDE Olympiad regulations, individual prizes; Chennai 2022: Gukesh board 1, 2867 from 9/11;
Howell board 3, 2898 from 7.5/8): a prize per nominated board (the roster's board order, the
reserve being board 5) to the best rating performance (``projections.performance``), among the
players of that nominated board who played at least the profile's ``board_prize_min_games`` games
over the board (Chennai 2022: 8 of 11). Every game a player played counts for the board they were
nominated on, whichever board they sat at.

Ties (stated here, as the regulations of team events state them, e.g. ECU B.7.1.1 (b)): equal
rating performance, then more games played over the board; still equal, the players share the place (listed by
their team's starting number, then name).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from projections.performance import Performance
from projections.players import PlayerResult


@dataclass(frozen=True)
class PrizeRow:
    """One line of a board's table: place (shared places repeat it), the player and the performance."""

    rank: int
    player: PlayerResult
    performance: Performance


def board_prize_tables(players: Iterable[PlayerResult], boards: int, min_games: int, unrated_as: int | None,
                       pairing_numbers: Mapping[str, int]) -> dict[int, list[PrizeRow]]:
    """Nominated board (1 .. ``boards``) -> its table, best first (module docstring). Only players
    with ``min_games`` games played over the board and a performance (a rated opponent, or
    ``unrated_as``) are in a table; ``pairing_numbers``: team id -> starting number (the listing
    order of a shared place)."""
    tables: dict[int, list[PrizeRow]] = {b: [] for b in range(1, boards + 1)}
    candidates: dict[int, list[tuple[PlayerResult, Performance]]] = {b: [] for b in tables}
    for p in players:
        if p.nominated_board not in candidates or len(p.played) < min_games:
            continue
        perf = p.performance(unrated_as)
        if perf is not None:
            candidates[p.nominated_board].append((p, perf))
    for board, entries in candidates.items():
        entries.sort(key=lambda e: (-e[1].rating, -len(e[0].played), pairing_numbers.get(e[0].team_id, 0), e[0].name))
        rank = 0
        previous = None
        for i, (p, perf) in enumerate(entries, start=1):
            key = (perf.rating, len(p.played))
            if key != previous:
                rank, previous = i, key
            tables[board].append(PrizeRow(rank, p, perf))
    return tables
