"""Simulated tournaments: rated teams, Elo-based board results, the engine's own pairings.

``simulate(SimulationSpec(...))`` returns the event list of a whole tournament, the same events a
real one produces (``TournamentCreated``, ``TeamRegistered``, then per round ``TeamWithdrawn``,
``RoundPaired`` from ``projections.pairing.propose_pairing``, and ``BoardResultRecorded`` /
``MatchForfeited``), so ``olympiad replay`` reads its log. Everything random comes from one
``random.Random(seed)``: the same spec gives the same events.

Board results: the rating model of ``projections.rating_model`` (Elo's expectation with White's
edge, a draw rate scaled by the closeness of the game), the one the what-if's chances use. Small rates
of board forfeits, whole-match forfeits, absences (a team not paired that round) and withdrawals.
``draw_spec(seed, profile)`` draws all of these (and the team and round counts) from the seed.
The helpers ``new_tournament`` (player ratings kept within 1000-2900), ``publish``, ``record_match`` build hand-written tournaments
(tests, examples) from the same events.

A generator, not a door: it builds its events itself, from the engine's legal pairings and
results at tables it paired, and evolves its state with them (``TournamentState.evolve``); it
judges nothing. Its log enters a store like any other: as an ``ImportFacts`` command, where the
event rules judge it once.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Iterable

from processors.tournament import TournamentState
from projections.history import build_history
from projections.match_scores import score_codes
from projections.pairing import NoLegalPairing, Pairing, propose_pairing
from projections.rating_model import DRAW_RATE, WHITE_EDGE, board_result
from schemas import event_ids
from schemas.events import (
    BoardResultRecorded,
    MatchForfeited,
    Player,
    RoundPaired,
    TeamRegistered,
    TeamWithdrawn,
    TournamentCreated,
)
from schemas.profile import RuleProfile, named, with_rounds


@dataclass(frozen=True)
class SimulationSpec:
    """What to simulate. Rates are probabilities: ``draw_rate`` scales the draw chance of a board,
    ``board_forfeit_rate`` per board, ``match_forfeit_rate`` per match (one side absent at the
    board: a default win, not a meeting, R-D7), ``absence_rate`` per team and round (not paired),
    ``withdrawal_rate`` per team and tournament."""

    teams: int
    rounds: int
    seed: int
    profile: RuleProfile
    tournament_id: str = "simulated"
    draw_rate: float = DRAW_RATE
    board_forfeit_rate: float = 0.005
    match_forfeit_rate: float = 0.005
    absence_rate: float = 0.01
    withdrawal_rate: float = 0.01
    white_edge: int = WHITE_EDGE
    rating_mean: int = 2150
    rating_sd: int = 280


def draw_spec(seed: int, profile: RuleProfile, teams: tuple[int, int] = (6, 80), rounds: tuple[int, int] = (5, 11),
              tournament_id: str | None = None) -> SimulationSpec:
    """A random tournament drawn from ``seed`` alone (so a discrepancy is reproducible from it):
    team count and round count uniform in the inclusive ranges ``teams`` and ``rounds`` (rounds at
    most teams - 1), the rating mean (1600-2500) and spread (sd 50-400), the draw rate (0.15-0.6),
    and the rates of board forfeits (0-2 %), whole-match forfeits (0-5 %), absences (0-6 %) and
    withdrawals (0-4 %). ``profile`` is played over the drawn number of rounds (``with_rounds``)."""
    rng = random.Random(f"draw-spec/{seed}")
    n = rng.randint(*teams)
    r = min(rng.randint(*rounds), n - 1)
    return SimulationSpec(
        teams=n, rounds=r, seed=seed, profile=with_rounds(profile, r),
        tournament_id=tournament_id or f"sim-{profile.name}-{seed}",
        draw_rate=round(rng.uniform(0.15, 0.6), 3),
        board_forfeit_rate=round(rng.uniform(0, 0.02), 4),
        match_forfeit_rate=round(rng.uniform(0, 0.05), 4),
        absence_rate=round(rng.uniform(0, 0.06), 4),
        withdrawal_rate=round(rng.uniform(0, 0.04), 4),
        rating_mean=rng.randint(1600, 2500),
        rating_sd=rng.randint(50, 400),
    )


@dataclass
class Simulation:
    """The events of a simulated tournament, its final state, and why it stopped early (if it did:
    ``stopped`` says why, ``stopped_absent`` lists the teams absent in the round that could not be paired)."""

    events: list[Any]
    state: TournamentState
    stopped: str = ""
    stopped_absent: tuple[str, ...] = ()


def new_tournament(
    profile: RuleProfile, ratings: Iterable[int], tournament_id: str = "t", *, numbered: bool = True
) -> tuple[TournamentState, list[Any]]:
    """A tournament of teams ``T1``, ``T2`` ... whose five players are rated around each rating.

    ``numbered``: register with pairing numbers 1..N in the given order (an official start list);
    otherwise R-I1 seeding numbers them. Returns the state and the events it evolved.
    """
    profile = named(profile)
    events: list[Any] = [TournamentCreated(event_id=event_ids.created(tournament_id), tournament_id=tournament_id, name=tournament_id, profile=profile)]
    for i, rating in enumerate(ratings, start=1):
        players = tuple(Player(board_order=b, name=f"T{i} player {b}", rating=min(2900, max(1000, rating + 40 - 20 * b))) for b in range(1, 6))
        events.append(TeamRegistered(event_id=event_ids.team(tournament_id, f"T{i}"), tournament_id=tournament_id, team_id=f"T{i}", name=f"Team {i:04d}",
                                     federation=f"F{i:03d}", players=players, pairing_number=i if numbered else None))
    state = TournamentState()
    for e in events:
        state.evolve(e)
    return state, events


def publish(state: TournamentState, pairing: Pairing, absent: Iterable[str] = ()) -> RoundPaired:
    """Publish ``pairing`` as the round's ``RoundPaired`` (unchanged) and evolve ``state`` with it."""
    event = RoundPaired(event_id=event_ids.pairing(state.tournament_id, pairing.round), tournament_id=state.tournament_id or "",
                        round=pairing.round, tables=pairing.tables, bye=pairing.bye, absent=tuple(sorted(set(absent) | set(pairing.absent))),
                        note=f"engine pairing, profile {pairing.profile}")
    state.evolve(event)
    return event


