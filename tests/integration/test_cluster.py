"""Issue 32, acceptance 6: scale-out stays correct. 20 simulated tournaments (8-16 teams, 5 rounds)
through 2 processors and 2 projection workers on OLYMPIAD_PARTITIONS partitions; after the second
wave a third processor and a third worker join (a rebalance of live members, where faust could
commit past records it dropped: ``processors.offset_gate``). Every event is on tournament-log and
once in the read model, and every tournament's last standings on the standings topic have the
digest of ``olympiad replay`` of its events (``bench.bench_cluster.run_cluster``)."""
from __future__ import annotations

import pytest

from bench.bench_cluster import run_cluster

pytestmark = pytest.mark.integration


def test_twenty_tournaments_on_two_processors_and_two_workers_through_a_rebalance(kafka_bootstrap, fresh_database):
    report = run_cluster(20, 2, 2, bootstrap=kafka_bootstrap, database_url=fresh_database(), timeout=90)
    print("\n".join(report.lines()))
    assert report.lost == [] and report.doubled == [] and report.refused == []
    assert report.different == []
    assert report.digests_equal == 20 and report.rebalanced_before_last
    assert report.board_results > 1000 and len(report.latencies_s) == 100  # 20 tournaments x 5 rounds
