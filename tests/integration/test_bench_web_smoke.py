"""Issue 32, acceptance 4: short runs of ``bench/bench_web.py`` (50 subscribers in 2 client
processes, 5 table submissions) against real ``olympiad serve`` processes, so that the benchmark
keeps running: all on the Samarkand Open (``--tournaments 1``), and spread over the Open and one
tournament the bench generates (``--tournaments 2``). Its figures at 5,000 subscribers are in
``docs/web.md``. No broker: the embedded store.
"""
from __future__ import annotations

import re

from bench.bench_web import main

SMALL = ["--subscribers", "50", "--processes", "2", "--tables", "5", "--interval", "0.1", "--settle", "1"]


def test_a_small_run_on_the_open_connects_everyone_and_every_subscriber_gets_every_submission(capsys):
    status = main(SMALL + ["--tournaments", "1"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "50 of 50 subscribers connected" in out
    assert "subscribers that got the last update of their tournament: 50 of 50" in out
    # 5 submissions x 50 subscribers, each measured; none missing
    assert re.search(r"submit -> update at subscriber: n=250 missing=0 p50 \d+ ms, p99 \d+ ms, max \d+ ms", out), out
    assert re.search(r"server CPU \(1 process\(es\)\) [\d.]+ s .* ms per update", out), out
    assert "connection errors 0" in out
    assert "equals olympiad replay of the source through round 10 with the 5 round-11 tables entered" in out


def test_a_small_run_over_two_tournaments_measures_each_submission_at_its_own_subscribers_only(capsys):
    status = main(SMALL + ["--tournaments", "2"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "50 of 50 subscribers connected" in out and "25-25 subscribers each" in out
    assert "subscribers that got the last update of their tournament: 50 of 50" in out
    # submissions in turn: 3 tables of the Open x 25 subscribers + 2 of the generated one x 25
    assert re.search(r"submit -> update at subscriber: n=125 missing=0 p50 \d+ ms", out), out
    assert "equals olympiad replay of the source through round 10 with the 3 round-11 tables entered" in out
    assert "generated tournaments: 1 of 1 final standings digests equal a replay of their own event log" in out
    assert "connection errors 0" in out
