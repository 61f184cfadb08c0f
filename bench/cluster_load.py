"""The many-tournaments load generator of ``bench.bench_cluster`` (issue 32, acceptances 2 and 3).

``--tournaments`` tournaments (default 1,000) of 8-16 teams and 5-9 rounds, drawn from seeds
1..N (``producers.simulator.draw_spec``: ratings, draw and forfeit rates; the engine pairs every
round), their teams and players named by this bench (``bench_names``: syllables drawn from the
seed, never shipped data), arrive and play on one cluster at times of their own:

- tournament k starts at a time drawn uniformly in ``--arrive-over`` simulated hours (default a
  quarter of an hour per tournament): its arbiter imports the registration, waits for the verdict and pairs
  round 1 after a break;
- in a round, every board's result is entered by its table's terminal when the game ends,
  1-5 hours after the pairing (a triangular draw, mode 3.5 h; a forfeited match 10-40 minutes
  after it), one ``ImportFacts`` command per result (``producers.terminal``), as terminals do;
  a withdrawal for the next round follows the round's last result;
- once the standings of the round include every result (the arbiter pairs on complete standings),
  the next round is paired after a break of 30-90 minutes.

``--pace`` is how much faster than real time the simulated clock runs (default 800: a 5-hour
round's results arrive over some 18 s; 1,000 tournaments arrive over 19 minutes, some 150 board
results/s once they overlap). What it measures (``LoadReport``): every tournament's last standings digest against
``projections.replay.replay`` of the events it has on ``tournament-log`` (what ``olympiad replay``
prints for its log; and against the replay of the events as generated), CPU per board result of
each kind of process (processors, workers, broker, PostgreSQL, the load generator: its terminals and
subscriber, less the simulation and the replays, which are shown apart), the end-to-end latency per
board result (its command sent -> the first standings of its round whose log position is past it)
p50/p99/max, board results per second, events lost (sent, never on the log; or on the log, not in
the read model) and doubled (on the log, or in the read model), dead letters and refused verdicts.

Memory is bounded by the tournaments in play, not by the run: a tournament's events are simulated
when it arrives and dropped, with its log, once its last round is checked; what stays per
tournament is its digest (two strings) and per board result one latency (8 bytes).
"""
from __future__ import annotations

import array
import contextlib
import heapq
import json
import os
import random
import resource
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from deploy import topics

TEAMS = (8, 16)
ROUNDS = (5, 9)
HOUR = 3600.0
GAME_S = (1 * HOUR, 5 * HOUR, 3.5 * HOUR)  # a game ends this long after the pairing: triangular (low, high, mode)
FORFEIT_S = (600.0, 2400.0)  # a match forfeit is entered this long after the pairing (uniform)
BREAK_S = (1800.0, 5400.0)  # the arbiter pairs the next round this long after complete standings (uniform)
PROGRESS_S = 30.0  # s between progress lines on stderr


