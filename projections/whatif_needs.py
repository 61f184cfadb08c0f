"""What a team needs: which results of its own match secure, allow or rule out each place band.

For the round in play (the last paired round) and one team: every match score its own match can
still end with (``projections.match_scores.reachable``: half-point steps around the boards
already recorded), against every combination of scores of the other pending matches. Each
combination is laid on a what-if branch (``projections.whatif``) and folded by the standings
engine; the team's place after the round (final after the last round) is in a band "top N"
(N = 1: first, 3: a medal) or not. Per own score and band:

- **secured**: in the band whatever the other matches give; **ruled out**: in none; else
  **possible**, with the share of the combinations in which it is;
- **by tie-breaks**: the share of the combinations in which the team's match points equal those
  of a team on the other side of the band's edge, so that the tie-breaks (the profile's order,
  ``projections.standings``) put it in or out. A verdict with no such combination is decided by
  match points alone, exactly.

The combinations are enumerated when there are at most ``exact_limit`` of them (every score of
every other pending match equally weighted); otherwise ``samples`` of them are drawn uniformly
with a fixed seed (the same ones for every own score), and the answer says so. Shares are of
combinations of results, not probabilities (those are ``projections.whatif_chances``').
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable

from processors.tournament import RuleViolation, TournamentState
from projections.history import build_history
from projections.match_scores import reachable, score_codes
from projections.standings import compute_standings
from projections.whatif import Setting, branch_of, lay
from schemas.events import Table

EXACT_LIMIT = 4096
"""Most combinations of the other matches' scores enumerated; more are sampled."""
SAMPLES = 100
"""Combinations drawn when they are too many to enumerate (each is a whole standings: ~12 ms for 206 teams)."""


@dataclass(frozen=True)
class BandVerdict:
    """One own score's verdict on the band "top ``band``": in it in ``inside`` of ``outcomes``
    combinations of the other matches, decided by tie-breaks in ``by_tiebreaks`` of them."""

    band: int
    inside: int
    by_tiebreaks: int
    outcomes: int

    @property
    def verdict(self) -> str:
        """``secured``, ``possible`` or ``ruled out``."""
        return "secured" if self.inside == self.outcomes else ("ruled out" if self.inside == 0 else "possible")

    @property
    def share(self) -> float:
        """The share (0..1) of the combinations in which the team is in the band."""
        return self.inside / self.outcomes

    @property
    def tiebreak_share(self) -> float:
        """The share (0..1) of the combinations in which tie-breaks decide the band."""
        return self.by_tiebreaks / self.outcomes


@dataclass(frozen=True)
class OwnResult:
    """One score of the team's own match: its game points, its opponent's, its match points, and
    the verdict on each band."""

    own_gp: Decimal
    opponent_gp: Decimal
    mp: int
    bands: tuple[BandVerdict, ...]


@dataclass(frozen=True)
class Needs:
    """What ``team`` needs in round ``round``: its ``table`` and ``opponent`` (None: no match this
    round), one ``OwnResult`` per score it can still make (the result it has when
    its match is decided or set), each judged on ``outcomes`` combinations of the other pending
    matches' scores: all of them, or a sample (``sampled``, drawn with ``seed``)."""

    team: str
    round: int
    final: bool
    table: int | None
    opponent: str | None
    bands: tuple[int, ...]
    results: tuple[OwnResult, ...]
    outcomes: int
    sampled: bool
    seed: int


def team_needs(state: TournamentState, team: str, bands: Iterable[int] = (1, 3), settings: Iterable[Setting] = (), *,
               exact_limit: int = EXACT_LIMIT, samples: int = SAMPLES, seed: int = 1) -> Needs:
    """What ``team`` needs from its own match of the round in play of ``state``, with ``settings``
    (``projections.whatif.setting``) taken as the results of their tables, for each place band
    "top N" of ``bands`` (module docstring). ``state`` is not changed; nothing is written.

    Raises ``RuleViolation``: field ``team`` for a team the tournament does not have, ``band``
    for a band outside 1..the number of teams, ``round`` before any round is paired.
    """
    if team not in state.teams:
        raise RuleViolation(f"no team {team!r} in this tournament", field="team", rule="a registered team")
    bands = tuple(sorted(set(bands)))
    if not bands or bands[0] < 1 or bands[-1] > len(state.teams):
        raise RuleViolation(f"bands {list(bands)}: each a place 1..{len(state.teams)}", field="band", rule="a place band")
    base = branch_of(state, settings)
    rnd = base.last_round
    if rnd == 0:
        raise RuleViolation("no round is paired yet", field="round", rule="a what-if sets the round in play")
    if base.entered.get(team, 1) > rnd:
        raise RuleViolation(f"team {team!r} enters in round {base.entered[team]}", field="team", rule="a team in the standings")
    profile = base.profile
    pending = [t for t in base.rounds[rnd].tables if not base.match(rnd, t.table).complete]
    mine = next((t for t in base.rounds[rnd].tables if team in (t.home, t.away)), None)
    own = mine if mine in pending else None
    others = [t for t in pending if t is not own]
    choices = [[score_codes(h, profile.boards, base.board_codes(rnd, t.table)) for h in
                reachable(profile.boards, base.board_codes(rnd, t.table))] for t in others]
    space = 1
    for c in choices:
        space *= len(c)
    sampled = space > exact_limit
    if sampled:
        rng = random.Random(seed)
        combos = [tuple(rng.randrange(len(c)) for c in choices) for _ in range(samples)]
    else:
        combos = list(itertools.product(*(range(len(c)) for c in choices)))
    own_codes = [None] if own is None else [score_codes(h, profile.boards, base.board_codes(rnd, own.table))
                                            for h in reachable(profile.boards, base.board_codes(rnd, own.table))]
    results = []
    for codes in own_codes:
        branch = base.fork()
        if own is not None:
            lay(branch, rnd, own.table, codes)
        counts = {b: [0, 0] for b in bands}
        for combo in combos:
            trial = branch.fork()
            for t, pick, c in zip(others, combo, choices):
                lay(trial, rnd, t.table, c[pick])
            rows = compute_standings(build_history(trial, rnd), profile)
            row = next(r for r in rows if r.team_id == team)
            for b in bands:
                inside = row.rank <= b
                counts[b][0] += inside
                counts[b][1] += any(r.mp == row.mp and (r.rank <= b) != inside for r in rows)
        results.append(_own_result(branch, rnd, team, mine, bands, counts, len(combos)))
    results.sort(key=lambda r: r.own_gp, reverse=True)
    opponent = None if mine is None else (mine.away if mine.home == team else mine.home)
    return Needs(team, rnd, rnd == profile.rounds, None if mine is None else mine.table, opponent, bands, tuple(results),
                 len(combos), sampled, seed)


def _own_result(branch: TournamentState, rnd: int, team: str, own: Table | None, bands: tuple[int, ...],
                counts: dict[int, list[int]], outcomes: int) -> OwnResult:
    """The ``OwnResult`` of the team's own score laid on ``branch`` at its table ``own`` (None: no
    match this round, a bye or an absence: its round as it stands)."""
    history = build_history(branch, rnd)
    tr = history.rounds[rnd][team]
    opponent_gp = Decimal(0)
    if own is not None:
        m = branch.match(rnd, own.table)
        opponent_gp = m.away_gp if own.home == team else m.home_gp
    verdicts = tuple(BandVerdict(b, counts[b][0], counts[b][1], outcomes) for b in bands)
    return OwnResult(tr.gp, opponent_gp, tr.mp, verdicts)