def record_match(state: TournamentState, rnd: int, table: int, home_gp: Decimal | float | str) -> list[BoardResultRecorded]:
    """Record the match at ``table`` of round ``rnd`` as ``home_gp`` to the home team; evolves
    ``state`` with the board events and returns them."""
    out = []
    for board, code in score_codes(home_gp, state.profile.boards).items():
        e = BoardResultRecorded(event_id=event_ids.board(state.tournament_id, rnd, table, board), tournament_id=state.tournament_id or "",
                                round=rnd, table=table, board=board, result=code)
        state.evolve(e)
        out.append(e)
    return out


def simulate(spec: SimulationSpec) -> Simulation:
    """Run the whole tournament of ``spec``; stops early (``Simulation.stopped`` says why) when
    the engine finds no legal pairing for a round."""
    rng = random.Random(spec.seed)
    ratings = sorted((int(rng.gauss(spec.rating_mean, spec.rating_sd)) for _ in range(spec.teams)), reverse=True)
    state, events = new_tournament(spec.profile, ratings, spec.tournament_id, numbered=False)
    team_rating = {f"T{i}": r for i, r in enumerate(ratings, start=1)}
    # A team can withdraw from round 2 on: a one-round tournament has no withdrawals.
    leaving = {t: rng.randint(2, spec.rounds) for t in sorted(state.teams)
               if rng.random() < spec.withdrawal_rate} if spec.rounds >= 2 else {}
    stopped, stopped_absent = "", ()
    for rnd in range(1, spec.rounds + 1):
        for team in sorted(t for t, r in leaving.items() if r == rnd):
            e = TeamWithdrawn(event_id=event_ids.withdrawn(spec.tournament_id, team), tournament_id=spec.tournament_id, team_id=team,
                              from_round=rnd, reason="simulated withdrawal")
            state.evolve(e)
            events.append(e)
        active = [t for t in sorted(state.teams) if t not in state.withdrawn]
        absent = [t for t in active if rng.random() < spec.absence_rate]
        try:
            pairing = propose_pairing(build_history(state, rnd - 1), spec.profile, rnd, absent)
        except NoLegalPairing as exc:
            stopped, stopped_absent = f"round {rnd} cannot be paired: {exc}", tuple(absent)
            break
        events.append(publish(state, pairing, absent))
        for t in pairing.tables:
            events.extend(_play(state, spec, rng, rnd, t.table, team_rating[t.home], team_rating[t.away], t.home))
    return Simulation(events, state, stopped, stopped_absent)


def _play(state: TournamentState, spec: SimulationSpec, rng: random.Random, rnd: int, table: int, home: int, away: int, home_id: str) -> list[Any]:
    tid = spec.tournament_id
    if rng.random() < spec.match_forfeit_rate:
        winner = home_id if rng.random() < 0.5 else state.tables[(rnd, table)].away
        e = MatchForfeited(event_id=event_ids.match_forfeit(tid, rnd, table), tournament_id=tid, round=rnd, table=table, winner=winner,
                           forfeit="absence", note="simulated: a team did not arrive")
        state.evolve(e)
        return [e]
    out = []
    for board in range(1, state.profile.boards + 1):
        white, black = (home, away) if board % 2 else (away, home)
        if rng.random() < spec.board_forfeit_rate:
            code = "+/-" if rng.random() < 0.5 else "-/+"
        else:
            code = board_result(rng, white, black, spec.draw_rate, spec.white_edge)
        e = BoardResultRecorded(event_id=event_ids.board(tid, rnd, table, board), tournament_id=tid, round=rnd, table=table, board=board, result=code)
        state.evolve(e)
        out.append(e)
    return out
