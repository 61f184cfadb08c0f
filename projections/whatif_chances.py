"""Chances: a Monte Carlo of the rounds still to play, each paired by the real engine.

Each simulation forks the what-if branch (``projections.whatif``: the state with the settings
laid over it), draws the result of every pending board of the round in play from the rating
model (``projections.rating_model``: Elo's expectation with White's edge, the simulator's model;
the players of each board from the team's line-up, its first nominated players without one),
then pairs every later round with the engine under the tournament's own profile
(``projections.pairing.proposal.propose_round``: the announced absences, late entries and
withdrawals as the log records them) and plays it the same way, up to the last round. The final
standings (``projections.standings``: MP, then the profile's tie-breaks) give each team a place:
its row's position, 1..number of teams, so that every place goes to exactly one team per
simulation and the chances of each place add up to 100 % (teams equal on every key are ordered
by pairing number, as the standings list them). No forfeit, absence or withdrawal is drawn.

Everything random comes from one ``random.Random(seed)``: the same state, settings, number of
simulations and seed give the same chances. A chance p estimated from n simulations has the
standard error sqrt(p (1 - p) / n) (``Chances.error``). Nothing is written.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Iterable

from processors.scoring import home_is_white
from processors.tournament import RuleViolation, TournamentState
from projections.history import build_history
from projections.pairing.proposal import propose_round
from projections.rating_model import board_ratings, board_result
from projections.standings import compute_standings
from projections.whatif import HYPOTHETICAL, Setting, branch_of, hypothetical_result
from schemas.events import RoundPaired

MAX_SIMULATIONS = 2000
"""Most simulations one request may ask for (1,000 of Samarkand's last three rounds: ~45 s CPU)."""


@dataclass(frozen=True)
class Chances:
    """The outcome of ``simulations`` simulations from round ``round`` (the round in play) to
    ``last_round``, drawn with ``seed``: ``places[team][k]`` is the number of simulations in which
    ``team`` finished in place k + 1; ``unpaired`` simulations stopped on a round the engine could
    not pair (counted nowhere; ``counted`` are the others)."""

    round: int
    last_round: int
    simulations: int
    seed: int
    places: dict[str, tuple[int, ...]]
    unpaired: int = 0

    @property
    def counted(self) -> int:
        """The simulations that reached the end of the tournament."""
        return self.simulations - self.unpaired

    def chance(self, team: str, top: int) -> float:
        """The share (0..1) of the counted simulations in which ``team`` finished in places 1..``top``."""
        return sum(self.places[team][:top]) / self.counted if self.counted else 0.0

    def error(self, team: str, top: int) -> float:
        """The standard error of ``chance(team, top)``: sqrt(p (1 - p) / n)."""
        p = self.chance(team, top)
        return math.sqrt(p * (1 - p) / self.counted) if self.counted else 0.0


def chances(state: TournamentState, simulations: int, seed: int = 1, settings: Iterable[Setting] = ()) -> Chances:
    """Simulate the rest of the tournament of ``state`` (with ``settings`` taken as the results of
    their tables) ``simulations`` times from ``seed`` (module docstring). ``state`` is not changed.

    Raises ``RuleViolation`` (field ``chances``) for a number of simulations outside
    1..``MAX_SIMULATIONS``, and (field ``round``) before any round is paired.
    """
    if not 1 <= simulations <= MAX_SIMULATIONS:
        raise RuleViolation(f"{simulations} simulations: from 1 to {MAX_SIMULATIONS}", field="chances",
                            rule=f"at most {MAX_SIMULATIONS:,} simulations")
    base = branch_of(state, settings)
    rnd = base.last_round
    if rnd == 0:
        raise RuleViolation("no round is paired yet", field="round", rule="chances of a paired tournament")
    profile = base.profile
    last = profile.rounds
    rng = random.Random(seed)
    ratings: dict[tuple[int, str], tuple[int, ...]] = {}
    counts = {team: [0] * len(base.teams) for team in base.teams}
    unpaired = 0
    build_history(base, rnd)  # folds every table once: each simulation's fork starts with the folds (~10 % of its time)
    for _ in range(simulations):
        sim = base.fork()
        _play(sim, rnd, rng, ratings)
        try:
            for r in range(rnd + 1, last + 1):
                _pair(sim, r)
                _play(sim, r, rng, ratings)
        except RuleViolation:
            unpaired += 1
            continue
        for place, row in enumerate(compute_standings(build_history(sim, last), profile)):
            counts[row.team_id][place] += 1
    return Chances(rnd, last, simulations, seed, {t: tuple(c) for t, c in counts.items()}, unpaired)


def _pair(sim: TournamentState, rnd: int) -> None:
    """Pair round ``rnd`` of the simulation with the engine and publish it there (its branch only)."""
    pairing = propose_round(sim, rnd)
    tid = sim.tournament_id or ""
    sim.evolve(RoundPaired(event_id=f"{tid}/whatif/r{rnd}/paired", tournament_id=tid, round=rnd, tables=pairing.tables,
                           bye=pairing.bye, absent=pairing.absent, note=HYPOTHETICAL))


def _play(sim: TournamentState, rnd: int, rng: random.Random, ratings: dict[tuple[int, str], tuple[int, ...]]) -> None:
    """Draw every board of round ``rnd`` that has no result yet from the rating model."""
    tid = sim.tournament_id or ""
    boards = sim.profile.boards
    for t in sim.rounds[rnd].tables:
        home = ratings.get((rnd, t.home)) or ratings.setdefault((rnd, t.home), board_ratings(sim, rnd, t.home))
        away = ratings.get((rnd, t.away)) or ratings.setdefault((rnd, t.away), board_ratings(sim, rnd, t.away))
        for board in range(1, boards + 1):
            if (rnd, t.table, board) in sim.results:
                continue
            i = board - 1
            white, black = (home[i], away[i]) if home_is_white(board) else (away[i], home[i])
            sim.evolve(hypothetical_result(tid, rnd, t.table, board, board_result(rng, white, black)))
