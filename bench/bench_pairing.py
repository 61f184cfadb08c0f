"""Benchmark: time to pair one round (``propose_pairing``) for 200, 500, 1,000 and 2,000 teams.

For each size and profile a tournament is simulated (``producers.simulator``, seed = size) up to
round ``--round`` - 1; then the pairing of that round is timed, median of ``--runs`` runs (the
history is built once, outside the timing; the 2008 profile's standings-based order is inside).
Goals: issue 3, 200 teams <= 0.1 s, 1,000 teams <= 2 s; issue 15, 200 teams under the C.04.6
profiles (``--profiles swiss-team-2026 ...``) <= 0.1 s. Printed: wall and CPU seconds (medians),
and the CPU ratio to olympiad-2022 on the same tournament size measured in the same run.

    .venv/bin/python bench/bench_pairing.py [--sizes 200 500 1000 2000] [--round 6] [--runs 5] [--profiles P ...]
"""
from __future__ import annotations

import argparse
import statistics
import time

from producers.simulator import SimulationSpec, simulate
from projections.history import build_history
from projections.pairing import propose_pairing
from schemas.profile import PROFILES


def bench(teams: int, rnd: int, runs: int, profile) -> tuple[float, float, int]:
    """Median wall and CPU seconds of ``runs`` pairings of round ``rnd``, and the number of tables."""
    sim = simulate(SimulationSpec(teams=teams, rounds=rnd - 1, seed=teams, profile=profile, absence_rate=0.0, withdrawal_rate=0.0))
    history = build_history(sim.state, rnd - 1)
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        pairing = propose_pairing(history, profile, rnd)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), len(pairing.tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 500, 1000, 2000])
    parser.add_argument("--round", type=int, default=6, dest="rnd")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profiles", nargs="+", default=["olympiad-2008", "olympiad-2022"], choices=sorted(PROFILES))
    args = parser.parse_args()
    print(f"pairing round {args.rnd}, median of {args.runs} runs")
    print(f"{'profile':<26}{'teams':>7}{'tables':>8}{'wall s':>9}{'cpu s':>9}{'cpu / olympiad-2022':>21}")
    baseline = {n: bench(n, args.rnd, args.runs, PROFILES["olympiad-2022"])[1] for n in args.sizes}
    for name in args.profiles:
        for n in args.sizes:
            wall, cpu, tables = bench(n, args.rnd, args.runs, PROFILES[name])
            print(f"{name:<26}{n:>7}{tables:>8}{wall:>9.3f}{cpu:>9.3f}{cpu / baseline[n]:>21.2f}", flush=True)


if __name__ == "__main__":
    main()
