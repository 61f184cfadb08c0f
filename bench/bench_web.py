"""Issue 5, acceptance 3: submit -> standings update latency at 500 concurrent stream subscribers.

Starts ``olympiad serve`` (Samarkand 2026 Open through round 10, embedded store) on a free port,
opens ``--subscribers`` server-sent-event streams spread over ``--processes`` client processes
(aiohttp), then enters the real round-11 results table by table (four boards per POST, one POST
every ``--interval`` seconds) with a terminal token. A subscriber has an update when the ``data:``
line of the message is read. Latency of one submission at one subscriber = time the first update
naming one of its event ids (``caused_by``) arrived - time just before its POST (``time.monotonic``,
one clock for every process of the machine). Prints p50/p99/max over all (submission, subscriber)
pairs and whether the final standings digest equals ``olympiad replay`` of the full source.

    .venv/bin/python -m bench.bench_web                      # 500 subscribers, 103 tables
    .venv/bin/python -m bench.bench_web --subscribers 50 --tables 20

Goal (issue 5): p99 < 1 s.
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import re
import statistics
import time

from olympiad.web.local_server import call, serving

TID = "samarkand-2026-open"
CHIEF = "bench-chief-token-4f9c1a7e2b"
CAUSED = re.compile(rb'"caused_by":\[([^\]]*)\]')


# ---------------------------------------------------------------------- subscriber processes
async def _subscribe(url: str, n: int, ready, stop, out) -> None:
    import aiohttp

    records: list[list[tuple[float, list[str]]]] = [[] for _ in range(n)]  # per subscriber
    connected = 0

    async def one(session, mine: list) -> None:
        nonlocal connected
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=None, sock_read=None)) as r:
            first = True
            async for line in r.content:
                if not line.startswith(b"data:"):
                    continue
                at = time.monotonic()
                if first:  # the snapshot sent on connect
                    first = False
                    connected += 1
                    if connected == n:
                        ready.put(n)
                    continue
                ids = CAUSED.search(line, 0, 4096).group(1)
                mine.append((at, [i.strip(b'"').decode() for i in ids.split(b",") if i]))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(one(session, mine)) for mine in records]
        while not stop.is_set():
            await asyncio.sleep(0.05)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    out.put(records)


def subscriber_process(url: str, n: int, ready, stop, out) -> None:
    asyncio.run(_subscribe(url, n, ready, stop, out))


# ---------------------------------------------------------------------- the run
def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--subscribers", type=int, default=500)
    ap.add_argument("--processes", type=int, default=4, help="client processes the subscribers are spread over")
    ap.add_argument("--tables", type=int, default=103, help="round-11 tables to enter (at most 103)")
    ap.add_argument("--interval", type=float, default=0.25, help="seconds between two table submissions")
    args = ap.parse_args()

    from processors.scoring import board_points
    from projections.replay import replay
    from producers.sources import load_source
    from olympiad.web.preload import held_back

    events = load_source(TID)
    by_table: dict[int, list[dict]] = {}
    for e in held_back(events, 10):
        forfeit = not board_points(e.result, e.board)[2]  # the source gives no reason; the entry API needs one
        by_table.setdefault(e.table, []).append(
            {"board": e.board, "result": e.result, "reason": e.reason or ("forfeit in the source" if forfeit else None)})
    tables = sorted(by_table)[: args.tables]

    with serving(TID, 10, CHIEF) as root:
        base = f"{root}/api/tournaments/{TID}"
        ctx = mp.get_context("spawn")
        ready, out, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        shares = [args.subscribers // args.processes + (i < args.subscribers % args.processes) for i in range(args.processes)]
        clients = [ctx.Process(target=subscriber_process, args=(f"{base}/stream", n, ready, stop, out)) for n in shares if n]
        try:
            for c in clients:
                c.start()
            t0 = time.monotonic()
            connected = sum(ready.get(timeout=120) for _ in clients)
            print(f"{connected} subscribers connected in {time.monotonic() - t0:.1f} s")
            token = call(f"{base}/terminals", {"terminal_id": "bench", "tables": None}, CHIEF)["token"]

            submitted: list[tuple[float, set[str]]] = []
            post_ms = []
            for i, table in enumerate(tables):
                due = t0 = time.monotonic()
                written = call(f"{base}/rounds/11/tables/{table}/results", {"boards": by_table[table]}, token)
                post_ms.append((time.monotonic() - t0) * 1000)
                submitted.append((t0, set(written["event_ids"])))
                time.sleep(max(0.0, due + args.interval - time.monotonic()))
            time.sleep(3)  # let the last update reach everyone
            stop.set()
            records = [sub for _ in clients for sub in out.get(timeout=60)]  # one list of updates per subscriber
            final = call(f"{base}/standings")
        finally:
            stop.set()
            for c in clients:
                c.join(timeout=10)
                if c.is_alive():
                    c.terminate()

    latencies, missing = [], 0
    for updates in records:
        first_seen: dict[str, float] = {}
        for at, ids in updates:
            for event_id in ids:
                first_seen.setdefault(event_id, at)
        for t_submit, ids in submitted:
            seen = [first_seen[i] for i in ids if i in first_seen]
            if seen:
                latencies.append((min(seen) - t_submit) * 1000)
            else:
                missing += 1
    per_subscriber = statistics.median(len(u) for u in records)
    expected = replay(events).rounds[11].digest if len(tables) == len(by_table) else None
    print(f"{len(tables)} submissions (4 boards each, every {args.interval * 1000:.0f} ms), "
          f"{per_subscriber:.0f} updates per subscriber, {args.subscribers} subscribers in {len(clients)} processes")
    print(f"POST p50 {statistics.median(post_ms):.0f} ms, p99 {percentile(post_ms, 99):.0f} ms")
    print(f"submit -> update at subscriber: n={len(latencies)} missing={missing} "
          f"p50 {percentile(latencies, 50):.0f} ms, p99 {percentile(latencies, 99):.0f} ms, max {max(latencies):.0f} ms "
          f"(goal p99 < 1000 ms: {'met' if percentile(latencies, 99) < 1000 and not missing else 'NOT met'})")
    if expected:
        print(f"final standings digest {final['digest']} "
              f"{'equals' if final['digest'] == expected else 'DIFFERS FROM'} olympiad replay {TID}")


if __name__ == "__main__":
    main()
