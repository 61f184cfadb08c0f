"""Benchmark (issue 2, point 7): replay of the whole Samarkand 2026 Open, standings after each round.

Prints the median of 5 runs for: parsing the shipped event log, folding it with the standings of
all 11 rounds (``projections.replay``), and the embedded-store path the CLI takes (append to an
in-memory SQLite event store + rebuild of the read models). Goal: the whole replay under 1 s.
Also the standings after rounds 1, 6 and 11 on the final state, taken again and again as the live
projection worker takes them after every batch (computation + canonical document + digest).

Run: ``.venv/bin/python -m bench.bench_replay``
"""
from __future__ import annotations

import statistics
import time

from processors.tournament import TournamentState
from producers.doors import EmbeddedDoor
from producers.sources import Source, import_command, load_source
from projections.replay import replay, standings_after
from projections.store import EventStore

RUNS = 5


def _median(fn) -> float:
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    events = load_source("samarkand-2026-open")
    n = len(events)
    parse = _median(lambda: load_source("samarkand-2026-open"))
    fold = _median(lambda: replay(events))
    full = _median(lambda: replay(load_source("samarkand-2026-open")))

    def store_path():
        store = EventStore("sqlite://")
        EmbeddedDoor(store).decide(import_command(Source("samarkand-2026-open", events, True)))
        store.project()

    stored = _median(store_path)
    print(f"Samarkand 2026 Open: {n} events, 206 teams, 11 rounds, standings after each round; median of {RUNS} runs")
    print(f"  parse shipped event log        {parse * 1000:8.1f} ms")
    print(f"  fold + standings x11           {fold * 1000:8.1f} ms   {n / fold:10.0f} events/s")
    print(f"  parse + fold + standings x11   {full * 1000:8.1f} ms   {n / full:10.0f} events/s   (goal < 1000 ms)")
    print(f"  embedded store: import+project {stored * 1000:8.1f} ms   {n / stored:10.0f} events/s")
    state = TournamentState()
    for event in events:
        state.evolve(event)
    for rnd in (1, 6, 11):
        took = _median(lambda: standings_after(state, rnd).digest)
        print(f"  standings after round {rnd:<2} again {took * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