def percentile(values: Any, q: float) -> float:
    """The q-quantile (0..1) of ``values``, nearest rank (as ``bench.bench_live.percentile``)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] if ordered else float("nan")


_SYLLABLES = ("ka", "ro", "mi", "tal", "vek", "sa", "lun", "dor", "bri", "ne", "hol", "ma", "tes", "gra", "vin",
              "zo", "pel", "ari", "kov", "len", "dru", "ish", "mor", "tan", "el", "yo", "fen", "rak", "sil", "ub")
_CLUBS = ("Chess Club", "Knights", "Rooks", "Gambit", "Castle", "Pawns", "Bishops", "Endgame", "Zugzwang", "Fianchetto")


def _word(rng: random.Random, low: int, high: int) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(low, high))).capitalize()


def bench_names(events: list[Any], seed: int) -> list[Any]:
    """``events`` with the tournament, its teams and their players named by this bench: words of
    syllables drawn from ``seed`` (distinct within the tournament), nothing from shipped data.

    The new names sort as the simulator's did (the n-th smallest name becomes the n-th smallest new
    one): names break ties in the seeding (``projections.seeding``: team strength, then name), so
    the pairings the simulator made stay the ones the processors' rules find (renamed in any order,
    4 of 1,000 tournaments had their first pairing refused: R-B1, another bye)."""
    rng = random.Random(f"bench-names/{seed}")
    teams = [e for e in events if e.type == "TeamRegistered"]

    def fresh(old: list[str], make: Callable[[], str]) -> dict[str, str]:
        new: set[str] = set()
        while len(new) < len(set(old)):
            new.add(make())
        return dict(zip(sorted(set(old)), sorted(new)))

    team_names = fresh([t.name for t in teams], lambda: f"{_word(rng, 2, 3)} {rng.choice(_CLUBS)}")
    player_names = fresh([p.name for t in teams for p in t.players], lambda: f"{_word(rng, 1, 2)} {_word(rng, 2, 3)}")
    out = []
    for e in events:
        if e.type == "TournamentCreated":
            e = e.model_copy(update={"name": f"{_word(rng, 2, 3)} Open {seed}"})
        elif e.type == "TeamRegistered":
            players = tuple(p.model_copy(update={"name": player_names[p.name]}) for p in e.players)
            e = e.model_copy(update={"name": team_names[e.name], "players": players})
        out.append(e)
    return out


@dataclass
class Planned:
    """One tournament as it will be played: its rounds' events in the order they are sent, each
    with its delay (simulated seconds) after the round's pairing is accepted."""

    tournament_id: str
    registration: list[Any]
    rounds: list[tuple[Any, list[tuple[float, Any]]]]  # (RoundPaired, [(delay, event), ...] sorted by delay)
    expected: str  # digest of the last round's standings: replay of the events in the order sent
    events: int  # how many events it sends
    results: int  # how many of them are board-level


def plan(seed: int, prefix: str) -> Planned:
    """Simulate tournament ``seed`` (``draw_spec``: 8-16 teams, 5-9 rounds; id ``<prefix>t<seed>``),
    name it (``bench_names``) and draw when each of its results is entered."""
    from producers.publish import chunks
    from producers.simulator import draw_spec, simulate
    from projections.replay import replay
    from schemas.profile import get_profile

    tid = f"{prefix}t{seed}"
    events = bench_names(simulate(draw_spec(seed, get_profile("olympiad-2022"), teams=TEAMS, rounds=ROUNDS,
                                            tournament_id=tid)).events, seed)
    rng = random.Random(f"bench-clock/{seed}")
    parts = chunks(events)
    rounds = []
    for chunk in parts[1:]:
        timed = []
        for e in chunk[1:]:
            if e.type == "MatchForfeited":
                timed.append((rng.uniform(*FORFEIT_S), e))
            elif e.type in topics.BOARD_LEVEL:
                timed.append((rng.triangular(*GAME_S), e))
        timed.sort(key=lambda pair: pair[0])
        last = timed[-1][0] if timed else 0.0
        timed += [(last, e) for e in chunk[1:] if e.type not in topics.BOARD_LEVEL]  # a withdrawal for the next round
        rounds.append((chunk[0], timed))
    sent = parts[0] + [e for paired, timed in rounds for e in [paired, *(e for _, e in timed)]]
    result = replay(sent)
    return Planned(tid, parts[0], rounds, result.rounds[max(result.rounds)].digest, len(sent),
                   sum(1 for e in sent if e.type in topics.BOARD_LEVEL))


@dataclass
class Playing:
    """A tournament in play: what the load generator and its subscriber keep of it until it ends."""

    planned: Planned
    round: int = 0  # the round being played (0: registration)
    phase: str = "registering"  # registering, playing (a round), break (before the next pairing)
    waiting: int = 0  # the arbiter's commands sent whose verdicts are awaited before it goes on
    sent_all: bool = False  # every event of the round sent
    sent_at: dict[str, float] = field(default_factory=dict)  # board-level event id -> when sent, until on the log
    open: list[tuple[int, float]] = field(default_factory=list)  # (log offset, sent at) of results not yet in standings
    unjudged: set[str] = field(default_factory=set)  # event ids sent in this phase, neither on the log nor refused
    furthest: int = -1  # the furthest log offset of the round's board-level events
    covered: int = -1  # the furthest log position of the round's standings received
    log: list[bytes] = field(default_factory=list)  # its tournament-log records, as published
    seen: set[str] = field(default_factory=set)  # event ids on the log


