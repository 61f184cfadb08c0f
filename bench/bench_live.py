"""Benchmark (issues 4 and 32): the live pipeline on a real broker, against raw Kafka, in one run.

Measured in one run, on the same broker (the load average is printed with the wall figures):

1. raw Kafka: produce-to-consume round trip of one small message at a time (kafka-python,
   acks=all, idempotent), p50/p99 over ``--raw`` messages; and what one producer-consumer pair
   moves per second in a burst of ``--burst`` messages;
2. faust's floor (``bench.bench_faust_ceiling``, ``--ceiling`` messages; 0 skips it): what one
   faust agent that does nothing takes per second, i.e. the framework's CPU per message;
3. latency: Samarkand 2026 Open published at each of ``--rates`` board results per second
   (rounds 1 to ``--latency-rounds``, each result one command, spaced at the rate: no burst after
   the wait for a round's standings, ``producers.publish.Pacer``); for each board result, the time
   from its send to the arrival of the first ``StandingsUpdated`` that includes it (its
   ``log-position`` is past the result's offset in ``tournament-log``): publisher (ImportFacts) ->
   board-results -> processors (judge) -> tournament-log -> projection worker (SQL transaction,
   standings) -> standings -> subscriber. p50/p99, and the same span cut by stage at the record
   timestamps: the judge's append to ``tournament-log``, the worker's send of the standings after
   its SQL commit, the subscriber's arrival. And the CPU per board result of each process at that
   rate, idle waits included (from the first result sent to the last standings);
4. throughput, one tournament: all 11 rounds published unthrottled; per round, board results
   divided by the time from the round's first result sent to the arrival of the standings
   including its last one. Each round starts from an idle pipeline (its pairing waits for the
   previous round's standings) and ends with a standings computation, so this is the rate of a
   burst of 410 results, fixed costs included;
5. sustained throughput: ``--tournaments`` copies of the event (own tournament ids) published at
   once, each round by round as in 4, so the pipeline stays loaded while each copy waits for its
   standings (as a server running an Olympiad's open and women's sections, or several leagues):
   all board results divided by the time from the first send to the standings that include the
   last result of every copy; and the CPU time each process spent per board result in that run
   (processors, projection worker, the broker if it runs on this machine, and this benchmark, which
   plays the terminals and the subscriber): on one machine their sum bounds the rate.

Goals of issue 32: processors + worker at most 300 us CPU per board result, everything in the
pipeline at most 500 us; at 100 results/s, one tournament, p50 at most 20 ms and p99 at most 100 ms.

Run: ``.venv/bin/python -m bench.bench_live`` (uses ``KAFKA_BOOTSTRAP_SERVERS`` if set, else starts
``deploy/kafka.sh``; the read models go to a fresh SQLite file unless ``DATABASE_URL`` is set).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import KafkaAdminClient

from deploy import topics
from olympiad.cmd_live import Broker, LivePipeline
from producers.publish import Follower, chunks, publish
from producers.sources import load_source
from projections.anchors import ANCHORS_SUFFIX
from projections.worker import POSITION_HEADER

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def raw_kafka(bootstrap: str, n: int, burst: int) -> tuple[list[float], float]:
    """Round trips (seconds) of ``n`` single messages, and the throughput (msg/s) of a ``burst``
    through one kafka-python producer and one consumer."""
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


def faust_floor(bootstrap: str, messages: int) -> int | None:
    """What one faust agent doing nothing takes per second on this broker (``bench.bench_faust_ceiling``
    with ``messages`` waiting messages; it starts a faust worker of its own), or None if it failed."""
    out = subprocess.run([sys.executable, "-m", "bench.bench_faust_ceiling", "--messages", str(messages)], cwd=ROOT,
                         env={**os.environ, "KAFKA_BOOTSTRAP_SERVERS": bootstrap}, capture_output=True, text=True,
                         timeout=600)
    found = re.search(r"doing nothing: ([\d,]+) messages/s", out.stdout)
    return int(found.group(1).replace(",", "")) if found else None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def broker_pid(bootstrap: str) -> int | None:
    """The pid of the Kafka broker on this machine that listens on ``bootstrap``'s port (the one
    whose ``server.properties`` names it; other brokers may run here too), if there is one."""
    port = bootstrap.split(",")[0].rsplit(":", 1)[-1]
    for proc in Path("/proc").iterdir():
        try:
            if not proc.name.isdigit():
                continue
            args = (proc / "cmdline").read_bytes().split(b"\0")
            if b"kafka.Kafka" not in args:
                continue
            config = Path(args[args.index(b"kafka.Kafka") + 1].decode()).read_text()
            if re.search(rf"^listeners=.*:{port}(,|$)", config, re.MULTILINE):
                return int(proc.name)
        except (OSError, IndexError, ValueError):
            continue
    return None


@dataclass
class Run:
    """One pipeline run: the follower (arrivals, ``perf_counter``), ``sent[event_id] = (perf_counter,
    round)``, the record timestamps (``read_stamps``), ``clock`` (``time.time() - perf_counter()``)
    and the CPU samples ``[(perf_counter, {process: CPU seconds so far})]`` taken every 50 ms."""

    follower: Follower
    sent: dict[str, tuple[float, int]]
    logged: dict[str, tuple[int, float]]
    published: dict[tuple[str, int], list[tuple[int, float]]]
    clock: float
    cpu: list[tuple[float, dict[str, float]]]
    rejoined: bool = False  # the worker hung in a rebalance and joined its group again (Worker._watch_group)


def run_pipeline(bootstrap: str, sources: list[list[Any]], rate: float, db: str) -> Run:
    """Publish each event list of ``sources`` (one thread each) through one fresh pipeline, at ``rate``
    board results/s each (0: unthrottled); samples the CPU of ``processors``, ``worker``, ``broker``
    (if local) and ``benchmark`` (the terminals and the subscriber) every 50 ms while publishing."""
    sent: dict[str, tuple[float, int]] = {}
    errors: list[BaseException] = []
    cpu: list[tuple[float, dict[str, float]]] = []

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
                "broker": broker_pid(bootstrap), "benchmark": os.getpid()}
        pids = {name: pid for name, pid in pids.items() if pid is not None}
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.05):
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
        worker_log = pipeline.logdir / f"{prefix}projections.log"
        rejoined = worker_log.exists() and "leaving the group and joining again" in worker_log.read_text(errors="replace")
    follower.close()
    logged, published = read_stamps(bootstrap, prefix)
    drop_topics(bootstrap, prefix)
    return Run(follower, sent, logged, published, time.time() - time.perf_counter(), cpu, rejoined)


def cpu_per_result(samples: list[tuple[float, dict[str, float]]], first: float, last: float,
                   results: int) -> tuple[dict[str, float], float]:
    """CPU seconds per board result of each process between the samples closest to ``first`` and
    ``last`` (``perf_counter``), scaled to the whole span; and the sampled span (s)."""
    start = min(samples, key=lambda s: abs(s[0] - first))
    end = min(samples, key=lambda s: abs(s[0] - last))
    span = end[0] - start[0]
    return {name: (end[1][name] - start[1][name]) / (results * span / (last - first)) for name in end[1]}, span


def cpu_line(per_result: dict[str, float]) -> str:
    """``processors 120 us, worker 110 us, ...; processors + worker 230 us, in all 400 us``."""
    core = per_result.get("processors", 0.0) + per_result.get("worker", 0.0)
    return (", ".join(f"{name} {us * 1e6:,.0f} us" for name, us in per_result.items())
            + f"; processors + worker {core * 1e6:,.0f} us (goal <= 300), in all {sum(per_result.values()) * 1e6:,.0f} us"
            f" (goal <= 500)")


def read_stamps(bootstrap: str, prefix: str) -> tuple[dict[str, tuple[int, float]], dict[tuple[str, int], list[tuple[int, float]]]]:
    """The record timestamps (producer create time, s since the epoch) of a run: ``{event_id:
    (offset, when the processors appended it to tournament-log)}`` and ``{(T, round): [(log
    position, when the worker sent that StandingsUpdated, after its SQL commit)]}``."""
    log_topic, standings_topic = topics.name(topics.TOURNAMENT_LOG, prefix), topics.name(topics.STANDINGS, prefix)
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, group_id=None)
    tps = [TopicPartition(t, p) for t, spec in ((log_topic, topics.TOURNAMENT_LOG), (standings_topic, topics.STANDINGS))
           for p in range(spec.partitions)]
    consumer.assign(tps)
    consumer.seek_to_beginning(*tps)
    ends = consumer.end_offsets(tps)
    logged: dict[str, tuple[int, float]] = {}
    published: dict[tuple[str, int], list[tuple[int, float]]] = {}
    while any(consumer.position(tp) < end for tp, end in ends.items()):
        for tp, records in consumer.poll(timeout_ms=1000, max_records=5000).items():
            for rec in records:
                if tp.topic == log_topic:
                    logged.setdefault(json.loads(rec.value)["event_id"], (rec.offset, rec.timestamp / 1000))
                elif not (rec.key or b"").endswith(ANCHORS_SUFFIX):
                    body = json.loads(rec.value)
                    offset = int(dict(rec.headers or ()).get(POSITION_HEADER, b"0:-1").decode().partition(":")[2])
                    published.setdefault((body["tournament_id"], body["round"]), []).append((offset, rec.timestamp / 1000))
    consumer.close()
    return logged, published


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


def stages(run: Run, tid: str, ids: set[str]) -> dict[str, list[float]]:
    """Per board result of ``ids`` (seconds): ``total``, from its send to the subscriber's arrival of
    the first standings of its round that include it; and that span cut where each stage's record
    was written (record timestamps, ms): ``processors`` (sent -> appended to tournament-log by the
    judge), ``worker`` (-> that StandingsUpdated sent, after its batch's SQL commit) and
    ``subscriber`` (-> arrived at the benchmark's consumer)."""
    out: dict[str, list[float]] = {"total": [], "processors": [], "worker": [], "subscriber": []}
    follower = run.follower
    for event_id, (t_sent, rnd) in run.sent.items():
        if event_id not in ids or event_id not in follower.accepted or event_id not in run.logged:
            continue
        _, offset, _ = follower.accepted[event_id]
        arrivals = [s.received for s in follower.standings.get((tid, rnd), []) if s.offset > offset]
        published = [ts for at, ts in run.published.get((tid, rnd), []) if at > offset]
        if not arrivals or not published:
            continue
        sent, judged, projected, arrived = t_sent + run.clock, run.logged[event_id][1], min(published), min(arrivals) + run.clock
        out["total"].append(arrived - sent)
        out["processors"].append(judged - sent)
        out["worker"].append(projected - judged)
        out["subscriber"].append(arrived - projected)
    return out


def warn_rejoined(run: Run) -> None:
    """Say so when the run's projection worker hung in a rebalance (kafka-python, docs/scaling.md
    "Known limits"): its figures then hold a 30 s stall and a core spent spinning."""
    if run.rejoined:
        print("  NOTE: the projection worker hung in a rebalance and joined its group again after "
              "REJOIN_S (docs/scaling.md, known limits): this run's figures include that stall")


def ms(values: list[float]) -> str:
    """``p50 12.3, p99 45.6 ms`` of ``values`` in seconds."""
    return f"p50 {percentile(values, .5) * 1000:.1f}, p99 {percentile(values, .99) * 1000:.1f} ms"


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, for the wall figures."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=int, default=1000, help="raw Kafka round trips (default 1000)")
    parser.add_argument("--burst", type=int, default=20000, help="messages of the raw producer-consumer burst (default 20000)")
    parser.add_argument("--ceiling", type=int, default=20000,
                        help="messages for the faust floor (bench_faust_ceiling; default 20000, 0: skipped)")
    parser.add_argument("--rates", type=lambda text: [float(r) for r in text.split(",")], default=[20.0, 100.0],
                        help="board results/s of the latency runs, comma-separated (default 20,100)")
    parser.add_argument("--latency-rounds", type=int, default=3, help="rounds published in the latency run (default 3)")
    parser.add_argument("--tournaments", type=int, default=4, help="copies published at once for the sustained rate (default 4)")
    parser.add_argument("--skip-throughput", action="store_true")
    args = parser.parse_args(argv)

    events = load_source("samarkand-2026-open")
    tid = events[0].tournament_id
    print(f"start: {load_average()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        with Broker() as broker:
            bootstrap = broker.bootstrap
            if broker_pid(bootstrap) is None:
                print(f"(the broker at {bootstrap} does not run on this machine: its CPU is not counted)")
            trips, raw_rate = raw_kafka(bootstrap, args.raw, args.burst)
            print(f"raw Kafka, same broker: round trip of one message at a time ({args.raw} messages) {ms(trips)}; "
                  f"one producer-consumer pair, a burst of {args.burst}: {raw_rate:,.0f} messages/s", flush=True)
            if args.ceiling:
                floor = faust_floor(bootstrap, args.ceiling)
                print("faust's floor, same broker (bench_faust_ceiling): " + (
                    f"one agent doing nothing takes {floor:,} waiting messages/s = {1e6 / floor:,.0f} us per message "
                    f"on a core of its own" if floor else "no rate reported"), flush=True)

            cut = [e for c in chunks(events)[: args.latency_rounds + 1] for e in c]
            board_level = {e.event_id for e in cut if e.type in topics.BOARD_LEVEL}
            for rate in args.rates:
                db = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tmp) / f'latency-{rate:g}.sqlite'}"
                run = run_pipeline(bootstrap, [cut], rate, db)
                split = stages(run, tid, board_level)
                lat = split["total"]
                print(f"end to end at {rate:g}/s, board result sent -> the first StandingsUpdated including it, "
                      f"{len(lat)} results: {ms(lat)}, max {max(lat) * 1000:.1f} ms (goal at 100/s: p50 <= 20, p99 <= 100; "
                      f"{load_average()})")
                updates = sum(len(v) for (t, _), v in run.published.items() if t == tid)
                print(f"  by stage (record timestamps): sent -> judged on tournament-log {ms(split['processors'])}; "
                      f"-> standings sent after the worker's SQL commit {ms(split['worker'])}; "
                      f"-> at the subscriber {ms(split['subscriber'])}; {updates} standings updates")
                sent = [run.sent[e][0] for e in board_level if e in run.sent]
                last = max(s.received for (t, _), got in run.follower.standings.items() if t == tid for s in got)
                per_result, span = cpu_per_result(run.cpu, min(sent), last, len(sent))
                print(f"  CPU per board result at {rate:g}/s, idle waits included ({span:.1f} s): {cpu_line(per_result)}",
                      flush=True)
                warn_rejoined(run)

            if not args.skip_throughput:
                db = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tmp) / 'throughput.sqlite'}"
                run = run_pipeline(bootstrap, [events], 0.0, db)
                follower, sent = run.follower, run.sent
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
                      f"(per round: min {min(rates):,.0f}, median {statistics.median(rates):,.0f}, max {max(rates):,.0f})",
                      flush=True)
                warn_rejoined(run)

                copies = [copy_of(events, k) for k in range(1, args.tournaments + 1)]
                db = os.environ.get("DATABASE_URL") or f"sqlite:///{Path(tmp) / 'sustained.sqlite'}"
                run = run_pipeline(bootstrap, copies, 0.0, db)
                results = [e for c in copies for e in c if e.type in topics.BOARD_LEVEL]
                first = min(run.sent[e.event_id][0] for e in results)
                last = max(done_at(run.follower, c[0].tournament_id, c) for c in copies)
                print(f"sustained throughput, {args.tournaments} tournaments at once, unthrottled: "
                      f"{len(results) / (last - first):,.0f} board results/s ({len(results):,} results in {last - first:.1f} s; "
                      f"{load_average()})")
                per_result, span = cpu_per_result(run.cpu, first, last, len(results))
                busy = sum(per_result.values()) * len(results) / (last - first)
                print(f"  CPU per board result in that run ({span:.1f} s of it): {cpu_line(per_result)} = {busy:.2f} of "
                      f"{os.cpu_count()} cores busy", flush=True)
                warn_rejoined(run)
    print(f"end: {load_average()}")


if __name__ == "__main__":
    main()
