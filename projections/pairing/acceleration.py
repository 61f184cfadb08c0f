"""Acceleration (2008 profile): imaginary match points in the first rounds.

Spec R-A1..R-A3 (founding document S1): before round 1 the top half of the initial list gets
``acceleration_mp`` (2) imaginary MP, counted in the pairing score of rounds
1..``acceleration_rounds`` (1-2) only; they are gone from the round-3 pairing and never enter the
standings or a tie-break (R-A2, A12: the standings module never sees them).
Size of the top half, N = the teams paired in round 1 (present that round, bye included):
``"top-half"`` A = floor(N / 2) (R-A3 variant L); ``"baku-even"`` A = 2 * ceil(N / 4) (variant B).
"""
from __future__ import annotations

from projections.history import History
from schemas.profile import RuleProfile


def top_half_size(n: int, variant: str) -> int:
    """A, the number of accelerated teams among ``n`` teams paired in round 1 (R-A3)."""
    if variant == "top-half":
        return n // 2
    if variant == "baku-even":
        return min(n, 2 * -(-n // 4))
    raise ValueError(f"unknown acceleration variant {variant!r}")


def imaginary_points(history: History, profile: RuleProfile, rnd: int, present: list[str]) -> dict[str, int]:
    """Imaginary MP per team for the pairing of round ``rnd`` (teams without any are left out).

    ``present``: the teams to pair in ``rnd``; in round 1 they are the teams paired in round 1,
    later those are read from the history (every team not absent in round 1).
    """
    if profile.acceleration is None or rnd > profile.acceleration_rounds:
        return {}
    if rnd == 1:
        first = list(present)
    else:
        first = [t for t, tr in history.rounds[1].items() if tr.kind != "absent"]
    first.sort(key=lambda t: history.teams[t].pairing_number)
    top = first[: top_half_size(len(first), profile.acceleration)]
    return {t: profile.acceleration_mp for t in top}
