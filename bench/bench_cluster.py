"""Many tournaments on one cluster (issue 32): N processors and M projection workers.

``python -m bench.bench_cluster [--tournaments 1000] [--processors 3] [--workers 2] [--pace 800] [--kill SECONDS]``
runs the load generator of ``bench.cluster_load``: 1,000 generated tournaments of 8-16 teams and
5-9 rounds arriving and playing at random times, their terminals entering each result when its
game ends (a clock ``--pace`` times faster than real time), through ``olympiad live``'s pipeline
(``LivePipeline``) on ``OLYMPIAD_PARTITIONS`` partitions with PostgreSQL read models; it prints
every tournament's digest against ``olympiad replay`` of its log, CPU per board result per kind
of process, the latency per result (p50, p99, max), results/s, lost and doubled events and dead
letters; ``--kill SECONDS``: one processor and one worker are SIGKILLed and restarted then.

``python -m bench.bench_cluster --waves --tournaments 20 --processors 2 --workers 2 [--kill SECONDS]``
is the short bench of the suite's ``tests/integration/test_cluster.py`` (``run_cluster``):
simulates ``--tournaments`` tournaments (``producers.simulator.draw_spec``: 8-16 teams, 5 rounds,
seeds 1..N) and imports them through a fresh ``olympiad.cmd_live.LivePipeline`` with
``--processors`` faust processors and ``--workers`` projection workers, in waves: every
tournament's registration, then every tournament's round 1 (pairing and results, as ImportFacts),
and so on, each wave once the previous one's verdicts are in. After ``--kill`` seconds (default:
after the second wave) one member of each group changes: with ``--kill`` one processor and one
worker are SIGKILLed and restarted, after the second wave and at least SECONDS after the first
(their partitions move after the 10 s session timeout);
without, a processor and a worker join (an immediate rebalance of live members). Then it checks
that every event of every tournament is on ``tournament-log`` and once in the read model, and that
every tournament's last standings on the ``standings`` topic have the digest of
``projections.replay.replay`` of its events (what ``olympiad replay`` prints for its log).

Prints: board results per second (wall, from the first wave to the last standings), CPU per board
result of each child process (``/proc``: user + system, counted once every member has its first
partitions; a killed child's as of its kill; a member started during the run with its start-up), the
latency from a wave's commands sent to the standings that include them (p50, p99, per tournament
and round), the digests equal, and the events lost and doubled. Needs a broker
(``KAFKA_BOOTSTRAP_SERVERS``) and ``DATABASE_URL`` (PostgreSQL: several workers write one database).
"""
from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from deploy import topics

TEAMS = (8, 16)
ROUNDS = 5
SPACING_S = 1.0  # s between the waves after the change: they meet the rebalance
# A faust member's log of its assignment (a partition set of an input topic), a worker's of its partitions
ASSIGNED = re.compile(r"(tournament-events +\| \{[0-9]|assigned tournament-log partitions \[[0-9])")


@dataclass
class ClusterReport:
    """What ``run_cluster`` measured."""

    tournaments: int
    board_results: int
    wall_s: float
    cpu_s: dict[str, float]  # child name -> CPU seconds (user + system)
    latencies_s: list[float]  # per tournament and round: commands sent -> standings including them
    digests_equal: int
    lost: list[str] = field(default_factory=list)  # event ids not on the log or not in the read model
    doubled: list[str] = field(default_factory=list)  # event ids more than once in the read model
    different: list[str] = field(default_factory=list)  # tournaments whose last standings differ from replay
    refused: list[str] = field(default_factory=list)  # dead letters (event ids, else topic:offset)
    rebalanced_before_last: bool = False  # the changed members had partitions before the last wave was sent

    def lines(self) -> list[str]:
        """The report as printed."""
        rate = self.board_results / self.wall_s if self.wall_s else 0.0
        out = [f"{self.tournaments} tournaments, {self.board_results} board results in {self.wall_s:.1f} s: {rate:,.0f} results/s"]
        for name, cpu in sorted(self.cpu_s.items()):
            out.append(f"  {name}: {cpu:.2f} s CPU, {cpu / max(1, self.board_results) * 1e6:,.0f} us per board result")
        if self.latencies_s:
            lat = sorted(self.latencies_s)
            p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
            out.append(f"latency, a wave sent -> its standings: p50 {statistics.median(lat) * 1000:.0f} ms, "
                       f"p99 {p99 * 1000:.0f} ms ({len(lat)} tournament-rounds)")
        out.append(f"digests equal: {self.digests_equal} of {self.tournaments}; lost {len(self.lost)}, doubled {len(self.doubled)}, "
                   f"dead letters {len(self.refused)}; "
                   f"rebalanced before the last wave: {'yes' if self.rebalanced_before_last else 'no'}")
        return out


