"""Benchmark (issue 16, acceptance 3): ``olympiad audit`` of a whole Olympiad, whole process,
median of 5, from the event store's database and (``--kafka kafka://HOST:PORT/TOURNAMENT``, with
``$OLYMPIAD_TOPIC_PREFIX``) from Kafka. Goal: under 2 s.

    .venv/bin/python -m bench.bench_audit [--runs 5] [--db URL] [--kafka kafka://127.0.0.1:9092/samarkand-2026-open]
                                          [--against URL|FILE] [--key HEX] [--cached-bytecode]

Without ``--db`` it builds a SQLite store of the Samarkand 2026 Open (``olympiad replay --db``).
Prints, per source, the wall time and the CPU time (user + system of the process) of each run
and their medians, the CPU per event and the audit's verdict (its last line: the Samarkand import
has no signed checkpoint, so without ``--key``/``--against`` it is consistent but not anchored,
exit status 3, which counts as a run; a divergence or a refusal stops the bench); one run per
source first, not counted (disk caches).

Python compiles every module it imports that has no cached bytecode: with
``PYTHONDONTWRITEBYTECODE`` set and an editable install, each run compiles the project's own
modules again (some 0.2 s of CPU). ``--cached-bytecode`` lets the runs cache it, outside the
work tree (``PYTHONPYCACHEPREFIX``, a temporary folder), as an installed program has it.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OLYMPIAD = [sys.executable, "-m", "olympiad"]


AUDITED = (0, 3)
"""The exit statuses of an audit that ran to its end without a divergence (anchored; not anchored)."""


def run_once(source: str, env: dict[str, str], options: list[str]) -> tuple[float, float, str, str]:
    """(wall s, CPU s, summary line, last line) of one ``olympiad audit SOURCE --no-trail OPTIONS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*OLYMPIAD, "audit", source, "--no-trail", *options], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in AUDITED:
        raise SystemExit(f"olympiad audit {source} exited {done.returncode}: {done.stdout[-500:]}{done.stderr[-500:]}")
    lines = done.stdout.splitlines()
    return wall, cpu, next(line for line in lines if " events, rounds " in line), f"exit {done.returncode}: {lines[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--db", help="an event store's URL (default: a SQLite store of the Samarkand 2026 Open)")
    parser.add_argument("--kafka", help="kafka://HOST:PORT/TOURNAMENT of a published tournament")
    parser.add_argument("--against", help="the published checkpoints to audit against (olympiad audit --against)")
    parser.add_argument("--key", help="the chief arbiter's public key to pin (olympiad audit --key)")
    parser.add_argument("--cached-bytecode", action="store_true", help="let the runs cache compiled modules (in a temporary folder)")
    args = parser.parse_args()
    sources = []
    tmp = tempfile.TemporaryDirectory()
    env = dict(os.environ)
    if args.cached_bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp.name) / "pycache")
    print(f"bytecode: {'cached' if 'PYTHONDONTWRITEBYTECODE' not in env else 'compiled at every run (PYTHONDONTWRITEBYTECODE)'}")
    db = args.db
    if db is None:
        db = f"sqlite:///{Path(tmp.name) / 'samarkand.sqlite'}"
        subprocess.run([*OLYMPIAD, "replay", "samarkand-2026-open", "--db", db], check=True, capture_output=True)
    sources.append(("database", db))
    if args.kafka:
        sources.append(("kafka", args.kafka))
    options = [*(["--against", args.against] if args.against else []), *(["--key", args.key] if args.key else [])]
    for label, source in sources:
        run_once(source, env, options)  # not counted: disk caches, and the bytecode cache if allowed
        runs = [run_once(source, env, options) for _ in range(args.runs)]
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        events = int(runs[0][2].split(": ", 1)[1].split()[0])
        print(f"{label}: {runs[0][2]}")
        print(f"{label}: {runs[0][3]}")
        print(f"{label}: wall s {' '.join(f'{w:.2f}' for w in walls)}; median {statistics.median(walls):.2f} s (goal < 2 s)")
        print(f"{label}: CPU s {' '.join(f'{c:.2f}' for c in cpus)}; median {statistics.median(cpus):.2f} s, "
              f"{statistics.median(cpus) / events * 1e6:.0f} us per event ({events} events)")
    tmp.cleanup()


if __name__ == "__main__":
    main()
