"""Benchmark: time to pair one round (``propose_pairing``) for 200, 500, 1,000 and 2,000 teams.

For each size and profile a tournament is simulated (``producers.simulator``, seed = size) up to
round ``--round`` - 1; then the pairing of that round is timed, median of ``--runs`` runs (the
history is built once, outside the timing; the 2008 profile's standings-based order is inside).
Goal (issue 3): 200 teams <= 0.1 s, 1,000 teams <= 2 s.

    .venv/bin/python bench/bench_pairing.py [--sizes 200 500 1000 2000] [--round 6] [--runs 5]
"""
from __future__ import annotations

import argparse
import statistics
import time

from producers.simulator import SimulationSpec, simulate
from projections.history import build_history
from projections.pairing import propose_pairing
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022


def bench(teams: int, rnd: int, runs: int, profile) -> tuple[float, int]:
    """Median seconds of ``runs`` pairings of round ``rnd``, and the number of tables."""
    sim = simulate(SimulationSpec(teams=teams, rounds=rnd - 1, seed=teams, profile=profile, absence_rate=0.0, withdrawal_rate=0.0))
    history = build_history(sim.state, rnd - 1)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        pairing = propose_pairing(history, profile, rnd)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(pairing.tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000, 2000])
    parser.add_argument("--round", type=int, default=6, dest="rnd")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"pairing round {args.rnd}, median of {args.runs} runs")
    print(f"{'profile':<15}{'teams':>7}{'tables':>8}{'seconds':>10}")
    for profile in (OLYMPIAD_2008, OLYMPIAD_2022):
        for n in args.sizes:
            seconds, tables = bench(n, args.rnd, args.runs, profile)
            print(f"{profile.name:<15}{n:>7}{tables:>8}{seconds:>10.3f}", flush=True)


if __name__ == "__main__":
    main()