@dataclass
class LoadReport:
    """What ``run_load`` measured (see the module docstring)."""

    tournaments: int
    finished: int
    events: int
    board_results: int
    wall_s: float  # first command sent -> the last tournament's final standings
    cpu_s: dict[str, float]  # process kind -> CPU seconds (user + system) in the window
    kills: list[str]
    latencies_s: array.array  # per board result: sent -> the first standings including it
    to_log_s: array.array  # per board result: sent -> on tournament-log (received by the subscriber)
    digests_equal: int  # live last standings == replay of its log == replay as generated
    different: list[str]
    lost_log: int  # sent events never on tournament-log
    doubled_log: int  # events on tournament-log more than once
    lost_db: int  # events on the log, not in the read model
    doubled_db: int
    dead_letters: int
    refused: int  # verdicts not accepted
    peak_rate: float  # board results sent per second, the busiest 10 s
    max_playing: int
    rss_mb: float  # the load generator's peak resident memory
    generate_s: float  # of its CPU: simulating and planning the tournaments
    check_s: float  # of its CPU: replaying the logs
    load_average: tuple[float, float, float]
    command: str = ""
    unfinished: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report as printed."""
        n = max(1, self.board_results)
        rate = self.board_results / self.wall_s if self.wall_s else 0.0
        out = [f"{self.tournaments} tournaments ({self.finished} finished), {self.events:,} events, {self.board_results:,} board results "
               f"in {self.wall_s:.0f} s: {rate:,.0f} board results/s (busiest 10 s: {self.peak_rate:,.0f}/s); "
               f"load average {self.load_average[0]:.2f} {self.load_average[1]:.2f} {self.load_average[2]:.2f}"]
        total = sum(self.cpu_s.values())
        out.append("CPU per board result: " + ", ".join(f"{k} {v / n * 1e6:,.0f} us" for k, v in self.cpu_s.items())
                   + f"; in all {total / n * 1e6:,.0f} us ({total:,.0f} s CPU = {total / max(self.wall_s, 1e-9):.2f} cores)")
        out.append(f"  the load generator besides: simulating {self.generate_s / n * 1e6:,.0f} us, replaying the logs {self.check_s / n * 1e6:,.0f} us per board result")
        for what, values in (("result sent -> standings including it", self.latencies_s), ("result sent -> on tournament-log", self.to_log_s)):
            if values:
                out.append(f"latency, {what}: p50 {percentile(values, .5) * 1000:,.0f} ms, p99 {percentile(values, .99) * 1000:,.0f} ms, "
                           f"max {max(values) * 1000:,.0f} ms ({len(values):,} results)")
        out.append(f"digests equal (live standings = replay of its log = replay as generated): {self.digests_equal} of {self.tournaments}"
                   + (f"; different: {', '.join(self.different[:5])}" if self.different else ""))
        out.append(f"lost: {self.lost_log} never on the log, {self.lost_db} not in the read model; doubled: {self.doubled_log} on the log, "
                   f"{self.doubled_db} in the read model; dead letters {self.dead_letters}, refused verdicts {self.refused}")
        if self.kills:
            out.append("killed (SIGKILL) and restarted: " + "; ".join(self.kills))
        out.append(f"load generator: peak RSS {self.rss_mb:.0f} MB, at most {self.max_playing} tournaments in play")
        if self.unfinished:
            out.append(f"UNFINISHED: {len(self.unfinished)} tournaments, e.g. {', '.join(self.unfinished[:5])}")
        return out

    @property
    def ok(self) -> bool:
        return not (self.different or self.lost_log or self.doubled_log or self.lost_db or self.doubled_db
                    or self.dead_letters or self.refused or self.unfinished)


def rss_mb() -> float:
    """This process's resident memory now, MB (``/proc/self/statm``)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _ticks(pid: int, children: bool = False) -> float:
    """CPU seconds of ``pid`` (user + system; ``children``: plus those of its children it waited for)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    used = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if children else 0)
    return used / os.sysconf("SC_CLK_TCK")


def listener_pid(port: int) -> int | None:
    """The pid of the process listening on TCP ``port`` of this machine (``/proc/net/tcp``), or None."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                for line in f.readlines()[1:]:
                    cols = line.split()
                    if cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # LISTEN
                        inodes.add(f"socket:[{cols[9]}]")
        except OSError:
            continue
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    return int(pid)
        except OSError:
            continue
    return None


