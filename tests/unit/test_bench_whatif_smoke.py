"""Issue 31, acceptance 4 in the suite: a small run of ``bench/bench_whatif.py`` (the bench runs
1,000 simulations; here a what-if at full size and three simulations of the last three rounds)."""
from __future__ import annotations

from bench.bench_whatif import WHATIF_GOAL_S, chances_cpu, whatif_cpu


def test_a_what_if_over_the_samarkand_open_takes_under_50_ms_cpu():
    first, median, tables = whatif_cpu(runs=3)
    assert tables == 103
    assert 0 < median < WHATIF_GOAL_S


def test_three_simulations_of_the_last_three_rounds_place_every_team():
    cpu, odds = chances_cpu(simulations=3, seed=1)
    assert cpu > 0 and (odds.round, odds.last_round, odds.counted) == (8, 11, 3)
    assert len(odds.places) == 206
    assert [sum(odds.places[t][k] for t in odds.places) for k in range(206)] == [3] * 206
