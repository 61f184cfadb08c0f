"""The rating model of simulated results: one board's result drawn from the two players' ratings.

White's expected score is Elo's logistic expectation with White's edge added to White's rating,
E = 1 / (1 + 10 ** ((Rb - Rw - white_edge) / 400)) (A. Elo, "The Rating of Chessplayers, Past
and Present", 1978; the logistic form FIDE's rating tables approximate, FIDE Handbook B.02 8.1.2).
A draw has probability ``draw_rate * 2 * min(E, 1 - E)`` (the closer the game, the likelier the
draw); the rest of the probability is split between the wins so that White's expected score
stays E. The simulator (``producers.simulator``) plays whole tournaments with it, the what-if's
chances (``projections.whatif_chances``) the rounds still to play.
"""
from __future__ import annotations

import random

from processors.tournament import TournamentState

DRAW_RATE = 0.35
"""How much of the closeness of a game turns into draws (0: none, 1: a game of equals is drawn always)."""
WHITE_EDGE = 35
"""White's advantage in rating points."""


def expected_score(white: float, black: float, white_edge: float = WHITE_EDGE) -> float:
    """White's expected score (0..1) against Black (Elo's logistic expectation, White's edge added)."""
    return 1 / (1 + 10 ** ((black - white - white_edge) / 400))


def board_result(rng: random.Random, white: float, black: float, draw_rate: float = DRAW_RATE,
                 white_edge: float = WHITE_EDGE) -> str:
    """One game's result code (White-Black: ``1-0``, ``1/2-1/2``, ``0-1``) drawn with one
    ``rng.random()`` from the players' ratings, per the model of this module."""
    expected = expected_score(white, black, white_edge)
    p_draw = draw_rate * 2 * min(expected, 1 - expected)
    x = rng.random()
    return "1-0" if x < expected - p_draw / 2 else ("1/2-1/2" if x < expected + p_draw / 2 else "0-1")


def board_ratings(state: TournamentState, rnd: int, team: str) -> tuple[int, ...]:
    """The ratings of ``team``'s players on boards 1..n in round ``rnd``: its line-up
    (``TournamentState.lineup``: the first nominated players without one), an unrated player or
    a board nobody fills at the profile's rating floor (R-I2)."""
    floor = state.profile.seeding_floor_rating
    by_order = {p.board_order: p.rating or floor for p in state.teams[team].players}
    return tuple(by_order.get(order, floor) for order in state.lineup(rnd, team))
