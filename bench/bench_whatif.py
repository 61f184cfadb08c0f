"""Benchmark: a what-if and the chances over the Samarkand 2026 Open (issue 31, acceptance 4).

- **what-if**: the log after round 9 (round 10 paired, no result in), all 103 round-10 matches
  set to their real scores (``projections.whatif.settings_of``), the standings after round 10 and
  the engine's pairing of round 11 (``what_if``). CPU seconds: the first (cold memos) and the
  median of ``--runs``. Goal: under 50 ms.
- **chances**: the log after round 8 (round 9 not paired yet), ``--simulations`` simulations of
  the last three rounds, each round paired by the real engine (``projections.whatif_chances``),
  on one core. CPU seconds in all and per simulation. Goal: 1,000 under 60 s.

CPU time (``time.process_time``), not wall time: other processes on the machine do not count.

    .venv/bin/python -m bench.bench_whatif [--runs 10] [--simulations 1000] [--seed 1]
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from olympiad.web.preload import through_round
from producers.sources import load_log
from projections.replay import replay
from projections.whatif import settings_of, what_if
from projections.whatif_chances import chances
from schemas.points import fmt_points

TID = "samarkand-2026-open"
WHATIF_GOAL_S = 0.050
CHANCES_GOAL_S = 60.0  # for 1,000 simulations


def before_pairing(events: list[Any], rnd: int) -> list[Any]:
    """``events`` up to the pairing of round ``rnd`` (exclusive): rounds 1..rnd-1 as played."""
    out = []
    for e in events:
        if e.type == "RoundPaired" and e.round == rnd:
            break
        out.append(e)
    return out


def whatif_cpu(runs: int) -> tuple[float, float, int]:
    """``(first, median)`` CPU seconds of a what-if with all 103 round-10 scores set over the log
    after round 9 (standings and the round-11 pairing), and the number of tables of that pairing."""
    events = load_log(TID)
    full = replay(events).state
    after_9 = replay(through_round(events, 9))
    texts = [f"10/{t.table}={fmt_points(full.match(10, t.table).home_gp)}-{fmt_points(full.match(10, t.table).away_gp)}"
             for t in full.rounds[10].tables]
    cpus = []
    for _ in range(runs + 1):
        start = time.process_time()
        result = what_if(after_9.state, settings_of(after_9.state, texts), after_9.rounds)
        cpus.append(time.process_time() - start)
    assert result.next_round == 11 and len(texts) == 103
    return cpus[0], statistics.median(cpus[1:]), len(result.pairing.tables)


def chances_cpu(simulations: int, seed: int) -> tuple[float, Any]:
    """CPU seconds of ``simulations`` simulations of rounds 9-11 from the log after round 8, and the ``Chances``."""
    state = replay(before_pairing(load_log(TID), 9)).state
    start = time.process_time()
    odds = chances(state, simulations, seed)
    return time.process_time() - start, odds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    first, median, tables = whatif_cpu(args.runs)
    print(f"what-if, Samarkand after round 9, 103 matches set, standings + round-11 pairing ({tables} tables): "
          f"first {first * 1000:.1f} ms CPU, median of {args.runs} {median * 1000:.1f} ms CPU "
          f"(goal < {WHATIF_GOAL_S * 1000:.0f} ms: {'met' if median < WHATIF_GOAL_S else 'MISSED'})", flush=True)
    cpu, odds = chances_cpu(args.simulations, args.seed)
    goal = CHANCES_GOAL_S * args.simulations / 1000
    print(f"chances, Samarkand after round 8, {args.simulations} simulations of rounds 9-11 (each paired by the engine), "
          f"seed {args.seed}: {cpu:.1f} s CPU, {cpu / args.simulations * 1000:.1f} ms per simulation, "
          f"{odds.unpaired} unpaired (goal < {goal:.0f} s: {'met' if cpu < goal else 'MISSED'})")
    for team in sorted(odds.places, key=lambda t: -odds.chance(t, 1))[:5]:
        print(f"  {team:<6} first {100 * odds.chance(team, 1):5.1f} % ± {100 * odds.error(team, 1):.1f}   "
              f"top 3 {100 * odds.chance(team, 3):5.1f} % ± {100 * odds.error(team, 3):.1f}")


if __name__ == "__main__":
    main()
