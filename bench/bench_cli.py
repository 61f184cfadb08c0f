"""Start-up of the command line, whole process: ``olympiad --help`` and ``olympiad replay
samarkand-2026-open``. Goals: ``--help`` a median under 0.2 s of wall time (issue 13); the replay
a median of at most 0.3 s of CPU time (issue 32: CPU, which the load of a shared machine moves
less than wall time).

Each command runs 5 times after one warm-up; printed: the median wall time and CPU time (user +
system, from the operating system's accounting of the finished child) and, measured in the same
run, the ratio to a bare interpreter start (``python -c pass``), which a noisy machine shifts
alike. Run: ``.venv/bin/python -m bench.bench_cli``.

The warm-up writes the bytecode caches (``__pycache__``, git-ignored) even where
``PYTHONDONTWRITEBYTECODE`` is set, as the first run of an installed package does: the counted
runs time a start-up, not a compilation of every module of the project (about 0.05 s more).
"""
from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 5
OLYMPIAD = str(Path(sys.executable).parent / "olympiad")
COMMANDS = {
    "python -c pass (baseline)": [sys.executable, "-c", "pass"],
    "olympiad --help": [OLYMPIAD, "--help"],
    "olympiad replay samarkand-2026-open": [OLYMPIAD, "replay", "samarkand-2026-open"],
}
GOALS = {"olympiad --help": ("wall", 0.2), "olympiad replay samarkand-2026-open": ("CPU", 0.3)}
"""Per command: which median is judged (wall or CPU seconds) and its goal (wall under it, CPU at most it)."""


def once(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole run of ``argv`` (environment ``env``, default ours)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env or os.environ)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    writing = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for argv in COMMANDS.values():
        once(argv, writing)  # warm-up: page cache, .pyc files
    for _ in range(RUNS):  # interleaved, so that a slow spell of the machine hits every command alike
        for name, argv in COMMANDS.items():
            results[name].append(once(argv))
    base_wall = statistics.median(w for w, _ in results["python -c pass (baseline)"])
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'command':40} {'wall s':>8} {'CPU s':>8} {'x baseline':>10}  goal")
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        verdict = ""
        if name in GOALS:
            what, goal = GOALS[name]
            met = wall < goal if what == "wall" else cpu <= goal
            verdict = f"{what} {'<' if what == 'wall' else '<='} {goal} s: {'met' if met else 'MISSED'}"
        print(f"{name:40} {wall:8.3f} {cpu:8.3f} {wall / base_wall:10.1f}  {verdict}")


if __name__ == "__main__":
    main()
