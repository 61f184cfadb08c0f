"""Pairing order, score groups, the median group and the order groups are paired in.

- Pairing order: ``pairing_order="mp-then-pairing-number"`` ranks by MP, then pairing number
  (FIDE D.02 2022 art. 3.2). ``"standings"`` (2008, spec R-O1/R-O2) ranks by the pairing score
  (MP + imaginary MP), then the profile's tie-breaks as ``projections.standings`` computes them
  (OSB-C1, BH-C1, GP), then the pairing number. In the S1 v S2 rounds (before ``fold_from_round``)
  ``early_round_group_order="pairing-number"`` orders teams of equal pairing score by pairing
  number instead (spec A4 option P; "standings" is option S).
- A score group is every team to pair with the same pairing score (R-G1, D.02 6.3).
- Group order: ``"top-down"`` (2008, R-G2), or ``"median-first"`` (R-G3, D.02 6.4): from the top
  group down to the one above the median group, from the bottom group up to the one below it,
  the median group last. The median team is the middle one of the teams to pair, the lower of
  the two middle ones when their number is even. ``median_sides`` says which side goes first
  (spec R-G3 [I]; see ``docs/pairing-fidelity.md``, Samarkand 2026 round 2).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from projections.history import History
from projections.standings import compute_standings
from projections.pairing.trace import Rule
from projections.standings.ranking import tiebreak_sort_key
from schemas.profile import RuleProfile

DOWN, UP = "down", "up"


def order_keys(history: History, profile: RuleProfile, rnd: int, score: dict[str, int]) -> dict[str, tuple]:
    """The sort key of each team in ``score`` for the pairing order of round ``rnd`` (ascending =
    higher ranked): ``(-pairing score, -tie-break 1, ..., pairing number)``."""
    numbers = {t: history.teams[t].pairing_number for t in score}
    by_standings = profile.pairing_order == "standings" and not (
        rnd < profile.fold_from_round and profile.early_round_group_order == "pairing-number"
    )
    if not by_standings or history.through_round == 0:
        return {t: (-score[t], numbers[t]) for t in score}
    rows = {row.team_id: row for row in compute_standings(ranked_as_entered(history, score), profile)}
    return {
        t: (-score[t], *(tiebreak_sort_key(name, rows[t].tiebreaks[name]) for name in profile.tiebreaks), numbers[t]) for t in score
    }


def ranked_as_entered(history: History, teams: Iterable[str]) -> History:
    """``history`` in which each of ``teams`` has a row in the standings after ``through_round``.

    A late entry paired in its first round has no row in the standings after the round before
    (it appears once it has entered: ``projections.standings``), yet R-O1 ranks the teams to pair
    by those standings. It is ranked on its record so far, as every team is: each round before
    its entry is a round without a pairing, 0 MP and 0 GP (spec README, standings rule 2; FIDE
    C.04.1 F.5: a player known not to play a round is not paired and scores 0), and an unplayed
    round in OSB and BH (rule 6, or the profile's ``unplayed`` reading). With 0 MP and every key
    at its lowest it goes to the foot of the 0-MP group, then pairing number decides (R-O2: late
    entries take the next numbers, D.02 2022 art. 3.1). Same teams, rounds and tournament id:
    only ``TeamInfo.entered`` differs, so the memoised standings lines are shared.
    """
    late = [t for t in teams if history.teams[t].entered > history.through_round]
    if not late:
        return history
    infos = dict(history.teams)
    for t in late:
        infos[t] = replace(infos[t], entered=history.through_round)
    return History(infos, history.rounds, history.through_round, history.withdrawn, history.tournament_id,
                   history.board_results)


def describe_order(profile: RuleProfile, rnd: int) -> tuple[Rule | str, str]:
    """``(rule, text)`` naming the pairing order used in round ``rnd``: the D.02 2022 order (MP,
    then pairing number) by its article whatever the profile (it is that rule's switch), the
    others as spec rules cited from the profile's rule source."""
    if profile.pairing_order == "mp-then-pairing-number":
        return "D.02 2022 art. 3.2", "pairing order: MP, then pairing number"
    score = "pairing score (MP + imaginary MP)" if profile.acceleration and rnd <= profile.acceleration_rounds else "MP"
    if rnd < profile.fold_from_round and profile.early_round_group_order == "pairing-number":
        return Rule("spec R-O1, A4 option P"), f"pairing order: {score}, then pairing number"
    return Rule("spec R-O1, R-O2"), f"pairing order: {score}, then {', '.join(profile.tiebreaks)}, then pairing number"


@dataclass(frozen=True)
class GroupStep:
    """One score group in processing order: its pairing ``score``, the ``members`` (places in the
    pairing order, ascending), the ``direction`` its floaters move (``"down"``/``"up"``) and the
    ``adjacent`` group's members (where its floaters go; empty for the last group)."""

    score: int
    members: tuple[int, ...]
    direction: str
    adjacent: tuple[int, ...]


def score_groups(entries: list[tuple[int, int]]) -> list[tuple[int, tuple[int, ...]]]:
    """Score groups of ``entries`` = ``(place, pairing score)`` in pairing order:
    ``[(score, places)]`` from the highest score down (R-G1, D.02 6.3)."""
    groups: dict[int, list[int]] = {}
    for place, s in entries:
        groups.setdefault(s, []).append(place)
    return [(s, tuple(groups[s])) for s in sorted(groups, reverse=True)]


def median_score(entries: list[tuple[int, int]]) -> int:
    """The median group's score (R-G3, D.02 6.4): the score of the team at index n // 2 of the
    n ``(place, score)`` entries to pair, i.e. the lower of the two middle teams when n is even."""
    return entries[len(entries) // 2][1]


def processing_order(entries: list[tuple[int, int]], group_order: str, median_sides: str = "top-first") -> list[GroupStep]:
    """The score groups of ``entries`` (``(place, pairing score)`` in pairing order, the bye left
    out) in the order they are paired. ``median_sides`` (median-first only): ``"top-first"`` pairs
    the groups above the median group before those below it (the text of D.02 6.4),
    ``"bottom-first"`` the other way round; either way each side moves towards the median group."""
    if not entries:
        return []
    groups = score_groups(entries)
    if group_order == "top-down":
        return [
            GroupStep(s, members, DOWN, groups[i + 1][1] if i + 1 < len(groups) else ())
            for i, (s, members) in enumerate(groups)
        ]
    if group_order != "median-first":
        raise ValueError(f"unknown group order {group_order!r}")
    median = median_score(entries)
    members_of = dict(groups)
    above = [s for s, _ in groups if s > median]
    below = sorted(s for s, _ in groups if s < median)
    steps = []
    sides = ((above, DOWN), (below, UP)) if median_sides == "top-first" else ((below, UP), (above, DOWN))
    for side, direction in sides:
        for i, s in enumerate(side):
            nxt = side[i + 1] if i + 1 < len(side) else median
            steps.append(GroupStep(s, members_of[s], direction, members_of[nxt]))
    steps.append(GroupStep(median, members_of[median], DOWN, ()))
    return steps
