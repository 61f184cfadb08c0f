"""Helpers for the pairing tests: hand-made histories and tournaments."""
from __future__ import annotations

import dataclasses
from decimal import Decimal

from producers.simulator import new_tournament, publish, record_match
from projections.history import History, TeamInfo, TeamRound, build_history
from projections.pairing import Pairing, propose_pairing
from schemas.profile import RuleProfile


def games(pairing: Pairing) -> list[str]:
    """Tables as "home-away" in publication order."""
    return [f"{t.home}-{t.away}" for t in pairing.tables]


def as_pairs(*texts: str) -> set[frozenset[str]]:
    """``"1-3"`` -> {T1, T3} pairs."""
    return {frozenset(f"T{x}" for x in text.split("-")) for text in texts}


def synthetic(teams: list[tuple[int, int, str, tuple[int, ...]]], rounds: int | None = None) -> History:
    """A history for the 2022 profile (MP then pairing number) from ``(pairing number, MP, board-1
    colours, opponents met)`` per team: round k has the k-th colour ("-" or none = no colour) and
    the k-th met opponent (else an unregistered opponent); MP go to the first rounds, 2 at most."""
    rounds_n = rounds or max(max(len(c), len(met), -(-mp // 2), 1) for _, mp, c, met in teams)
    infos = {f"T{n}": TeamInfo(f"T{n}", f"Team {n}", f"F{n}", n, Decimal(2000 - n)) for n, _, _, _ in teams}
    per_round: dict[int, dict[str, TeamRound]] = {r: {} for r in range(1, rounds_n + 1)}
    for n, mp, colours, met in teams:
        team = f"T{n}"
        left = mp
        for r in range(1, rounds_n + 1):
            colour = colours[r - 1] if r <= len(colours) else "-"
            opponent = f"T{met[r - 1]}" if r <= len(met) else f"ghost{n}-{r}"
            gain = min(2, left)
            left -= gain
            per_round[r][team] = TeamRound(r, team, opponent, Decimal(2 * gain), gain, "played",
                                           None if colour == "-" else colour, r)
        if left:
            raise ValueError(f"T{n}: {mp} MP do not fit in {rounds_n} rounds")
    return History(infos, per_round, rounds_n, {})


def override(history: History, team: str, rnd: int, **changes) -> History:
    """``history`` with ``team``'s round ``rnd`` changed (``kind``, ``opponent``, ``mp`` ...)."""
    rounds = dict(history.rounds)
    rounds[rnd] = {**rounds[rnd], team: dataclasses.replace(rounds[rnd][team], **changes)}
    return History(history.teams, rounds, history.through_round, history.withdrawn)


def play_round(state, profile: RuleProfile, rnd: int, home_scores: dict[tuple[str, str], float] | None = None,
               default: float = 3, absent: tuple[str, ...] = ()) -> Pairing:
    """Pair round ``rnd`` with the engine, publish it, and record every match (home GP from
    ``home_scores`` keyed by (home, away), else ``default``)."""
    pairing = propose_pairing(build_history(state, rnd - 1), profile, rnd, absent)
    publish(state, pairing, absent)
    for t in pairing.tables:
        record_match(state, rnd, t.table, (home_scores or {}).get((t.home, t.away), default))
    return pairing


def field(profile: RuleProfile, n: int):
    """A tournament of ``n`` teams T1..Tn (pairing numbers in order)."""
    state, _ = new_tournament(profile, [2600 - 5 * i for i in range(n)])
    return state
