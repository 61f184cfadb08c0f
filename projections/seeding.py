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
    (``StartingRanksSet``) if set, else by R-I1 with the profile's rating floor. A team that
    enters later (a late entry), by the profile's ``late_entry_numbers``:
    - ``"c04.2"`` (FIDE C.04.2, general handling rules for Swiss tournaments, 2026, late entries:
      the latecomer "is given an appropriate pairing number", the numbers given at the start being
      provisional until the list of participants is closed): it takes its place in the initial
      order, the number given at registration if any, else before the first team that R-I1 ranks
      below it; the teams after it move down one number (6 teams, a latecomer rated between the
      2nd and the 3rd: it is 3, the old 3..6 are 4..7);
    - ``"stable"``: it takes the next free number, so that no other team is renumbered (the
      Olympiad rules: D.02 2022 art. 3.1 numbers the teams once).
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
    late = [t for tid, t in state.teams.items() if tid not in numbers]
    if profile.late_entry_numbers == "c04.2" and late:
        order = sorted(numbers, key=numbers.get)
        return {tid: n for n, tid in enumerate(_placed(order, late, state.teams, profile.boards, profile.seeding_floor_rating), start=1)}
    for t in late:
        numbers[t.team_id] = len(numbers) + 1
    return numbers


def _placed(order: list[str], late: list[TeamRegistered], teams: dict[str, TeamRegistered], boards: int, floor: int) -> list[str]:
    """``order`` (team ids, pairing order) with each ``late`` team put in its place (C.04.2 late
    entries): at its registered ``pairing_number`` if it has one, else before the first team R-I1
    ranks below it (``team_strength``, then name), else last."""
    def key(t: TeamRegistered) -> tuple:
        avg, fifth = team_strength(t, boards, floor)
        return (-avg, -fifth, t.name)

    out = list(order)
    for t in sorted((t for t in late if t.pairing_number is not None), key=lambda t: t.pairing_number):
        out.insert(min(t.pairing_number - 1, len(out)), t.team_id)
    for t in sorted((t for t in late if t.pairing_number is None), key=key):
        out.insert(next((i for i, tid in enumerate(out) if key(teams[tid]) > key(t)), len(out)), t.team_id)
    return out
