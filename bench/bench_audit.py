"""Benchmark (issue 16, acceptance 3): ``olympiad audit`` of a whole Olympiad, whole process,
median of 5, from the event store's database and (``--kafka kafka://HOST:PORT/TOURNAMENT``, with
``$OLYMPIAD_TOPIC_PREFIX``) from Kafka. Goal: under 2 s.

    .venv/bin/python -m bench.bench_audit [--runs 5] [--db URL] [--kafka kafka://127.0.0.1:9092/samarkand-2026-open]

Without ``--db`` it builds a SQLite store of the Samarkand 2026 Open (``olympiad replay --db``).
Prints, per source, the wall time and the CPU time (user + system of the process) of each run
and their medians, and the CPU per event.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OLYMPIAD = [sys.executable, "-m", "olympiad"]


def run_once(source: str) -> tuple[float, float, str]:
    """(wall s, CPU s, last line) of one ``olympiad audit SOURCE --no-trail``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*OLYMPIAD, "audit", source, "--no-trail"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"olympiad audit {source} exited {done.returncode}: {done.stdout[-500:]}{done.stderr[-500:]}")
    return wall, cpu, done.stdout.strip().splitlines()[-2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", help="an event store's URL (default: a SQLite store of the Samarkand 2026 Open)")
    parser.add_argument("--kafka", help="kafka://HOST:PORT/TOURNAMENT of a published tournament")
    args = parser.parse_args()
    sources = []
    tmp = tempfile.TemporaryDirectory()
    db = args.db
    if db is None:
        db = f"sqlite:///{Path(tmp.name) / 'samarkand.sqlite'}"
        subprocess.run([*OLYMPIAD, "replay", "samarkand-2026-open", "--db", db], check=True, capture_output=True)
    sources.append(("database", db))
    if args.kafka:
        sources.append(("kafka", args.kafka))
    for label, source in sources:
        runs = [run_once(source) for _ in range(args.runs)]
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        events = int(runs[0][2].split(": ", 1)[1].split()[0])
        print(f"{label}: {runs[0][2]}")
        print(f"{label}: wall s {' '.join(f'{w:.2f}' for w in walls)}; median {statistics.median(walls):.2f} s (goal < 2 s)")
        print(f"{label}: CPU s {' '.join(f'{c:.2f}' for c in cpus)}; median {statistics.median(cpus):.2f} s, "
              f"{statistics.median(cpus) / events * 1e6:.0f} us per event ({events} events)")
    tmp.cleanup()


if __name__ == "__main__":
    main()
