"""Benchmark: how many messages per second one faust agent takes when it does nothing with them.

The ceiling of any faust-streaming processor on this machine, for comparison with
``bench/bench_live.py``: ``--messages`` messages of 300 bytes (a board result's size) are put on
a fresh one-partition topic first, then a faust worker with one agent (``take_events(1000,
within=10 ms)``, concurrency 1, the processors' transport ``processors.faust_transport``) reads
them all and reports messages / seconds from its first batch to its last. Nothing else runs, so
the agent has a core to itself.

Run: ``.venv/bin/python -m bench.bench_faust_ceiling`` (uses ``KAFKA_BOOTSTRAP_SERVERS`` if set,
else starts ``deploy/kafka.sh``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOPIC = os.environ.get("CEILING_TOPIC", "")
COUNT = int(os.environ.get("CEILING_COUNT", "0"))

if TOPIC:  # imported by the faust worker started below: the app under test
    import faust

    from deploy import topics
    from processors import faust_transport

    app = faust.App(f"{TOPIC}-app", broker=f"{faust_transport.SCHEME}://{topics.bootstrap_servers()}",
                    store="memory://", web_enabled=False, consumer_auto_offset_reset="earliest",
                    topic_replication_factor=1)
    source = app.topic(TOPIC, key_type=bytes, value_type=bytes, key_serializer="raw", value_serializer="raw")

    @app.agent(source, concurrency=1)
    async def take(stream):  # noqa: ANN001 - faust's stream
        seen, first = 0, None
        async for batch in stream.take_events(1000, within=0.01):
            first = first or time.perf_counter()
            seen += len(batch)
            if seen >= COUNT:
                print(f"CEILING {seen / (time.perf_counter() - first):.0f}", flush=True)
                os._exit(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=50_000)
    args = parser.parse_args()

    from kafka import KafkaProducer
    from kafka.admin import KafkaAdminClient, NewTopic

    from olympiad.cmd_live import Broker
    from olympiad.web.local_server import free_port

    with Broker() as broker:
        topic = f"bench-ceiling-{uuid.uuid4().hex[:8]}"
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        admin.create_topics([NewTopic(topic, 1, 1)])
        producer = KafkaProducer(bootstrap_servers=broker.bootstrap, linger_ms=5)
        for i in range(args.messages):
            producer.send(topic, key=b"samarkand-2026-open", value=b"%08d" % i + b"x" * 292)
        producer.flush()
        producer.close()
        env = {**os.environ, "CEILING_TOPIC": topic, "CEILING_COUNT": str(args.messages),
               "KAFKA_BOOTSTRAP_SERVERS": broker.bootstrap, "WEB_PORT": str(free_port())}
        out = subprocess.run([str(Path(sys.executable).parent / "faust"), "-A", "bench.bench_faust_ceiling", "worker",
                              "-l", "warn"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        admin.delete_topics([topic])
        admin.close()
        rates = [line.split("CEILING ")[1].split()[0] for line in out.stdout.splitlines() + out.stderr.splitlines()
                 if "CEILING " in line]
        if not rates:
            sys.exit(f"the faust worker reported no rate:\n{out.stderr[-2000:]}")
        print(f"one faust agent taking {args.messages:,} waiting messages, doing nothing: {int(rates[0]):,} messages/s")


if __name__ == "__main__":
    main()
