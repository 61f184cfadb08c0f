"""Issue 32, acceptance 4 (issue 5, acceptance 3 at 500): submit -> standings update latency at
5,000 concurrent stream subscribers across tournaments.

``--tournaments K`` (default 50: the issue's "5,000 SSE subscribers across tournaments", some 100
subscribers each at ``--subscribers 5000``) tournaments, each served by its own ``olympiad serve``
on the embedded store (a serve process hosts one tournament: ``olympiad.web.deps.served`` answers
404 for any other): the Samarkand 2026 Open through round 10 (206 teams, ~33 KB per standings
message) and K-1 tournaments the bench makes in empty stores through the CLI's command layer
(``olympiad.doors.decide``: CreateTournament, ImportTeams of 8-16 made-up teams, PairRound 1
published; nothing fitted to shipped data). ``--tournaments 1`` is the stress case: every
subscriber on the Open.

Opens ``--subscribers`` server-sent-event streams spread over ``--processes`` client processes
(raw asyncio streams on uvloop: one socket, one chunked-HTTP reader per subscriber, no HTTP
library), subscriber j on tournament j mod K (round-robin: equal shares), then enters
``--tables`` table results through the HTTP API (four boards per POST, one POST every
``--interval`` seconds, with a terminal token per tournament), the tournaments in turn: the
Open's real round-11 results table by table, the generated tournaments' round 1 with results
drawn from a seed.

A subscriber has an update when the whole SSE message (one HTTP chunk) is read. The server sends
each subscriber only its newest standings (``olympiad.web.broadcast``: drop to latest), so a
subscriber that was still reading one update may skip the next and get the one after: the
standings that include a submission are the first update of its tournament at or after the one
whose ``caused_by`` names its event ids. Latency of one submission at one subscriber of its
tournament = arrival of that update - time just before the POST (``time.monotonic``, one clock
for every process of the machine); a submission is measured at its own tournament's subscribers
only, as a result updates only them.

Prints how many subscribers connected, got the last update of their tournament and got every
one (none skipped); p50/p99/max over all (submission, subscriber of its tournament) pairs; the
servers' CPU time (all serve processes) and the clients' per update published (POSTs included)
from ``/proc``; the load average; whether the Open's final standings digest equals ``olympiad
replay`` of the source through round 10 with the round-11 tables entered, and whether each
generated tournament's equals a replay of its own event log (read from its store after the run).

    .venv/bin/python -m bench.bench_web --subscribers 5000                  # issue 32: p99 at most 250 ms
    .venv/bin/python -m bench.bench_web --subscribers 5000 --tournaments 1  # stress: all on the Open
    .venv/bin/python -m bench.bench_web --subscribers 50 --tables 5 --interval 0.1 --settle 1 --tournaments 2  # smoke
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import re
import statistics
import sys
import tempfile
import time
import urllib.error
from dataclasses import dataclass, field
from typing import Sequence

from olympiad.web.broadcast import raise_open_files_limit
from olympiad.web.local_server import call, server_processes

TID = "samarkand-2026-open"
CHIEF = "bench-chief-token-4f9c1a7e2b"
GOAL_MS = 250.0  # issue 32: p99 from a result to every subscriber's update
CAUSED = re.compile(rb'"caused_by":\[([^\]]*)\]')
SEQ = re.compile(rb"\nid: (\d+)\n")


# ---------------------------------------------------------------------- subscriber processes
class Subscriber(asyncio.BufferedProtocol):
    """One subscriber: GET the stream on one socket, then follow the chunked body (the server sends
    one chunk per SSE message) into a buffer of its own, without copying a message: only the
    first ``PREFIX`` bytes of each are kept, enough for its ``id:`` and ``caused_by``. Records
    (seq, arrival) of each standings message and, the first time a seq is seen in this process,
    its ``caused_by``. ``done`` resolves to None at the end of the stream, or to the exception
    that ended the connection."""

    PREFIX = 4096  # "caused_by" comes before "matches" and "rows": some 90 event ids fit

    def __init__(self, request: bytes, mine: list, caused: dict, on_first) -> None:
        self.request, self.mine, self.caused, self.on_first = request, mine, caused, on_first
        self.buffer = bytearray(1 << 16)
        self.view = memoryview(self.buffer)
        self.line = bytearray()  # the status line and headers, then each chunk-size line
        self.head = False
        self.left = 0  # bytes of the current chunk (and its CRLF) still to come
        self.prefix = bytearray()  # the current chunk's first bytes
        self.done: asyncio.Future = asyncio.get_running_loop().create_future()
        self.transport = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.request)

    def get_buffer(self, sizehint: int) -> memoryview:
        return self.view

    def buffer_updated(self, nbytes: int) -> None:
        at = time.monotonic()
        pos = 0
        while pos < nbytes:
            if self.left:  # inside a chunk: keep its prefix, skip the rest
                take = min(self.left, nbytes - pos)
                if len(self.prefix) < self.PREFIX:
                    self.prefix += self.view[pos:pos + min(take, self.PREFIX - len(self.prefix))]
                self.left -= take
                pos += take
                if not self.left:
                    self._message(at)
                continue
            end = self.buffer.find(b"\n", pos, nbytes)
            if end < 0:
                self.line += self.view[pos:nbytes]
                return
            self.line += self.view[pos:end + 1]
            pos = end + 1
            if not self.head:
                if self.line.endswith(b"\r\n\r\n"):
                    if not self.line.startswith(b"HTTP/1.1 200") or b"chunked" not in self.line.lower():
                        self._end(RuntimeError(f"stream answered {bytes(self.line[:200])!r}"))
                        return
                    self.head = True
                    self.line.clear()
                continue
            size = int(self.line, 16)
            self.line.clear()
            if size == 0:
                self._end(None)
                return
            self.left = size + 2  # the chunk and its CRLF
            self.prefix.clear()

    def _message(self, at: float) -> None:
        m = SEQ.search(self.prefix, 0, 64)
        if m is None:  # a keep-alive comment
            return
        seq = int(m.group(1))
        if not self.mine:
            self.on_first()
        self.mine.append((seq, at))
        if seq not in self.caused:
            ids = CAUSED.search(self.prefix).group(1)
            self.caused[seq] = [i.strip(b'"').decode() for i in ids.split(b",") if i]

    def eof_received(self) -> None:
        self._end(ConnectionResetError("the server closed the stream"))

    def connection_lost(self, exc) -> None:
        self._end(exc or ConnectionResetError("the server closed the stream"))

    def _end(self, result) -> None:
        if not self.done.done():
            self.done.set_result(result)
        if self.transport is not None:
            self.transport.close()


async def _subscribe(urls: list[str], ready, stop, out) -> None:
    """Subscribe once to each of ``urls`` (one stream per subscriber; several subscribers share a
    tournament's URL); put on ``out`` per subscriber (its tournament's index in ``TOURNAMENTS``
    order, its updates), the ``caused_by`` of each (tournament, seq) seen, and the errors."""
    loop = asyncio.get_running_loop()
    n = len(urls)
    records: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    caused: dict[str, dict[int, list[str]]] = {url: {} for url in urls}  # a tournament's seqs are its server's
    connected, counter, errors = asyncio.Event(), [0], []

    def arrived() -> None:
        counter[0] += 1
        if counter[0] == n:
            connected.set()

    async def one(url: str, mine: list) -> None:
        host, port_path = url.removeprefix("http://").split(":", 1)
        port, path = port_path.split("/", 1)
        request = f"GET /{path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        for attempt in range(5):  # as a browser's EventSource does, try again after a refused connect
            try:
                _, proto = await loop.create_connection(lambda: Subscriber(request, mine, caused[url], arrived), host, int(port))
                ended = await proto.done
                if ended is None or mine:  # the server ended the stream, or it broke after the first update
                    if ended is not None:
                        errors.append(repr(ended))
                    return
            except OSError as exc:
                ended = exc
            await asyncio.sleep(0.2 * (attempt + 1))
        errors.append(repr(ended))
        arrived()  # given up: not connected, but no longer awaited

    tasks = []
    for i, (url, mine) in enumerate(zip(urls, records)):
        tasks.append(asyncio.create_task(one(url, mine)))
        if i % 100 == 99:
            await asyncio.sleep(0.01)  # spread the connects: the server's accept queue is finite
    try:
        await asyncio.wait_for(connected.wait(), 120)
    except asyncio.TimeoutError:
        pass
    ready.put(sum(1 for r in records if r))
    while not stop.is_set():
        await asyncio.sleep(0.05)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put((list(zip(urls, records)), caused, errors[:3], len(errors)))


def subscriber_process(urls: list[str], ready, stop, out) -> None:
    raise_open_files_limit()
    try:
        import uvloop
        uvloop.run(_subscribe(urls, ready, stop, out))
    except ImportError:  # the bench still runs, with more client CPU
        asyncio.run(_subscribe(urls, ready, stop, out))


# ---------------------------------------------------------------------- the figures
def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


@dataclass
class Figures:
    """What one run measured: latencies (ms) over every (submission, subscriber) pair, and counts."""

    latencies: list[float] = field(default_factory=list)
    missing: int = 0  # (submission, subscriber) pairs whose standings never arrived
    got_last: int = 0  # subscribers that got the last update published
    got_every: int = 0  # subscribers that got every update from their first on (none skipped)


def figures(records: list[tuple[str, list[tuple[int, float]]]], caused: dict[str, dict[int, list[str]]],
            submitted: list[tuple[float, set[str], str]]) -> Figures:
    """Latency of each submission at each subscriber of its tournament: the first update whose seq
    is at or after the update that carried the submission's events (a later update includes it:
    each is the whole standings), minus the submission's time. ``records``: per subscriber, its
    tournament's stream URL and (seq, arrival) in arrival order; ``caused``: per stream URL, seq ->
    event ids; ``submitted``: (time before POST, event ids, stream URL of its tournament)."""
    carried: dict[str, dict[str, int]] = {}
    for url, seqs in caused.items():
        mine = carried.setdefault(url, {})
        for seq in sorted(seqs):
            for event_id in seqs[seq]:
                mine.setdefault(event_id, seq)
    last = {url: max(seqs, default=0) for url, seqs in caused.items()}
    by_url: dict[str, list[tuple[float, set[str]]]] = {}
    for t_submit, ids, url in submitted:
        by_url.setdefault(url, []).append((t_submit, ids))
    out = Figures()
    for url, updates in records:
        seqs = [s for s, _ in updates]
        if updates and seqs[-1] == last.get(url):
            out.got_last += 1
        if updates and seqs == list(range(seqs[0], seqs[0] + len(seqs))) and seqs[-1] == last.get(url):
            out.got_every += 1
        for t_submit, ids in by_url.get(url, []):
            due = min((carried[url][i] for i in ids if i in carried.get(url, {})), default=None)
            at = next((a for s, a in updates if due is not None and s >= due), None)
            if at is None:
                out.missing += 1
            else:
                out.latencies.append((at - t_submit) * 1000)
    return out


def cpu_seconds(pid: int) -> tuple[float, float]:
    """(user, system) CPU time of process ``pid`` so far (``/proc/PID/stat``), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


