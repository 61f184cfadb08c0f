"""Benchmark (issue 12, acceptance 1): at least 10,000 mutated events and commands through each door.

Doors: the event store, the log loader, the HTTP API, the Kafka processors' ``Judge`` and the
projection worker (``tests.fuzz.doors``, the same harness as the short profile of
``tests/fuzz/test_fuzz_doors.py``). Prints per door the mutants, how many were accepted and
refused, and the four counts that must be 0: crashes, invalid events accepted, refusals that do
not name the field and the rule, valid events lost beside a refused one; then CPU seconds per
1,000 mutants. Exit status 1 if a count is not 0 or a door got fewer than ``--mutants``.

Run: ``.venv/bin/python -m bench.bench_fuzz [--mutants 10000] [--doors store,log,http,processors,worker]``
(some 15 minutes of CPU for all five doors at 10,000).
"""
from __future__ import annotations

import argparse
import math
import sys
import time

from tests.fuzz.doors import DOORS, TEMPLATES, run

EVENT_SHARE = sum(1 for t in TEMPLATES if "command" not in t) / len(TEMPLATES)  # the doors that take events only


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=10_000)
    parser.add_argument("--doors", default=",".join(DOORS))
    args = parser.parse_args()
    ok = True
    for door in args.doors.split(","):
        # A few HTTP mutants make URLs the client cannot send (not counted): 1 % spare.
        examples = math.ceil(args.mutants * 1.01) if door in ("processors", "http") else math.ceil(args.mutants / EVENT_SHARE * 1.05)
        start = time.process_time()
        counts = run(door, examples)
        cpu = time.process_time() - start
        print(f"{counts.line()}  cpu {1000 * cpu / max(counts.mutants, 1):.2f} s per 1000", flush=True)
        for kind, samples in counts.samples.items():
            for sample in samples:
                print(f"    {kind}: {sample}")
        ok = ok and counts.ok() and counts.mutants >= args.mutants
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
