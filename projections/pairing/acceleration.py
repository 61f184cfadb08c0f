"""Acceleration: virtual (imaginary) match points in the first rounds, for pairing only.

Two methods, each for the systems it is approved for (``schemas.profile_switches.ACCELERATIONS``):
the 2008 Olympiad constant (``top-half``, ``baku-even``; below) for the 2008 rules, and the C.04.7
Baku Acceleration Method (``c04.7-baku``, ``baku_virtual_points``) for C.04.6.

The 2008 constant:
Spec R-A1..R-A3 (founding document S1): before round 1 the top half of the initial list gets
``acceleration_mp`` (2) imaginary MP, counted in the pairing score of rounds
1..``acceleration_rounds`` (1-2) only; they are gone from the round-3 pairing and never enter the
standings or a tie-break (R-A2, A12: the standings module never sees them).
Size of the top half, N = the teams paired in round 1 (present that round, bye included):
``"top-half"`` A = floor(N / 2) (R-A3 variant L); ``"baku-even"`` A = 2 * ceil(N / 4) (variant B).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from projections.history import History
from schemas.profile import RuleProfile

OLYMPIAD_2008_METHODS = ("top-half", "baku-even")
NOT_PLAYING = ("absent", "not-entered")


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
    if profile.acceleration not in OLYMPIAD_2008_METHODS or rnd > profile.acceleration_rounds:
        return {}
    first = round_one_list(history, present)
    top = first[: top_half_size(len(first), profile.acceleration)]
    return {t: profile.acceleration_mp for t in top}


def round_one_list(history: History, present: Iterable[str]) -> list[str]:
    """The teams paired in round 1 (bye included, absent and not-entered teams left out), by pairing
    number: read from the history once round 1 is in it, else ``present`` (the teams to pair in
    round 1). Both methods size their accelerated group on this list (R-A3, C.04.7)."""
    if 1 in history.rounds:
        first = [t for t, tr in history.rounds[1].items() if tr.kind not in NOT_PLAYING]
    else:
        first = list(present)
    return sorted(first, key=lambda t: history.teams[t].pairing_number)


def baku_schedule(rounds: int) -> tuple[int, int]:
    """C.04.7 Baku method, virtual points: ``(accelerated, full)``: the accelerated rounds are the
    first half of the tournament, rounded up; the virtual points are worth a win in the first half
    of them, rounded up (``full``), and half that (a draw) in the others. 9 rounds: (5, 3)."""
    accelerated = -(-rounds // 2)
    return accelerated, -(-accelerated // 2)


@dataclass(frozen=True)
class BakuRound:
    """One round under the C.04.7 Baku method: the ``group`` GA (team ids), the TPN of its last
    team (``last_tpn``), and ``points``, the virtual MP each GA team gets in the round (0 after
    the accelerated rounds); ``text``: the trace line saying so."""

    group: frozenset[str]
    last_tpn: int
    points: int
    text: str


def baku_round(history: History, profile: RuleProfile, rnd: int, present: list[str]) -> BakuRound | None:
    """The C.04.7 Baku method in round ``rnd`` (None unless the profile's acceleration is
    ``c04.7-baku``). Initial groups division: GA is the first 2 x ceil(N / 4) teams of the round-1
    list (the N teams paired in round 1, by pairing number; ``present`` in round 1 itself). Late
    entries: the last GA team stays the same, and GA is every team numbered up to it, so a late
    entry numbered above it (C.04.2 numbering) joins GA. Virtual points: a win's MP in the first
    ``full`` rounds, a draw's MP up to the last accelerated round (``baku_schedule``), none after;
    pairing only, never in the standings (C.04.7 pairing score)."""
    if profile.acceleration != "c04.7-baku":
        return None
    first = round_one_list(history, present)
    if not first:
        return None
    size = min(len(first), 2 * -(-len(first) // 4))
    last_tpn = history.teams[first[size - 1]].pairing_number
    group = frozenset(t for t, info in history.teams.items() if info.pairing_number <= last_tpn)
    accelerated, full = baku_schedule(profile.rounds)
    points = baku_points(profile, rnd)
    half = f", half in {full + 1}-{accelerated}" if accelerated > full else ""
    text = (f"C.04.7 Baku acceleration, round {rnd} ({accelerated} accelerated rounds): GA = TPN 1-{last_tpn} "
            f"({len(group)} teams), " + (f"{points} virtual MP each ({'a win' if rnd <= full else 'a draw'}: full value in "
                                         f"rounds 1-{full}{half})" if points else "no virtual points any more"))
    return BakuRound(group, last_tpn, points, text)


def baku_points(profile: RuleProfile, rnd: int) -> int:
    """The virtual MP a GA team has in round ``rnd`` under C.04.7 (``baku_schedule``): a win's MP,
    a draw's MP, or 0."""
    accelerated, full = baku_schedule(profile.rounds)
    return profile.match_points.win if rnd <= full else profile.match_points.draw if rnd <= accelerated else 0


@dataclass(frozen=True)
class VirtualPoints:
    """Virtual (imaginary) MP as TRF-2026 record 250 states them: ``mp`` MP for the teams numbered
    ``first_tpn``..``last_tpn`` in the pairing of rounds ``first_round``..``last_round``."""

    mp: int
    first_round: int
    last_round: int
    first_tpn: int
    last_tpn: int


def virtual_points(history: History, profile: RuleProfile, present: Iterable[str] = ()) -> list[VirtualPoints]:
    """The profile's acceleration over the whole tournament, as the ranges record 250 writes (empty
    without an acceleration). The groups are those the pairing uses: C.04.7, GA = TPN 1..the last
    GA team, a win's MP in rounds 1..``full``, a draw's MP up to the last accelerated round
    (``baku_round``, ``baku_schedule``); the 2008 constant, ``acceleration_mp`` MP in rounds
    1..``acceleration_rounds`` for the top half of the teams paired in round 1 (``imaginary_points``),
    one range per run of consecutive pairing numbers (a team absent in round 1 breaks a run).
    ``present``: the teams to pair in round 1 while the history holds no round (else unread)."""
    first = round_one_list(history, present)
    if not first or profile.acceleration is None:
        return []
    if profile.acceleration == "c04.7-baku":
        baku = baku_round(history, profile, 1, first)
        accelerated, full = baku_schedule(profile.rounds)
        out = [VirtualPoints(profile.match_points.win, 1, full, 1, baku.last_tpn)]
        if accelerated > full:
            out.append(VirtualPoints(profile.match_points.draw, full + 1, accelerated, 1, baku.last_tpn))
        return out
    tpns = sorted(history.teams[t].pairing_number for t in imaginary_points(history, profile, 1, first))
    runs: list[list[int]] = []
    for tpn in tpns:
        if runs and tpn == runs[-1][1] + 1:
            runs[-1][1] = tpn
        else:
            runs.append([tpn, tpn])
    last = min(profile.acceleration_rounds, profile.rounds)
    return [VirtualPoints(profile.acceleration_mp, 1, last, a, b) for a, b in runs]
