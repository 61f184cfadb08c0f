"""C.07 (2026) art. 6 Direct Encounter for teams, and art. 13.3 Extended Direct Encounter (EDE).

- 6.1: each tied team's score in the matches among the tied teams (a forfeit left out, 6.1.1, unless
  ``/P``); two meetings of the same teams count as their average (6.1.2).
- 6.2: when all tied teams have met each other, these scores rank them. 6.3 (Swiss): otherwise a team
  alone at the top whatever the outcome of the missing matches ranks first, then the same for second
  place, and so on; the rest stay tied.
- 13.3.1: DE on the primary score (MP, or GP when the profile makes game points primary); if that
  separates nobody, on the secondary score (the other one).
- 13.3.3: restart from 13.3.1 whenever a smaller tied subset forms.
- 13.3.2: EDET (+ TBR), EDEB (+ BBE), EDEBT (+ BC + TBR), EDEBB (+ BC + BBE): when exactly two teams
  are still tied on MP and GP (the group is tied on the primary score; ``secondary`` holds the other
  totals), art. 12 decides in that order.

The value of a team is a tuple compared from its first element, higher first: it depends on the group
of teams tied before it (a type A tie-break, C.07 art. 4.3), so the ranking computes it per group.
"""
from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from typing import Callable

from projections.history import History
from projections.standings.unplayed_rounds import Score, awarded
from schemas.points import ZERO

_FORFEITS = ("forfeit-win", "forfeit-loss", "forfeit-draw")


def direct_encounter(history: History, group: list[str], score: Score, win: Decimal, played_forfeits: bool) -> dict[str, Decimal]:
    """Art. 6 on ``score`` among ``group``: team -> value, higher ranks first; equal values stay tied.
    ``win``: the most a team can score in one missing match (6.3)."""
    members = set(group)
    points: dict[tuple[str, str], list[Decimal]] = defaultdict(list)
    for team in group:
        for tr in history.team_rounds(team):
            if tr.opponent in members and (tr.kind == "played" or (played_forfeits and tr.kind in _FORFEITS)):
                points[(team, tr.opponent)].append(awarded(tr, score))
    score_of = {t: sum((sum(v, ZERO) / len(v) for (a, _), v in points.items() if a == t), ZERO) for t in group}
    missing = {t: sum(1 for u in group if u != t and (t, u) not in points) for t in group}
    if not any(missing.values()):
        return score_of
    value: dict[str, Decimal] = {t: ZERO for t in group}
    remaining = list(group)
    place = len(group)
    while len(remaining) > 1:
        alone = [t for t in remaining if all(score_of[t] > score_of[u] + win * missing[u] for u in remaining if u != t)]
        if not alone:
            break
        value[alone[0]] = Decimal(place)
        place -= 1
        remaining.remove(alone[0])
    return value


def extended_direct_encounter(history: History, group: list[str], scores: tuple[tuple[Score, Decimal], ...],
                              played_forfeits: bool, board_keys: list[Callable[[str], tuple]],
                              secondary: dict[str, Decimal]) -> dict[str, tuple]:
    """13.3: team -> its EDE key within ``group`` (see the module docstring). ``scores``: the primary
    then the secondary score, each with the most a team scores in one match (("MP", win MP), ("GP",
    boards)) or the other way round with GP primary; ``board_keys`` are the art. 12 keys of
    EDET/EDEB/EDEBT/EDEBB (each team -> a tuple, higher first); ``secondary`` every team's total of
    the secondary score."""
    out: dict[str, tuple] = {t: () for t in group}

    def level(teams: list[str]) -> None:
        if len(teams) < 2:
            return
        for score, win in scores:
            values = direct_encounter(history, teams, score, win, played_forfeits)
            if len(set(values.values())) > 1:
                break
        else:
            if len(teams) == 2 and secondary[teams[0]] == secondary[teams[1]]:
                for key in board_keys:
                    for t in teams:
                        out[t] = out[t] + key(t)
            return
        for t in teams:
            out[t] = out[t] + (values[t],)
        for v in set(values.values()):
            sub = [t for t in teams if values[t] == v]
            if len(sub) < len(teams):
                level(sub)

    level(list(group))
    width = max(len(k) for k in out.values())
    return {t: k + (ZERO,) * (width - len(k)) for t, k in out.items()}
