"""Benchmark (issue 4, point 4): the live pipeline on a real broker, against raw Kafka.

Three measurements in one run, on the same broker:

1. raw Kafka: produce-to-consume round trip of one small message at a time (kafka-python,
   acks=all, idempotent), p50/p99 over ``--raw`` messages; and a burst's throughput;
2. latency: Samarkand 2026 Open published at each of ``--rates`` board results per second
   (rounds 1 to ``--latency-rounds``); for each board result, the time from its send to the
   arrival of the first ``StandingsUpdated`` that includes it (its ``log-position`` is past the
   result's offset in ``tournament-log``): publisher (ImportFacts) -> tournament-events -> processors (judge) ->
   tournament-log -> projection worker (SQL transaction, standings) -> standings -> subscriber.
   p50/p99, and the same split at the subscriber's arrival of the result on ``tournament-log``
   (the processors' hop, then the worker's);
3. throughput, one tournament: all 11 rounds published unthrottled; per round, board results
   divided by the time from the round's first result sent to the arrival of the standings
   including its last one. Each round starts from an idle pipeline (its pairing waits for the
   previous round's standings) and ends with a standings computation, so this is the rate of a
   burst of 410 results, fixed costs included;
4. sustained throughput: ``--tournaments`` copies of the event (own tournament ids) published at
   once, each round by round as in 3, so the pipeline stays loaded while each copy waits for its
   standings (as a server running an Olympiad's open and women's sections, or several leagues):
   all board results divided by the time from the first send to the standings that include the
   last result of every copy; and the CPU time each process spent per board result in that run
   (processors, projection worker, broker if it runs on this machine, and this benchmark, which
   plays the terminals and the subscriber): on one machine their sum bounds the rate.

Goals of the issue: p50 <= 50 ms, p99 <= 250 ms, >= 2,000 board results/s.

Run: ``.venv/bin/python -m bench.bench_live`` (uses ``KAFKA_BOOTSTRAP_SERVERS`` if set, else starts
``deploy/kafka.sh``; the read models go to a fresh SQLite file unless ``DATABASE_URL`` is set).
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient

import threading

from deploy import topics
from olympiad.cmd_live import Broker, LivePipeline
from producers.publish import Follower, chunks, publish
from producers.sources import load_source



def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def raw_kafka(bootstrap: str, n: int, burst: int) -> tuple[list[float], float]:
    """Round trips (seconds) of ``n`` single messages, and the throughput (msg/s) of a ``burst``."""
    topic = f"bench-raw-{uuid.uuid4().hex[:8]}"
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.create_topics({topic: {"num_partitions": 1, "replication_factor": 1}}, wait_for_metadata=True)
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all", enable_idempotence=True, linger_ms=0)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=10)
    tp = TopicPartition(topic, 0)
    consumer.assign([tp])
    consumer.seek_to_end(tp)
    consumer.position(tp)
    trips = []
    for i in range(n):
        t0 = time.perf_counter()
        producer.send(topic, key=b"k", value=b"x" * 200)
        producer.flush()
        got = 0
        while not got:
            got = sum(len(r) for r in consumer.poll(timeout_ms=1000).values())
        trips.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    for i in range(burst):
        producer.send(topic, key=str(i).encode(), value=b"x" * 200)
    producer.flush()
    seen = 0
    while seen < burst:
        seen += sum(len(r) for r in consumer.poll(timeout_ms=1000, max_records=5000).values())
    rate = burst / (time.perf_counter() - t0)
    producer.close()
    consumer.close()
    admin.delete_topics([topic])
    admin.close()
    return trips, rate


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def broker_pid() -> int | None:
    """The pid of a Kafka broker running on this machine, if there is one."""
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and b"kafka.Kafka" in (proc / "cmdline").read_bytes():
                return int(proc.name)
        except OSError:
            continue
    return None


def run_pipeline(bootstrap: str, sources: list[list[Any]], rate: float, db: str,
                 cpu: list[tuple[float, dict[str, float]]] | None = None) -> tuple[Follower, dict[str, tuple[float, int]]]:
    """Publish each event list of ``sources`` (one thread each) through one fresh pipeline; returns
    the follower and ``{event_id: (sent, round)}``. ``cpu``, if given, receives every 50 ms while
    publishing ``(perf_counter, {process: CPU seconds used so far})`` for ``processors``,
    ``worker``, ``broker`` (if local) and ``benchmark``."""
    sent: dict[str, tuple[float, int]] = {}
    errors: list[BaseException] = []

    def play(events: list[Any]) -> None:
        current = {"round": 0}

        def on_sent(event: Any, t: float) -> None:
            if event.type == "RoundPaired":
                current["round"] = event.round
            sent[event.event_id] = (t, current["round"])

        try:
            publish(events, speed=rate, bootstrap=bootstrap, topic_prefix=prefix, follower=follower, on_sent=on_sent,
                    timeout=600)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    prefix = f"bench{uuid.uuid4().hex[:6]}."
    with LivePipeline(bootstrap, prefix, db) as pipeline:
        follower = Follower(bootstrap, prefix)
        pids = {"processors": pipeline.children["processors"].pid, "worker": pipeline.children["projections"].pid,
                "broker": broker_pid(), "benchmark": os.getpid()}
        pids = {name: pid for name, pid in pids.items() if pid is not None}
        done = threading.Event()

        def sample() -> None:
            while cpu is not None and not done.wait(0.05):
                cpu.append((time.perf_counter(), {name: cpu_seconds(pid) for name, pid in pids.items()}))

        threads = [threading.Thread(target=play, args=(events,)) for events in sources]
        for t in threads + [threading.Thread(target=sample)]:
            t.start()
        for t in threads:
            t.join()
        done.set()
        if errors:
            raise errors[0]
        pipeline.check()
    follower.close()
    drop_topics(bootstrap, prefix)
    return follower, sent


def drop_topics(bootstrap: str, prefix: str) -> None:
    """Delete the run's topics (its own and faust's), so that runs do not pile partitions on the broker."""
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    admin.delete_topics([t for t in admin.list_topics() if t.startswith(prefix)])
    admin.close()


def copy_of(events: list[Any], k: int) -> list[Any]:
    """The events with tournament id ``T`` renamed ``T-k`` (in event ids and ``supersedes`` too)."""
    tid = events[0].tournament_id
    new = f"{tid}-{k}"

    def rename(text: str) -> str:
        return new + text[len(tid):] if text.startswith(tid) else text

    out = []
    for e in events:
        update = {"tournament_id": new, "event_id": rename(e.event_id)}
        if getattr(e, "supersedes", None):
            update["supersedes"] = rename(e.supersedes)
        out.append(e.model_copy(update=update))
    return out


def done_at(follower: Follower, tid: str, events: list[Any]) -> float:
    """Arrival of the first standings of the last round that include every board result of ``events``."""
    results = [e for e in events if e.type in topics.BOARD_LEVEL]
    rnd = max(e.round for e in results)
    offset = max(follower.accepted[e.event_id][1] for e in results)
    return min(s.received for s in follower.standings[(tid, rnd)] if s.offset > offset)


def latencies(follower: Follower, sent: dict[str, tuple[float, int]], tid: str) -> dict[str, float]:
    """Per board-level event: seconds from its send to the first standings of its round that include it."""
    out = {}
    for event_id, (t_sent, rnd) in sent.items():
        if event_id not in follower.accepted or not event_id.startswith(tid):
            continue
        _, offset, _ = follower.accepted[event_id]
        arrivals = [s.received for s in follower.standings.get((tid, rnd), []) if s.offset > offset]
        if arrivals:
            out[event_id] = min(arrivals) - t_sent
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=int, default=1000, help="raw Kafka round trips (default 1000)")
    parser.add_argument("--rates", type=lambda text: [float(r) for r in text.split(",")], default=[20.0, 100.0],
                        help="board results/s of the latency runs, comma-separated (default 20,100)")
    parser.add_argument("--latency-rounds", type=int, default=3, help="rounds published in the latency run (default 3)")
    parser.add_argument("--tournaments", type=int, default=4, help="copies published at once for the sustained rate (default 4)")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args()

    events = load_source("samarkand-2026-open")
    tid = events[0].tournament_id
    with tempfile.TemporaryDirectory() as tmp:
        with Broker() as broker:
            bootstrap = broker.bootstrap
            trips, raw_rate = raw_kafka(bootstrap, args.raw, 20000)
            print(f"raw Kafka round trip ({args.raw} messages, one at a time): p50 {percentile(trips, .5) * 1000:.1f} ms, "
                  f"p99 {percentile(trips, .99) * 1000:.1f} ms; burst of 20000: {raw_rate:,.0f} msg/s")

            cut = [e for c in chunks(events)[: args.latency_rounds + 1] for e in c]
            board_level = {e.event_id for e in cut if e.type in topics.BOARD_LEVEL}
            for rate in args.rates:
                db = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tmp) / f'latency-{rate:g}.sqlite'}"
                follower, sent = run_pipeline(bootstrap, [cut], rate, db)
                total = {k: v for k, v in latencies(follower, sent, tid).items() if k in board_level}
                judged = [follower.accepted[k][2] - sent[k][0] for k in total]
                lat = list(total.values())
                projected = [total[k] - j for k, j in zip(total, judged)]
                print(f"end to end, board result -> StandingsUpdated, {len(lat)} results at {rate:g}/s: "
                      f"p50 {percentile(lat, .5) * 1000:.1f} ms, p99 {percentile(lat, .99) * 1000:.1f} ms, "
                      f"max {max(lat) * 1000:.1f} ms (to tournament-log: p50 {percentile(judged, .5) * 1000:.1f}, "
                      f"p99 {percentile(judged, .99) * 1000:.1f} ms; then to the standings: p50 "
                      f"{percentile(projected, .5) * 1000:.1f}, p99 {percentile(projected, .99) * 1000:.1f} ms)")

            if not args.skip_throughput:
                db = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tmp) / 'throughput.sqlite'}"
                follower, sent = run_pipeline(bootstrap, [events], 0.0, db)
                rates, total, spent = [], 0, 0.0
                for chunk in chunks(events)[1:]:
                    results = [e for e in chunk if e.type in topics.BOARD_LEVEL]
                    rnd = chunk[0].round
                    first = min(sent[e.event_id][0] for e in results)
                    offset = max(follower.accepted[e.event_id][1] for e in results)
                    done = min(s.received for s in follower.standings[(tid, rnd)] if s.offset > offset)
                    rates.append(len(results) / (done - first))
                    total += len(results)
                    spent += done - first
                print(f"throughput, one tournament, unthrottled, 11 rounds: {total / spent:,.0f} board results/s overall "
                      f"(per round: min {min(rates):,.0f}, median {statistics.median(rates):,.0f}, max {max(rates):,.0f})")

                copies = [copy_of(events, k) for k in range(1, args.tournaments + 1)]
                db = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tmp) / 'sustained.sqlite'}"
                samples: list[tuple[float, dict[str, float]]] = []
                follower, sent = run_pipeline(bootstrap, copies, 0.0, db, samples)
                results = [e for c in copies for e in c if e.type in topics.BOARD_LEVEL]
                first = min(sent[e.event_id][0] for e in results)
                last = max(done_at(follower, c[0].tournament_id, c) for c in copies)
                print(f"sustained throughput, {args.tournaments} tournaments at once, unthrottled: "
                      f"{len(results) / (last - first):,.0f} board results/s ({len(results):,} results in {last - first:.1f} s)")
                # CPU used between the samples closest to the first send and to the last standings
                start = min(samples, key=lambda s: abs(s[0] - first))
                end = min(samples, key=lambda s: abs(s[0] - last))
                span = end[0] - start[0]
                used = {name: end[1][name] - start[1][name] for name in end[1]}
                per_result = {name: seconds / (len(results) * span / (last - first)) for name, seconds in used.items()}
                print(f"  CPU per board result in that run ({span:.1f} s of it): " + ", ".join(
                    f"{name} {us * 1e6:,.0f} us" for name, us in per_result.items())
                    + f"; in all {sum(per_result.values()) * 1e6:,.0f} us = {sum(used.values()) / span:.2f} of "
                    f"{os.cpu_count()} cores busy")


if __name__ == "__main__":
    main()
