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
    """Map team id -> pairing number (1 = strongest).

    Teams registered with an explicit ``pairing_number`` keep it; the others follow them in
    R-I1 order. Raises ``ValueError`` if explicit numbers collide or leave gaps.
    """
    teams = list(teams)
    given = {t.team_id: t.pairing_number for t in teams if t.pairing_number is not None}
    rest = [t for t in teams if t.pairing_number is None]

    def key(t: TeamRegistered) -> tuple:
        avg, fifth = team_strength(t, boards, floor)
        return (-avg, -fifth, t.name)

    rest.sort(key=key)
    numbers = dict(given)
    nxt = max(given.values(), default=0)
    for t in rest:
        nxt += 1
        numbers[t.team_id] = nxt
    if sorted(numbers.values()) != list(range(1, len(numbers) + 1)):
        raise ValueError("pairing numbers must be 1..N without gaps or repeats")
    return numbers


def tournament_pairing_numbers(state) -> dict[str, int]:
    """Team id -> pairing number for every team of a ``TournamentState``, by its profile's rules."""
    profile = state.profile
    return pairing_numbers(state.teams.values(), profile.boards, profile.seeding_floor_rating)
