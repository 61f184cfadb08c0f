"""Benchmark: what the projection worker spends per batch on the Samarkand 2026 Open, in CPU time.

The shipped log (206 teams, 11 rounds) is cut into the batches a loaded worker sees: ``--batch``
board results each, the registrations riding along in log order, each pairing starting a batch. Two
measurements, each the median over ``--runs`` runs of a whole tournament from a fresh state
(the log parsed again, every memo of ``projections.memo`` emptied):

- ``worker``: ``projections.projector.Projector.apply_batch`` on an in-memory SQLite database (the
  read models, the standings and their SQL rows), then the payloads ``Worker.publish`` sends:
  ``StandingsUpdated`` as canonical JSON and the next round's ``PairingProposed`` (Kafka left out);
- ``standings``: the computation alone, as the worker chains it: ``standings_after`` on the last
  paired round, its canonical document and digest, ``standings_rows`` and ``next_round_proposal``.

CPU time (``time.process_time``), not wall time: the numbers hold on a busy machine.
Prints per run the median and p90 CPU ms per batch and the total CPU s; then the medians over runs.

Run: ``.venv/bin/python -m bench.bench_worker_standings [--batch 10] [--runs 3]``
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, Callable, NamedTuple

from deploy import topics
from processors.tournament import TournamentState
from projections.memo import clear_memos
from projections.pairing.read_model import next_round_proposal
from projections.replay import standings_after
from producers.sources import load_source
from projections.store import standings_document_row, standings_rows
from projections.projector import Projector, standings_payload
from projections.worker import make_engine
from schemas.canonical import canonical_json

SOURCE = "samarkand-2026-open"


class Record(NamedTuple):
    """The fields of a kafka-python ``ConsumerRecord`` that ``Projector.apply_batch`` reads."""

    topic: str
    partition: int
    offset: int
    value: bytes
    key: bytes | None = None
    headers: list[tuple[str, bytes]] | None = None


def batches(events: list[Any], size: int) -> list[list[Any]]:
    """``events`` in log order, cut after every ``size``-th board-level event and before every
    pairing (``olympiad publish`` waits for a round's standings before it publishes the next pairing)."""
    out: list[list[Any]] = [[]]
    board_results = 0
    for event in events:
        if event.type == "RoundPaired" and out[-1]:
            out.append([])
        out[-1].append(event)
        if event.type in topics.BOARD_LEVEL:
            board_results += 1
            if board_results % size == 0:
                out.append([])
    return [b for b in out if b]


def worker_run(events: list[Any], size: int) -> list[float]:
    """CPU seconds per batch of ``Projector.apply_batch`` plus the publish payloads (no Kafka)."""
    projector = Projector(make_engine("sqlite://"), "bench")
    offset = 0
    times = []
    for batch in batches(events, size):
        records = []
        for event in batch:
            records.append(Record("tournament-log", 0, offset, canonical_json(event).encode()))
            offset += 1
        t0 = time.process_time()
        snapshots = projector.apply_batch(records)
        for snap in snapshots:
            standings_payload(snap)
        for tid in {s.tournament_id for s in snapshots}:
            proposal = projector.proposal(tid)
            if proposal is not None:
                canonical_json(proposal)
        times.append(time.process_time() - t0)
    return times


def standings_run(events: list[Any], size: int) -> list[float]:
    """CPU seconds per batch of the standings computation chain alone (after folding the batch)."""
    state = TournamentState()
    times = []
    for batch in batches(events, size):
        for event in batch:
            state.evolve(event)
        if not state.rounds:
            continue
        t0 = time.process_time()
        st = standings_after(state, max(state.rounds))
        standings_document_row(state.tournament_id, st)
        standings_rows(state.tournament_id, st)
        next_round_proposal(state)
        times.append(time.process_time() - t0)
    return times


def measure(name: str, run: Callable[[list[Any], int], list[float]], size: int, runs: int) -> None:
    medians, totals = [], []
    for i in range(runs):
        events = load_source(SOURCE)
        clear_memos()
        times = run(events, size)
        per = sorted(times)
        medians.append(statistics.median(per))
        totals.append(sum(per))
        print(f"  {name:<9} run {i + 1}: {len(per)} batches, median {medians[-1] * 1000:7.2f} ms, "
              f"p90 {per[int(0.9 * (len(per) - 1))] * 1000:7.2f} ms, total {totals[-1]:6.2f} s CPU", flush=True)
    print(f"  {name:<9} median of {runs} runs: {statistics.median(medians) * 1000:7.2f} ms CPU per batch, "
          f"{statistics.median(totals):6.2f} s CPU in all", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=10, help="board results per batch")
    parser.add_argument("--runs", type=int, default=3, help="whole-tournament runs (median over them)")
    parser.add_argument("--only", choices=["worker", "standings"], help="one measurement only")
    args = parser.parse_args()
    print(f"{SOURCE}: the worker's batches of {args.batch} board results, CPU time")
    if args.only in (None, "worker"):
        measure("worker", worker_run, args.batch, args.runs)
    if args.only in (None, "standings"):
        measure("standings", standings_run, args.batch, args.runs)


if __name__ == "__main__":
    main()
