"""Initial ranking (pairing numbers) of the teams.

R-I1 (FIDE D.02 2022 art. 3.1; D.II.02 2009 art. 8-9): average rating of the four
highest-rated players, descending; ties by the rating of the fifth player, then by name.
R-I2: an unrated player counts at the profile's rating floor; a missing fifth player as 0.
A ``pairing_number`` given at registration (an official start list) takes precedence.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Iterable

from schemas.events import TeamRegistered


def team_strength(team: TeamRegistered, boards: int, floor: int) -> tuple[Decimal, int]:
    """``(average of the best ``boards`` ratings, rating of the next player)`` per R-I1/R-I2."""
    ratings = sorted((p.rating if p.rating else floor for p in team.players), reverse=True)
    best = ratings[:boards] + [floor] * max(0, boards - len(ratings))
    fifth = ratings[boards] if len(ratings) > boards else 0
    return Decimal(sum(best)) / boards, fifth


def pairing_numbers(teams: Iterable[TeamRegistered], boards: int = 4, floor: int = 1000) -> dict[str, int]:
    """Map team id -> pairing number 1..N (1 = strongest).

    Teams registered with an explicit ``pairing_number`` (an official start list) come first,
    in the order of their numbers (gaps closed, so that the numbers are always 1..N); the others
    follow them in R-I1 order.
    """
    teams = list(teams)
    given = sorted((t for t in teams if t.pairing_number is not None), key=lambda t: t.pairing_number)
    rest = [t for t in teams if t.pairing_number is None]

    def key(t: TeamRegistered) -> tuple:
        avg, fifth = team_strength(t, boards, floor)
        return (-avg, -fifth, t.name)

    rest.sort(key=key)
    return {t.team_id: n for n, t in enumerate(given + rest, start=1)}


def tournament_pairing_numbers(state) -> dict[str, int]:
    """Team id -> pairing number for every team of a ``TournamentState``.

    The teams that play from round 1 are numbered by the chief arbiter's starting ranks
    (``StartingRanksSet``) if set, else by R-I1 with the profile's rating floor; a team that
    enters later (a late entry) takes the next number, so that no other team is renumbered
    (stable pairing numbers, D.02 2022 art. 3.1).
    """
    profile = state.profile
    first = [t for tid, t in state.teams.items() if state.entered.get(tid, 1) == 1]
    if state.starting_ranks:
        ranked = [tid for tid in state.starting_ranks if tid in state.teams]
        numbers = {tid: n for n, tid in enumerate(ranked, start=1)}
        for t in first:
            numbers.setdefault(t.team_id, len(numbers) + 1)
    else:
        numbers = pairing_numbers(first, profile.boards, profile.seeding_floor_rating)
    for tid in state.teams:
        numbers.setdefault(tid, len(numbers) + 1)
    return numbers