def simulated(count: int, prefix: str) -> list[list[Any]]:
    """The event lists of ``count`` simulated tournaments (seeds 1..count, ids ``<prefix>t<seed>``;
    ``prefix`` of lower-case letters, digits and hyphens)."""
    from producers.simulator import draw_spec, simulate
    from schemas.profile import get_profile

    base = get_profile("olympiad-2022")
    return [simulate(draw_spec(seed, base, teams=TEAMS, rounds=(ROUNDS, ROUNDS), tournament_id=f"{prefix}t{seed}")).events
            for seed in range(1, count + 1)]


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` so far, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_cluster(tournaments: int, processors: int, workers: int, *, bootstrap: str, database_url: str,
                kill_after: float | None = None, kill: bool = False, timeout: float = 120.0) -> ClusterReport:
    """Run the bench described in the module docstring; ``kill`` SIGKILLs and restarts instead of
    joining; the change comes after the second wave, and at least ``kill_after`` s after the first."""
    from sqlalchemy import create_engine, func, select

    from olympiad.cmd_live import LivePipeline
    from producers.publish import Follower, chunks
    from producers.terminal import Terminal
    from projections.replay import replay
    from projections.store import events_table, with_driver
    from projections.worker import caught_up
    from schemas.commands import import_batches

    run = uuid.uuid4().hex[:8]
    prefix = f"cluster{run}."
    logs = simulated(tournaments, f"c{run}-")
    waves = [chunks(events) for events in logs]
    ids = [e.event_id for events in logs for e in events]
    expected = {events[0].tournament_id: replay(events) for events in logs}  # what `olympiad replay` computes

    def digests_differ() -> list[str]:
        """The tournaments whose latest standings of their last round are not replay's."""
        out = []
        for tid, r in expected.items():
            last = max(r.rounds)
            got = follower.latest(tid, last)
            if got is None or got.body["digest"] != r.rounds[last].digest:
                out.append(tid)
        return out

    results = sum(1 for events in logs for e in events if e.type in topics.BOARD_LEVEL)
    cpu: dict[str, float] = {}
    latencies: list[float] = []
    changed = rebalanced_before_last = False
    wall = 0.0
    base: dict[str, float] = {}
    start = time.perf_counter()
    with LivePipeline(bootstrap, prefix, database_url, processors=processors, workers=workers) as pipeline:
        follower = Follower(bootstrap, prefix)

        watched: dict[str, int] = {}  # child name -> size of its log when it was (re)started

        def change() -> None:
            """A processor and a worker join, or (``kill``) are SIGKILLed and restarted."""
            for kind, count in (("processors", processors), ("projections", workers)):
                name = LivePipeline.child_name(kind, count if kill else count + 1)
                logfile = pipeline.logdir / f"{prefix}{name}.log"
                if kill:
                    cpu[f"{name} (killed)"] = _cpu_s(pipeline.children[name].pid) - base.pop(name)
                    pipeline.stop(name, signal.SIGKILL)
                watched[name] = logfile.stat().st_size if logfile.exists() else 0
                pipeline.start(name)

        def changed_members_assigned() -> bool:
            """Whether every member in ``watched`` logged an assignment with partitions since
            (raises ``RuntimeError`` if a child died)."""
            pipeline.check()
            for name, size in watched.items():
                with open(pipeline.logdir / f"{prefix}{name}.log", "rb") as f:
                    f.seek(size)
                    if not ASSIGNED.search(f.read().decode(errors="replace")):
                        return False
            return True

        try:
            # Start-up is not measured: every member first has its partitions, then CPU is counted from here.
            watched.update({name: 0 for name in pipeline.children})
            follower.wait(changed_members_assigned, timeout, "every member's first assignment")
            watched.clear()
            base = {name: _cpu_s(proc.pid) for name, proc in pipeline.children.items()}
            with Terminal("cluster", bootstrap, prefix, linger_ms=2) as terminal:
                start = time.perf_counter()
                pending: list[tuple[str, int, list[str], float]] = []  # (tournament, round, event ids, sent at)
                last_wave = max(map(len, waves)) - 1
                for w in range(last_wave + 1):
                    if changed and w == last_wave:
                        # The last wave goes once the new members have partitions: the rebalance
                        # happens while the waves before it are judged and projected.
                        follower.wait(changed_members_assigned, timeout, "the rebalance")
                        rebalanced_before_last = True
                    elif changed:
                        time.sleep(SPACING_S)
                    sent: list[str] = []
                    at = time.perf_counter()
                    for chunk in (c[w] for c in waves if w < len(c)):
                        for part in import_batches(terminal.facts_command(chunk)):
                            command = part.model_copy(update={"command_id": uuid.uuid4().hex})
                            terminal.send(command)
                            sent.append(command.command_id)
                        if chunk[0].type == "RoundPaired":
                            pending.append((chunk[0].tournament_id, chunk[0].round, [e.event_id for e in chunk], at))
                    terminal.flush()
                    follower.wait(follower.decided(sent), timeout, f"the verdicts of wave {w}")
                    pipeline.check()
                    if w == 1:
                        if kill_after:  # at least this long after the first wave
                            time.sleep(max(0.0, start + kill_after - time.perf_counter()))
                        change()
                        changed = True
                follower.wait(follower.all_judged(ids), timeout, "every event on tournament-log")

                def standings_in(tid: str, rnd: int, needed: list[str]) -> float | None:
                    furthest = max(follower.accepted[i][1] for i in needed)
                    past = [s for s in follower.standings.get((tid, rnd), []) if s.offset > furthest]
                    return min(s.received for s in past) if past else None

                follower.wait(lambda: all(standings_in(t, r, n) is not None for t, r, n, _ in pending), timeout,
                              "the standings of every round")
                wall = time.perf_counter() - start
                latencies = [standings_in(t, r, n) - at for t, r, n, at in pending]  # type: ignore[operator]
                # The standings past the last event may be followed by a republished copy (a worker's
                # assignment): wait until the last of each tournament's is the final one.
                follower.wait(lambda: not digests_differ(), timeout, "every digest equal")
        except TimeoutError as exc:
            print(f"bench_cluster: {exc}", file=sys.stderr)
            wall = time.perf_counter() - start
        finally:
            follower.close()
        deadline = time.monotonic() + timeout
        while not caught_up(database_url, bootstrap, prefix) and time.monotonic() < deadline:
            time.sleep(0.2)
        for name, proc in pipeline.children.items():
            if proc.poll() is None:
                cpu[name] = _cpu_s(proc.pid) - base.get(name, 0.0)  # a member started later: with its start-up
        pipeline.check()
    different = digests_differ()
    engine = create_engine(with_driver(database_url))
    try:
        with engine.connect() as conn:
            stored = dict(conn.execute(select(events_table.c.event_id, func.count()).where(
                events_table.c.tournament_id.startswith(f"c{run}-")).group_by(events_table.c.event_id)).all())
    finally:
        engine.dispose()
    lost = [i for i in ids if i not in follower.accepted or i not in stored]
    doubled = [i for i, n in stored.items() if n > 1]
    return ClusterReport(tournaments, results, wall, cpu, latencies, len(expected) - len(different), lost, doubled, different,
                         sorted(follower.refused), rebalanced_before_last)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=None, help="default 1,000 (with --waves: 20)")
    parser.add_argument("--processors", type=int, default=None, help="default 3 (with --waves: 2)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--kill", type=float, default=None, metavar="SECONDS",
                        help="SIGKILL and restart one processor and one worker this many seconds after the first arrival "
                             "(--waves: after the second wave, at least this long after the first; without, a processor and a worker join)")
    parser.add_argument("--pace", type=float, default=800.0,
                        help="how much faster than real time the tournaments' clock runs (default 800: a 5-hour round in 22.5 s)")
    parser.add_argument("--arrive-over", type=float, default=None, metavar="HOURS",
                        help="simulated hours over which the tournaments start (default: a quarter of an hour per tournament)")
    parser.add_argument("--waves", action="store_true",
                        help="the short bench instead: 5-round tournaments imported in waves, one rebalance (bench_cluster.run_cluster)")
    parser.add_argument("--timeout", type=float, default=None, help="s without progress before giving up (default 300; --waves: 180)")
    args = parser.parse_args(argv)
    bootstrap, url = os.environ.get("KAFKA_BOOTSTRAP_SERVERS"), os.environ.get("DATABASE_URL")
    if not bootstrap or not url:
        print("bench_cluster: set KAFKA_BOOTSTRAP_SERVERS and DATABASE_URL (PostgreSQL)", file=sys.stderr)
        return 2
    if args.waves:
        report = run_cluster(args.tournaments or 20, args.processors or 2, args.workers, bootstrap=bootstrap, database_url=url,
                             kill_after=args.kill, kill=args.kill is not None, timeout=args.timeout or 180.0)
        print("\n".join(report.lines()))
        return 0 if not (report.lost or report.doubled or report.different or report.refused) else 1
    from bench.cluster_load import run_load

    load = run_load(args.tournaments or 1000, args.processors or 3, args.workers, bootstrap=bootstrap, database_url=url,
                    pace=args.pace, arrive_over_h=args.arrive_over, kill_at=args.kill, timeout=args.timeout or 300.0)
    print("command: python -m bench.bench_cluster " + " ".join(sys.argv[1:] if argv is None else argv))
    print("\n".join(load.lines()))
    return 0 if load.ok else 1


if __name__ == "__main__":
    sys.exit(main())