# ---------------------------------------------------------------------- the tournaments
def generated_tournament(k: int, url: str) -> tuple[str, list[tuple[int, list[dict]]]]:
    """Tournament ``bench-K`` created in the empty event store ``url`` through the CLI's command
    layer (``olympiad.doors.decide``: what ``olympiad new``, ``olympiad team import`` and ``olympiad
    round pair 1 --publish`` submit): 8 + K mod 9 teams (8-16) of five made-up players, ratings
    drawn from a seed, round 1 paired by the engine. Returns its id and its round-1 tables, each
    with four board results drawn from the same seed (entered later through the HTTP API)."""
    from olympiad.doors import decide, embedded_state

    tid, rng = f"bench-{k:03d}", random.Random(f"bench-web/{k}")
    teams = []
    for i in range(1, 9 + k % 9):
        strength = rng.randint(1400, 2700)
        teams.append({"team_id": f"T{i}", "name": f"Bench club {k}.{i}", "federation": "",
                      "players": [{"board_order": b, "name": f"Player {k}.{i}.{b}", "rating": strength - 20 * b}
                                  for b in range(1, 6)]})
    chief = {"role": "chief", "id": "chief"}
    for kind, fields in (("CreateTournament", {"name": f"Bench tournament {k}", "profile": "olympiad-2022"}),
                         ("ImportTeams", {"teams": teams}), ("PairRound", {"round": 1, "publish": True})):
        outcome = decide(kind, {"tournament_id": tid, "actor": chief, **fields}, url, None)
        if not outcome.accepted:
            raise RuntimeError(f"{tid}: {kind} refused: {outcome.text()}")
    paired = embedded_state(url, None).rounds[1].tables
    return tid, [(t.table, [{"board": b, "result": rng.choice(("1-0", "0-1", "1/2-1/2")), "forfeit": None,
                             "reason": None} for b in range(1, 5)]) for t in paired]