def database_cpu(postmaster: int) -> float:
    """CPU seconds of a PostgreSQL server: the postmaster, its live backends, and the backends it reaped."""
    total = _ticks(postmaster, children=True)
    try:
        with open(f"/proc/{postmaster}/task/{postmaster}/children") as f:
            kids = [int(p) for p in f.read().split()]
    except OSError:
        kids = []
    for kid in kids:
        try:
            total += _ticks(kid)
        except OSError:
            pass
    return total


def run_load(tournaments: int, processors: int, workers: int, *, bootstrap: str, database_url: str, pace: float,
             arrive_over_h: float | None = None, kill_at: float | None = None, timeout: float = 300.0) -> LoadReport:
    """Play ``tournaments`` tournaments through a fresh ``LivePipeline`` of ``processors`` + ``workers``
    (see the module docstring); ``kill_at``: SIGKILL and restart one processor and one worker this many
    seconds after the first arrival. Gives up when nothing arrives for ``timeout`` s with tournaments in play.
    The read models go to a database of their own on the server of ``database_url`` (``own_database``)."""
    run = uuid.uuid4().hex[:8]
    arrive_over = (arrive_over_h if arrive_over_h is not None else tournaments / 4) * HOUR
    rng = random.Random(f"bench-arrivals/{tournaments}")
    arrivals = sorted((rng.uniform(0, arrive_over), seed) for seed in range(1, tournaments + 1))
    with own_database(database_url, f"bench_{run}") as database_url:
        return _run(tournaments, processors, workers, bootstrap, database_url, pace, arrivals, kill_at, timeout, run)


