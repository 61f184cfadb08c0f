"""Issue 32, acceptance 1: ``bench/bench_live.py`` runs on a real broker and prints, in one run,
the raw Kafka figures, the end-to-end latency with its stages and the CPU per board result of
each process. A smoke test: one round at 100 results/s, no goal asserted (no timed tests)."""
from __future__ import annotations

import re

import pytest

from bench import bench_live

pytestmark = pytest.mark.integration


def test_one_round_at_100_per_second_prints_latency_stages_and_cpu_per_result(kafka_bootstrap, monkeypatch, capsys):
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", kafka_bootstrap)
    monkeypatch.delenv("DATABASE_URL", raising=False)  # a fresh SQLite file per run
    bench_live.main(["--raw", "20", "--burst", "500", "--ceiling", "0", "--rates", "100", "--latency-rounds", "1",
                     "--skip-throughput"])
    out = capsys.readouterr().out
    print(out)
    assert re.search(r"raw Kafka, same broker: round trip of one message at a time \(20 messages\) p50 [\d.]+, "
                     r"p99 [\d.]+ ms; one producer-consumer pair, a burst of 500: [\d,]+ messages/s", out)
    # round 1 of the Samarkand Open: 404 board results
    latency = re.search(r"end to end at 100/s, .* (\d+) results: p50 ([\d.]+), p99 ([\d.]+) ms", out)
    assert latency and int(latency.group(1)) == 404
    assert 0 < float(latency.group(2)) <= float(latency.group(3))
    stages = re.search(r"sent -> judged on tournament-log p50 ([\d.]+), .* after the worker's SQL commit p50 ([\d.]+), "
                       r".* at the subscriber p50 ([\d.]+), .*; (\d+) standings updates", out)
    assert stages and int(stages.group(4)) >= 1
    cpu = re.search(r"CPU per board result at 100/s.*processors ([\d,]+) us, worker ([\d,]+) us, .*benchmark ([\d,]+) us; "
                    r"processors \+ worker ([\d,]+) us", out)
    assert cpu, out
    processors, worker, _, both = (int(g.replace(",", "")) for g in cpu.groups())
    assert processors > 0 and worker > 0 and abs(both - (processors + worker)) <= 1
    assert "load average" in out
