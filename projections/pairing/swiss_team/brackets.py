"""The PAB (C.04.6 art. 3.4) and the set of upfloaters of a bracket (art. 3.5).

Teams are keyed by TPN. "Pairable" is [C3] art. 2.2.1: a perfect matching without a rematch
exists ([C1]); answered by ``projections.pairing.matching.perfect_matching`` (exact).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from itertools import combinations, combinations_with_replacement
from typing import Callable, Iterator, Sequence

from projections.pairing.matching import NoLegalPairing, perfect_matching
from projections.pairing.swiss_team.teams import SwissTeam

Compat = Callable[[int, int], bool]


def pairable(teams: Sequence[SwissTeam], compat: Compat) -> bool:
    """[C3]: ``teams`` can all be paired without a rematch."""
    return not teams or perfect_matching([t.tpn for t in teams], compat) is not None


def choose_pab(teams: Sequence[SwissTeam], compat: Compat) -> SwissTeam | None:
    """The team that gets the PAB (art. 3.4), or None with an even number of teams.

    Of the teams [C2] allows (art. 2.1.2), the first that leaves the others pairable (3.4.1), by
    lowest score (3.4.2), most matches played (3.4.3), largest TPN (3.4.4). Raises
    ``NoLegalPairing`` (art. 3.3.3) when there is none.
    """
    if len(teams) % 2 == 0:
        return None
    for team in sorted((t for t in teams if not t.bye_block), key=lambda t: (t.score, -t.played, -t.tpn)):
        if pairable([t for t in teams if t is not team], compat):
            return team
    raise NoLegalPairing(f"C.04.6 art. 3.3.3, 3.4.1: no team of the {len(teams)} to pair may get the PAB "
                         "([C2]) and leave a legal pairing for the others")


@dataclass(frozen=True)
class Bracket:
    """The bracket chosen for a top scoregroup: ``level`` (its score), ``residents``, the
    ``upfloaters`` (art. 3.5.3 order), whether [C6] holds (``c6``) and the [C7] count (``c7``)."""

    level: Decimal
    residents: tuple[SwissTeam, ...]
    upfloaters: tuple[SwissTeam, ...]
    c6: bool
    c7: int

    @property
    def members(self) -> tuple[SwissTeam, ...]:
        return self.residents + self.upfloaters


def score_profiles(lower: Sequence[SwissTeam], count: int) -> list[tuple[Decimal, ...]]:
    """The score profiles (multisets of scores) of ``count`` upfloaters drawn from ``lower``,
    best first by [C5] art. 2.3.2: "maximise the scores (taken in ascending order) of the
    upfloaters"."""
    available: dict[Decimal, int] = {}
    for t in lower:
        available[t.score] = available.get(t.score, 0) + 1
    out = [p for p in combinations_with_replacement(sorted(available, reverse=True), count)
           if all(p.count(s) <= available[s] for s in set(p))]
    return sorted(out, key=sorted, reverse=True)


def upfloater_sets(lower: Sequence[SwissTeam], profile: tuple[Decimal, ...]) -> Iterator[tuple[SwissTeam, ...]]:
    """Every set of upfloaters with score ``profile``, each sorted by descending score then
    ascending TPN (art. 3.5.3), the sets in lexicographic order of those TPNs (art. 3.5.4);
    generated lazily (art. 3.5.5 takes the first that complies)."""
    scores = sorted(set(profile), reverse=True)
    pools = [sorted((t for t in lower if t.score == s), key=lambda t: t.tpn) for s in scores]
    counts = [profile.count(s) for s in scores]

    def sets_from(k: int) -> Iterator[tuple[SwissTeam, ...]]:
        if k == len(scores):
            yield ()
            return
        for chosen in combinations(pools[k], counts[k]):
            for rest in sets_from(k + 1):
                yield chosen + rest

    return sets_from(0)


def following_stays_pairable(next_level: Decimal | None, rest: Sequence[SwissTeam], compat: Compat) -> bool:
    """[C6] art. 2.3.3, read pass/fail (open reading A6, as gacrux): unless the following
    scoregroup (score ``next_level``) is now empty, what is left of it can be paired ([C1],
    [C3]) with the fewest upfloaters its size allows ([C4]: none if even, one if odd, from any
    lower scoregroup), the rest of the round staying pairable."""
    following = [t for t in rest if t.score == next_level]
    if not following:
        return True
    below = [t for t in rest if t.score < next_level]
    for extra in ([()] if len(following) % 2 == 0 else [(t,) for t in below]):
        group = following + list(extra)
        inside = {t.tpn for t in group}
        if pairable(group, compat) and pairable([t for t in rest if t.tpn not in inside], compat):
            return True
    return False


def choose_bracket(level: Decimal, next_level: Decimal | None, remaining: Sequence[SwissTeam], compat: Compat,
                   floats_count: bool) -> Bracket:
    """The bracket of the top scoregroup (score ``level``) of the ``remaining`` teams (art. 3.5).

    Upfloater sets are tried by [C4] (fewest first, the parity of the residents allowing), then
    [C5] (``score_profiles``); of one profile's sets, those whose bracket is pairable and leaves
    the rest pairable ([C3]) compete by [C6] (``following_stays_pairable``), then [C7] (fewest
    upfloaters who floated in the previous round, when ``floats_count``; read as minimised,
    open reading A7, as gacrux), then art. 3.5.4 order. A count or profile without such a set
    is no candidate. Raises ``NoLegalPairing`` (art. 3.3.3) when no set works.
    """
    residents = tuple(t for t in remaining if t.score == level)
    lower = [t for t in remaining if t.score < level]
    for count in range(len(residents) % 2, len(lower) + 1, 2):
        for profile in score_profiles(lower, count):
            best: Bracket | None = None
            for ups in upfloater_sets(lower, profile):
                c7 = sum(1 for t in ups if t.floated) if floats_count else 0
                if best is not None and (best.c6 and best.c7 <= c7):
                    continue  # a later set only wins on a better [C6] or [C7]
                members = residents + ups
                if not pairable(members, compat):
                    continue
                inside = {t.tpn for t in members}
                rest = [t for t in remaining if t.tpn not in inside]
                if not pairable(rest, compat):
                    continue
                c6 = following_stays_pairable(next_level, rest, compat)
                candidate = Bracket(level, residents, ups, c6, c7)
                if best is None or (not c6, c7) < (not best.c6, best.c7):
                    best = candidate
                if c6 and c7 == 0:
                    break
            if best is not None:
                return best
    raise NoLegalPairing(f"C.04.6 art. 3.3.3: the scoregroup of {level} has no legal pairing with any set of upfloaters")