def _run(tournaments: int, processors: int, workers: int, bootstrap: str, database_url: str, pace: float,
         arrivals: list[tuple[float, int]], kill_at: float | None, timeout: float, run: str) -> LoadReport:
    """``run_load`` on database ``database_url``, its tournaments arriving at ``arrivals``
    ((simulated s, seed), in time order), topics and tournament ids named after ``run``."""
    from kafka import KafkaConsumer, TopicPartition

    from bench.bench_cluster import ASSIGNED
    from deploy.kafka_security import client_config
    from olympiad.cmd_live import LivePipeline
    from producers.publish import dead_letter_event_ids
    from producers.terminal import Terminal
    from projections.anchors import ANCHORS_SUFFIX
    from projections.replay import replay
    from projections.worker import POSITION_HEADER, caught_up
    from schemas.commands import import_batches
    from schemas.events import parse_event

    prefix, tprefix = f"load{run}.", f"l{run}-"
    playing: dict[str, Playing] = {}
    final: dict[str, tuple[int, str, str]] = {}  # finished tournament -> (last round, replay of its log, as generated)
    live: dict[str, str] = {}  # tournament -> digest of the latest standings of its last round received
    awaited: dict[str, str] = {}  # command id -> tournament, for the arbiter's commands (registration, pairing)
    latencies, to_log = array.array("d"), array.array("d")
    sent_per_10s: dict[int, int] = {}
    counts = {"arrived": 0, "events": 0, "results": 0, "doubled_log": 0, "dead": 0, "dead_events": 0, "refused": 0, "max_playing": 0}
    spent = {"generate": 0.0, "check": 0.0}  # thread CPU of the simulation and of the replays
    kills: list[str] = []
    heap: list[tuple[float, int, Callable[[], None]]] = []
    order = iter(range(1 << 62))

    def at(when: float, action: Callable[[], None]) -> None:
        heapq.heappush(heap, (when, next(order), action))

    pipeline = LivePipeline(bootstrap, prefix, database_url, processors=processors, workers=workers)
    with pipeline:
        names = {topics.name(spec, prefix): spec for spec in (topics.TOURNAMENT_LOG, topics.DEAD_LETTERS, topics.STANDINGS, topics.VERDICTS)}
        consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, group_id=None, fetch_max_wait_ms=50,
                                 **client_config())
        tps = [TopicPartition(n, p) for n, spec in names.items() for p in range(spec.partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)

        # Start-up is not measured: every member first has its partitions.
        deadline = time.monotonic() + timeout
        while not all(ASSIGNED.search((pipeline.logdir / f"{prefix}{name}.log").read_text(errors="replace"))
                      for name in pipeline.children if (pipeline.logdir / f"{prefix}{name}.log").exists()) \
                or not all((pipeline.logdir / f"{prefix}{name}.log").exists() for name in pipeline.children):
            pipeline.check()
            if time.monotonic() > deadline:
                raise TimeoutError("waited for every member's first assignment")
            consumer.poll(timeout_ms=200)
        from sqlalchemy.engine import make_url

        measured = {"broker": (listener_pid(int(bootstrap.rsplit(":", 1)[1])), _ticks),
                    "database": (listener_pid(make_url(database_url).port or 5432), database_cpu)}
        measured = {k: (pid, f) for k, (pid, f) in measured.items() if pid}
        others_base = {k: f(pid) for k, (pid, f) in measured.items()}
        base = {name: _ticks(proc.pid) for name, proc in pipeline.children.items()}
        cpu: dict[str, float] = {"processors": 0.0, "workers": 0.0}
        me0 = time.process_time()

        def kind(name: str) -> str:
            return "processors" if name.startswith("processors") else "workers"

        terminal = Terminal("load", bootstrap, prefix, linger_ms=0)
        start = time.perf_counter()
        last_finish = start
        restarted: dict[str, int] = {}  # restarted member -> size of its log at the restart

        def clock(simulated: float) -> float:
            return start + simulated / pace

        def simulated_now() -> float:
            return (time.perf_counter() - start) * pace

        def send(p: Playing, facts: list[Any], arbiter: bool) -> None:
            commands = list(import_batches(terminal.facts_command(facts))) if len(facts) > 1 else [terminal.facts_command(facts)]
            for i, command in enumerate(commands):
                if i:
                    command = command.model_copy(update={"command_id": uuid.uuid4().hex})
                terminal.send(command)
                if arbiter:
                    awaited[command.command_id] = p.planned.tournament_id
                    p.waiting += 1
            p.unjudged.update(e.event_id for e in facts)
            counts["events"] += len(facts)

        def arrive(seed: int) -> None:
            t0 = time.thread_time()
            planned = plan(seed, tprefix)
            spent["generate"] += time.thread_time() - t0
            p = playing[planned.tournament_id] = Playing(planned)
            counts["arrived"] += 1
            counts["max_playing"] = max(counts["max_playing"], len(playing))
            send(p, planned.registration, arbiter=True)

        def pair(p: Playing) -> None:
            paired, timed = p.planned.rounds[p.round]
            p.round += 1
            p.phase, p.sent_all, p.furthest, p.covered, p.open = "playing", not timed, -1, -1, []
            send(p, [paired], arbiter=True)

        def enter(p: Playing, event: Any, last: bool) -> None:
            now = time.perf_counter()
            if event.type in topics.BOARD_LEVEL:
                p.sent_at[event.event_id] = now
                counts["results"] += 1
                bucket = int((now - start) // 10)
                sent_per_10s[bucket] = sent_per_10s.get(bucket, 0) + 1
            send(p, [event], arbiter=False)
            p.sent_all = last

        def decided(p: Playing) -> None:
            """The arbiter's commands are decided: the round's results are entered as its games end."""
            if p.phase == "playing":
                timed = p.planned.rounds[p.round - 1][1]
                now_s = simulated_now()
                for i, (delay, event) in enumerate(timed):
                    at(clock(now_s + delay), lambda p=p, e=event, last=i == len(timed) - 1: enter(p, e, last))

        def advance(p: Playing) -> None:
            """When the registration is judged, or every event of the round is judged and the round's
            standings include its results: the next pairing after a break, or the end of the tournament."""
            if p.phase == "break" or p.waiting or p.unjudged:
                return
            if p.phase == "playing" and (not p.sent_all or p.covered <= p.furthest):
                return
            tid = p.planned.tournament_id
            if p.round < len(p.planned.rounds):
                p.phase = "break"
                at(clock(simulated_now() + random.Random(f"bench-break/{tid}/{p.round}").uniform(*BREAK_S)), lambda: pair(p))
                return
            t0 = time.thread_time()
            logged = replay([parse_event(v) for v in p.log])  # what `olympiad replay` computes for its log
            last = max(logged.rounds)
            spent["check"] += time.thread_time() - t0
            final[tid] = (last, logged.rounds[last].digest, p.planned.expected)
            del playing[tid]
            nonlocal last_finish
            last_finish = time.perf_counter()

        def on_log(value: bytes, offset: int, now: float) -> None:
            body = json.loads(value)
            p = playing.get(body["tournament_id"])
            eid = body["event_id"]
            if p is None or eid in p.seen:  # a finished tournament's events are all on the log: a copy
                counts["doubled_log"] += 1
                return
            p.seen.add(eid)
            p.log.append(value)
            p.unjudged.discard(eid)
            sent = p.sent_at.pop(eid, None)
            if sent is not None and now:
                to_log.append(now - sent)
                p.furthest = max(p.furthest, offset)
                if offset < p.covered:  # the standings came first (another partition's fetch)
                    latencies.append(now - sent)
                else:
                    p.open.append((offset, sent))
            advance(p)

        def on_standings(body: dict[str, Any], position: int, now: float) -> None:
            tid = body["tournament_id"]
            p = playing.get(tid)
            if tid in final:
                if body["round"] == final[tid][0]:
                    live[tid] = body["digest"]
                return
            if p is None or body["round"] != p.round or p.phase != "playing":
                return
            if p.round == len(p.planned.rounds):
                live[tid] = body["digest"]
            if position > p.covered:
                p.covered = position
                still = []
                for offset, sent in p.open:
                    if offset < position:
                        latencies.append(now - sent)
                    else:
                        still.append((offset, sent))
                p.open = still
                advance(p)

        def on_verdict(body: dict[str, Any]) -> None:
            if not body.get("accepted"):
                counts["refused"] += 1
            tid = awaited.pop(body["command_id"], None)
            p = playing.get(tid) if tid else None
            if p is not None:
                p.waiting -= 1
                if not p.waiting:
                    decided(p)
                    advance(p)

        def on_dead(envelope: dict[str, Any]) -> None:
            counts["dead"] += 1
            for eid in dead_letter_event_ids(envelope):
                counts["dead_events"] += 1  # refused: neither on the log nor in the read model
                for p in list(playing.values()):
                    if eid in p.unjudged:
                        p.unjudged.discard(eid)
                        p.sent_at.pop(eid, None)
                        advance(p)

        def kill_and_restart(now: float) -> None:
            for kind_name, count in (("processors", processors), ("projections", workers)):
                name = LivePipeline.child_name(kind_name, min(2, count))
                cpu[kind(name)] += _ticks(pipeline.children[name].pid) - base.pop(name)
                pipeline.stop(name, signal.SIGKILL)
                logfile = pipeline.logdir / f"{prefix}{name}.log"
                restarted[name] = logfile.stat().st_size if logfile.exists() else 0
                pipeline.start(name)
                base[name] = 0.0  # a restarted member counts with its start-up
                kills.append(f"{name} at {now - start:.0f} s")

        def reassigned(now: float) -> None:
            for name, size in list(restarted.items()):
                with open(pipeline.logdir / f"{prefix}{name}.log", "rb") as f:
                    f.seek(size)
                    if ASSIGNED.search(f.read().decode(errors="replace")):
                        kills.append(f"{name} had partitions again at {now - start:.0f} s")
                        del restarted[name]

        for simulated, seed in arrivals:
            at(clock(simulated), lambda seed=seed: arrive(seed))
        next_progress = start + PROGRESS_S
        progress_at = start
        try:
            while heap or playing:
                now = time.perf_counter()
                while heap and heap[0][0] <= now:
                    heapq.heappop(heap)[2]()
                if kill_at is not None and not kills and now - start >= kill_at:
                    kill_and_restart(now)
                if restarted:
                    reassigned(now)
                wait = min(0.05, max(0.0, heap[0][0] - time.perf_counter())) if heap else 0.05
                batches = consumer.poll(timeout_ms=int(wait * 1000), max_records=2000)
                now = time.perf_counter()
                for tp, records in batches.items():
                    spec = names[tp.topic]
                    for rec in records:
                        if spec is topics.TOURNAMENT_LOG:
                            on_log(rec.value, rec.offset, now)
                        elif spec is topics.STANDINGS:
                            if not (rec.key or b"").endswith(ANCHORS_SUFFIX):
                                position = dict(rec.headers or ()).get(POSITION_HEADER, b"")
                                on_standings(json.loads(rec.value), int(position.decode().partition(":")[2] or -1), now)
                        elif spec is topics.VERDICTS:
                            on_verdict(json.loads(rec.value))
                        else:
                            on_dead(json.loads(rec.value))
                if batches or not playing:
                    progress_at = now
                if now >= next_progress:
                    next_progress = now + PROGRESS_S
                    pipeline.check()
                    recent = latencies[-3000:]
                    print(f"[{now - start:5.0f} s] {counts['arrived']} arrived, {len(final)} finished, {len(playing)} in play; "
                          f"{counts['results']:,} results sent; latency of the last {len(recent)}: p50 {percentile(recent, .5) * 1000:.0f} ms, "
                          f"p99 {percentile(recent, .99) * 1000:.0f} ms; RSS {rss_mb():.0f} MB; "
                          f"load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
                if now - progress_at > timeout:
                    print(f"bench_cluster: nothing for {timeout:.0f} s; {len(playing)} tournaments unfinished", file=sys.stderr)
                    break
        finally:
            terminal.close()
        wall = last_finish - start
        for name, proc in pipeline.children.items():
            if proc.poll() is None:
                cpu[kind(name)] += _ticks(proc.pid) - base.get(name, 0.0)
        for k, (pid, f) in measured.items():
            cpu[k] = f(pid) - others_base[k]
        cpu["load generator"] = time.process_time() - me0 - spent["generate"] - spent["check"]
        load_average = os.getloadavg()
        # Republished standings (a worker's assignment) may still come: the latest must be the final ones.
        settle = time.monotonic() + 5
        while time.monotonic() < settle:
            for tp, records in consumer.poll(timeout_ms=200, max_records=5000).items():
                for rec in records:
                    if names[tp.topic] is topics.STANDINGS and not (rec.key or b"").endswith(ANCHORS_SUFFIX):
                        on_standings(json.loads(rec.value), -1, 0.0)
                    elif names[tp.topic] is topics.TOURNAMENT_LOG:
                        on_log(rec.value, rec.offset, 0.0)
        consumer.close()
        deadline = time.monotonic() + timeout
        while not caught_up(database_url, bootstrap, prefix) and time.monotonic() < deadline:
            time.sleep(0.5)
        pipeline.check()
    different = [tid for tid, (_, logged, generated) in final.items() if not (live.get(tid) == logged == generated)]
    lost_log = sum(len(p.unjudged) for p in playing.values())
    lost_db, doubled_db = _read_model_counts(database_url, tprefix, counts["events"] - lost_log - counts["dead_events"])
    return LoadReport(tournaments, len(final), counts["events"], counts["results"], wall, cpu, kills, latencies, to_log,
                      len(final) - len(different), different, lost_log, counts["doubled_log"], lost_db, doubled_db,
                      counts["dead"], counts["refused"], max(sent_per_10s.values(), default=0) / 10, counts["max_playing"],
                      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, spent["generate"], spent["check"], load_average,
                      unfinished=sorted(playing))


@contextlib.contextmanager
def own_database(url: str, name: str) -> Iterator[str]:
    """A new database ``name`` on the PostgreSQL server of ``url`` (dropped on exit), so that a
    restarted worker rebuilds only this run's tournaments; any other URL as it is."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    from projections.store import with_driver

    server = make_url(with_driver(url))
    if server.get_backend_name() != "postgresql":
        yield url
        return
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _read_model_counts(database_url: str, tournament_prefix: str, logged: int) -> tuple[int, int]:
    """(events on the log missing from the read model, copies in it beyond the first) for the
    tournaments whose ids start with ``tournament_prefix``; ``logged``: how many are on the log."""
    from sqlalchemy import create_engine, func, select

    from projections.store import events_table, with_driver

    engine = create_engine(with_driver(database_url))
    try:
        with engine.connect() as conn:
            n, distinct = conn.execute(select(func.count(), func.count(events_table.c.event_id.distinct()))
                                       .where(events_table.c.tournament_id.startswith(tournament_prefix))).one()
    finally:
        engine.dispose()
    return max(0, logged - distinct), n - distinct
