"""Issue 32, acceptance 4 (issue 5, acceptance 3 at 500): submit -> standings update latency at
5,000 concurrent stream subscribers.

Starts ``olympiad serve`` (Samarkand 2026 Open through round 10, embedded store) on a free port,
opens ``--subscribers`` server-sent-event streams spread over ``--processes`` client processes
(raw asyncio streams on uvloop: one socket, one chunked-HTTP reader per subscriber, no HTTP
library), then enters the real round-11 results table by table (four boards per POST, one POST
every ``--interval`` seconds) with a terminal token.

A subscriber has an update when the whole SSE message (one HTTP chunk) is read. The server sends
each subscriber only its newest standings (``olympiad.web.broadcast``: drop to latest), so a
subscriber that was still reading one update may skip the next and get the one after: the
standings that include a submission are the first update at or after the one whose ``caused_by``
names its event ids. Latency of one submission at one subscriber = arrival of that update -
time just before the POST (``time.monotonic``, one clock for every process of the machine).

Prints how many subscribers connected, got the last update and got every update (none skipped);
p50/p99/max over all (submission, subscriber) pairs; the server's CPU time per update published
(POSTs included) from ``/proc``; the load average; and whether the final standings digest equals
``olympiad replay`` of the full source.

    .venv/bin/python -m bench.bench_web --subscribers 5000   # issue 32: p99 at most 250 ms
    .venv/bin/python -m bench.bench_web                      # 500 subscribers, 103 tables
    .venv/bin/python -m bench.bench_web --subscribers 50 --tables 5 --interval 0.1 --settle 1   # smoke
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Sequence

from olympiad.web.broadcast import raise_open_files_limit
from olympiad.web.local_server import call, server_process

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


async def _subscribe(url: str, n: int, ready, stop, out) -> None:
    host, port_path = url.removeprefix("http://").split(":", 1)
    port, path = port_path.split("/", 1)
    request = f"GET /{path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    loop = asyncio.get_running_loop()
    records: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    caused: dict[int, list[str]] = {}
    connected, counter, errors = asyncio.Event(), [0], []

    def arrived() -> None:
        counter[0] += 1
        if counter[0] == n:
            connected.set()

    async def one(mine: list) -> None:
        for attempt in range(5):  # as a browser's EventSource does, try again after a refused connect
            try:
                _, proto = await loop.create_connection(lambda: Subscriber(request, mine, caused, arrived), host, int(port))
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
    for i, mine in enumerate(records):
        tasks.append(asyncio.create_task(one(mine)))
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
    out.put((records, caused, errors[:3], len(errors)))


def subscriber_process(url: str, n: int, ready, stop, out) -> None:
    raise_open_files_limit()
    try:
        import uvloop
        uvloop.run(_subscribe(url, n, ready, stop, out))
    except ImportError:  # the bench still runs, with more client CPU
        asyncio.run(_subscribe(url, n, ready, stop, out))


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


def figures(records: list[list[tuple[int, float]]], caused: dict[int, list[str]],
            submitted: list[tuple[float, set[str]]]) -> Figures:
    """Latency of each submission at each subscriber: the first update whose seq is at or after
    the update that carried the submission's events (a later update includes it: each is the
    whole standings), minus the submission's time. ``records``: per subscriber, (seq, arrival) in
    arrival order; ``caused``: seq -> event ids; ``submitted``: (time before POST, event ids)."""
    carried: dict[str, int] = {}
    for seq in sorted(caused):
        for event_id in caused[seq]:
            carried.setdefault(event_id, seq)
    last = max(caused, default=0)
    out = Figures()
    for updates in records:
        seqs = [s for s, _ in updates]
        if updates and seqs[-1] == last:
            out.got_last += 1
        if updates and seqs == list(range(seqs[0], seqs[0] + len(seqs))) and seqs[-1] == last:
            out.got_every += 1
        for t_submit, ids in submitted:
            due = min((carried[i] for i in ids if i in carried), default=None)
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


# ---------------------------------------------------------------------- the run
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subscribers", type=int, default=500)
    ap.add_argument("--processes", type=int, default=4, help="client processes the subscribers are spread over")
    ap.add_argument("--tables", type=int, default=103, help="round-11 tables to enter (at most 103)")
    ap.add_argument("--interval", type=float, default=0.25, help="seconds between two table submissions")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds to wait after the last submission")
    args = ap.parse_args(argv)
    raise_open_files_limit()

    from processors.scoring import board_points
    from projections.replay import replay
    from producers.sources import load_source
    from olympiad.web.preload import held_back

    events = load_source(TID)
    by_table: dict[int, list[dict]] = {}
    for e in held_back(events, 10):
        forfeit = not board_points(e.result, e.board)[2]  # the source gives no reason; the entry API needs one
        by_table.setdefault(e.table, []).append(
            {"board": e.board, "result": e.result, "forfeit": e.forfeit,
             "reason": e.note or ("forfeit in the source" if forfeit else None)})
    tables = sorted(by_table)[: args.tables]
    load_before = os.getloadavg()

    with server_process(TID, 10, CHIEF) as (root, pid):
        base = f"{root}/api/tournaments/{TID}"
        ctx = mp.get_context("spawn")
        ready, out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        shares = [args.subscribers // args.processes + (i < args.subscribers % args.processes) for i in range(args.processes)]
        clients = [ctx.Process(target=subscriber_process, args=(f"{base}/stream", n, ready, stop, out)) for n in shares if n]
        try:
            for c in clients:
                c.start()
            t0 = time.monotonic()
            connected = sum(ready.get(timeout=180) for _ in clients)
            print(f"{connected} of {args.subscribers} subscribers connected in {time.monotonic() - t0:.1f} s "
                  f"({len(clients)} client processes)")
            token = call(f"{base}/terminals", {"terminal_id": "bench", "tables": None}, CHIEF)["token"]

            cpu0, wall0 = cpu_seconds(pid), time.monotonic()
            clients0 = [cpu_seconds(c.pid) for c in clients]
            submitted: list[tuple[float, set[str]]] = []
            post_ms = []
            for table in tables:
                due = t_post = time.monotonic()
                written = call(f"{base}/rounds/11/tables/{table}/results", {"boards": by_table[table]}, token)
                post_ms.append((time.monotonic() - t_post) * 1000)
                submitted.append((t_post, set(written["event_ids"])))
                time.sleep(max(0.0, due + args.interval - time.monotonic()))
            time.sleep(args.settle)  # let the last update reach everyone
            (user0, sys0), (user1, sys1) = cpu0, cpu_seconds(pid)
            user, system, wall = user1 - user0, sys1 - sys0, time.monotonic() - wall0
            clients1 = [cpu_seconds(c.pid) for c in clients]
            client_user = sum(u for u, _ in clients1) - sum(u for u, _ in clients0)
            client_sys = sum(s for _, s in clients1) - sum(s for _, s in clients0)
            client_cpu = client_user + client_sys
            load = os.getloadavg()
            stop.set()
            parts = [out.get(timeout=120) for _ in clients]
            final = call(f"{base}/standings")
        finally:
            stop.set()
            for c in clients:
                c.join(timeout=10)
                if c.is_alive():
                    c.terminate()

    records = [sub for part in parts for sub in part[0]]
    caused = {seq: ids for part in parts for seq, ids in part[1].items()}
    errors = sum(part[3] for part in parts)
    f = figures(records, caused, submitted)
    updates = len([s for s, ids in caused.items() if ids])  # updates published during the run (not the snapshot)
    print(f"{len(tables)} submissions (4 boards each, every {args.interval * 1000:.0f} ms), {updates} standings "
          f"updates published; connection errors {errors}"
          + (f" (first: {parts[0][2] or parts[-1][2]})" if errors else ""))
    print(f"subscribers that got the last update: {f.got_last} of {args.subscribers}; "
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
    print(f"server CPU {server_cpu:.2f} s ({user:.2f} user, {system:.2f} system) in {wall:.1f} s "
          f"({server_cpu / wall * 100:.0f}% of a core): {server_cpu / max(1, updates) * 1000:.1f} ms per update "
          f"(its POST included); the {len(clients)} client processes {client_cpu:.2f} s ({client_user:.2f} user, "
          f"{client_sys:.2f} system), {client_cpu / max(1, updates) * 1000:.1f} ms per update")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (before the run {load_before[0]:.2f}); "
          f"{os.cpu_count()} cores")
    ok = bool(f.latencies) and not f.missing and f.got_last == args.subscribers
    if len(tables) == len(by_table):
        expected = replay(events).rounds[11].digest
        same = final["digest"] == expected
        ok = ok and same
        print(f"final standings digest {final['digest']} {'equals' if same else 'DIFFERS FROM'} olympiad replay {TID}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
