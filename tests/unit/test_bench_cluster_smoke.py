"""Issue 32: the parts of ``bench/bench_cluster.py`` that need no broker (its full run is
``tests/integration/test_cluster.py``): the tournaments it simulates, its report, its refusal."""
from __future__ import annotations

from bench.bench_cluster import ROUNDS, ClusterReport, main, simulated


def test_the_tournaments_have_8_to_16_teams_and_5_rounds():
    logs = simulated(3, "smoke-")
    assert [events[0].tournament_id for events in logs] == ["smoke-t1", "smoke-t2", "smoke-t3"]
    for events in logs:
        teams = sum(1 for e in events if e.type == "TeamRegistered")
        assert 8 <= teams <= 16
        assert max(e.round for e in events if e.type == "RoundPaired") == ROUNDS


def test_the_report_prints_rate_cpu_per_result_latency_and_the_checks():
    report = ClusterReport(20, 2000, 4.0, {"processors": 1.0, "projections-2": 0.5}, [0.1] * 99 + [2.0], 19,
                           lost=["a"], different=["t"], rebalanced_before_last=True)
    assert report.lines() == [
        "20 tournaments, 2000 board results in 4.0 s: 500 results/s",
        "  processors: 1.00 s CPU, 500 us per board result",
        "  projections-2: 0.50 s CPU, 250 us per board result",
        "latency, a wave sent -> its standings: p50 100 ms, p99 2000 ms (100 tournament-rounds)",
        "digests equal: 19 of 20; lost 1, doubled 0, dead letters 0; rebalanced before the last wave: yes",
    ]


def test_without_a_broker_and_a_database_it_refuses(monkeypatch, capsys):
    monkeypatch.delenv("KAFKA_BOOTSTRAP_SERVERS", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main([]) == 2
    assert "KAFKA_BOOTSTRAP_SERVERS" in capsys.readouterr().err