def round_robin(tables: list[list], limit: int) -> list[tuple[int, int]]:
    """(tournament index, table index) of at most ``limit`` submissions, the tournaments in turn:
    the first table of each, then the second of each, ..."""
    order = [(k, i) for i in range(max(map(len, tables))) for k in range(len(tables)) if i < len(tables[k])]
    return order[:limit]


# ---------------------------------------------------------------------- the run
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subscribers", type=int, default=500)
    ap.add_argument("--tournaments", type=int, default=50,
                    help="tournaments served, one olympiad serve each: the Open and K-1 generated ones (8-16 teams); "
                         "subscribers and submissions spread over them in turn (1: all on the Open)")
    ap.add_argument("--processes", type=int, default=4, help="client processes the subscribers are spread over")
    ap.add_argument("--tables", type=int, default=103, help="table submissions in all, the tournaments in turn")
    ap.add_argument("--interval", type=float, default=0.25, help="seconds between two table submissions")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds to wait after the last submission")
    args = ap.parse_args(argv)
    raise_open_files_limit()

    from processors.scoring import board_points
    from projections.replay import replay
    from projections.store import EventStore
    from producers.sources import load_source
    from olympiad.web.preload import held_back, through_round

    events = load_source(TID)
    open_results: dict[int, list[dict]] = {}
    for e in held_back(events, 10):
        forfeit = not board_points(e.result, e.board)[2]  # the source gives no reason; the entry API needs one
        open_results.setdefault(e.table, []).append(
            {"board": e.board, "result": e.result, "forfeit": e.forfeit,
             "reason": e.note or ("forfeit in the source" if forfeit else None)})
    workdir = tempfile.TemporaryDirectory(prefix="bench_web-")
    t0 = time.monotonic()
    made = [generated_tournament(k, f"sqlite:///{workdir.name}/bench-{k:03d}.sqlite") for k in range(1, args.tournaments)]
    tids = [TID] + [tid for tid, _ in made]
    stores = [None] + [f"sqlite:///{workdir.name}/bench-{k:03d}.sqlite" for k in range(1, args.tournaments)]
    tables = [sorted(open_results.items())] + [paired for _, paired in made]
    order = round_robin(tables, args.tables)
    if args.tournaments > 1:
        print(f"{args.tournaments} tournaments, one olympiad serve each: {TID} (206 teams) and {len(made)} generated "
              f"({min(len(t) for t in tables[1:])}-{max(len(t) for t in tables[1:])} tables each), created through the "
              f"command layer in {time.monotonic() - t0:.1f} s; subscribers in turn (subscriber j watches tournament "
              f"j mod {args.tournaments}), submissions in turn")
    load_before = os.getloadavg()

    specs = [(TID, 10, "sqlite://")] + [(None, None, url) for url in stores[1:]]
    with server_processes(specs, CHIEF, start_timeout=60 + 3 * len(specs)) as servers:
        bases = [f"{root}/api/tournaments/{tid}" for (root, _), tid in zip(servers, tids)]
        pids = [pid for _, pid in servers]
        streams = [f"{base}/stream" for base in bases]
        watching = [streams[j % len(streams)] for j in range(args.subscribers)]
        ctx = mp.get_context("spawn")
        ready, out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        shares = [args.subscribers // args.processes + (i < args.subscribers % args.processes) for i in range(args.processes)]
        starts = [sum(shares[:i]) for i in range(len(shares))]
        clients = [ctx.Process(target=subscriber_process, args=(watching[a:a + n], ready, stop, out))
                   for a, n in zip(starts, shares) if n]
        try:
            for c in clients:
                c.start()
            t0 = time.monotonic()
            connected = sum(ready.get(timeout=180) for _ in clients)
            print(f"{connected} of {args.subscribers} subscribers connected in {time.monotonic() - t0:.1f} s "
                  f"({len(clients)} client processes; {args.tournaments} tournament(s), "
                  f"{args.subscribers // args.tournaments}-{-(-args.subscribers // args.tournaments)} subscribers each)")
            tokens = [call(f"{base}/terminals", {"terminal_id": "bench", "tables": None}, CHIEF)["token"] for base in bases]

            load_start = os.getloadavg()  # the servers' and clients' start-up counts in load_before's next minutes
            cpu0, wall0 = [cpu_seconds(pid) for pid in pids], time.monotonic()
            clients0 = [cpu_seconds(c.pid) for c in clients]
            submitted: list[tuple[float, set[str], str]] = []
            post_ms = []
            for k, i in order:
                table, boards = tables[k][i]
                due = t_post = time.monotonic()
                try:
                    written = call(f"{bases[k]}/rounds/{11 if k == 0 else 1}/tables/{table}/results", {"boards": boards}, tokens[k])
                except urllib.error.HTTPError as exc:  # a refusal names the field and the rule: say it
                    raise RuntimeError(f"{tids[k]} table {table}: HTTP {exc.code} {exc.read()[:500]!r}") from None
                post_ms.append((time.monotonic() - t_post) * 1000)
                submitted.append((t_post, set(written["event_ids"]), streams[k]))
                time.sleep(max(0.0, due + args.interval - time.monotonic()))
            time.sleep(args.settle)  # let the last update reach everyone
            cpu1 = [cpu_seconds(pid) for pid in pids]
            user = sum(u for u, _ in cpu1) - sum(u for u, _ in cpu0)
            system = sum(s for _, s in cpu1) - sum(s for _, s in cpu0)
            wall = time.monotonic() - wall0
            clients1 = [cpu_seconds(c.pid) for c in clients]
            client_user = sum(u for u, _ in clients1) - sum(u for u, _ in clients0)
            client_sys = sum(s for _, s in clients1) - sum(s for _, s in clients0)
            client_cpu = client_user + client_sys
            load = os.getloadavg()
            stop.set()
            parts = [out.get(timeout=120) for _ in clients]
            finals = [call(f"{base}/standings") for base in bases]
        finally:
            stop.set()
            for c in clients:
                c.join(timeout=10)
                if c.is_alive():
                    c.terminate()

    records = [sub for part in parts for sub in part[0]]
    caused: dict[str, dict[int, list[str]]] = {}
    for part in parts:
        for url, seqs in part[1].items():
            caused.setdefault(url, {}).update(seqs)
    errors = sum(part[3] for part in parts)
    f = figures(records, caused, submitted)
    updates = sum(len([s for s, ids in seqs.items() if ids]) for seqs in caused.values())  # published in the run (not snapshots)
    print(f"{len(order)} submissions (4 boards each, every {args.interval * 1000:.0f} ms, the tournaments in turn), "
          f"{updates} standings updates published; connection errors {errors}"
          + (f" (first: {parts[0][2] or parts[-1][2]})" if errors else ""))
    print(f"subscribers that got the last update of their tournament: {f.got_last} of {args.subscribers}; "
          f"got every update (none skipped): {f.got_every}")
    print(f"POST p50 {statistics.median(post_ms):.0f} ms, p99 {percentile(post_ms, 99):.0f} ms")
    if f.latencies:
        p99 = percentile(f.latencies, 99)
        print(f"submit -> update at subscriber: n={len(f.latencies)} missing={f.missing} "
              f"p50 {percentile(f.latencies, 50):.0f} ms, p99 {p99:.0f} ms, max {max(f.latencies):.0f} ms "
              f"(goal p99 <= {GOAL_MS:.0f} ms: {'met' if p99 <= GOAL_MS and not f.missing else 'NOT met'})")
    else:
        print(f"submit -> update at subscriber: no update arrived (missing={f.missing})")
    server_cpu = user + system
    print(f"server CPU ({len(pids)} process(es)) {server_cpu:.2f} s ({user:.2f} user, {system:.2f} system) in {wall:.1f} s "
          f"({server_cpu / wall * 100:.0f}% of a core): {server_cpu / max(1, updates) * 1000:.1f} ms per update "
          f"(its POST included); the {len(clients)} client processes {client_cpu:.2f} s ({client_user:.2f} user, "
          f"{client_sys:.2f} system), {client_cpu / max(1, updates) * 1000:.1f} ms per update")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (before the servers started {load_before[0]:.2f}, "
          f"at the first submission {load_start[0]:.2f}); "
          f"{os.cpu_count()} cores")
    ok = bool(f.latencies) and not f.missing and f.got_last == args.subscribers
    # The Open: olympiad replay of the source through round 10 and the round-11 results entered.
    entered = {tables[0][i][0] for k, i in order if k == 0}
    expected = replay(through_round(events, 10) + [e for e in held_back(events, 10) if e.table in entered])
    same = finals[0]["digest"] == expected.rounds[11].digest
    whole = " (round 11 complete: olympiad replay " + TID + ")" if len(entered) == len(tables[0]) else ""
    print(f"{TID}: final standings digest {finals[0]['digest'][:16]}... {'equals' if same else 'DIFFERS FROM'} "
          f"olympiad replay of the source through round 10 with the {len(entered)} round-11 tables entered{whole}")
    ok = ok and same
    if len(stores) > 1:  # every other tournament: its standings served = replay of its own event log
        differ = [tid for tid, url, final in zip(tids[1:], stores[1:], finals[1:])
                  if final["digest"] != replay(EventStore(url).events()).rounds[1].digest]
        print(f"generated tournaments: {len(stores) - 1 - len(differ)} of {len(stores) - 1} final standings digests "
              f"equal a replay of their own event log" + (f"; DIFFER: {', '.join(differ)}" if differ else ""))
        ok = ok and not differ
    workdir.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
