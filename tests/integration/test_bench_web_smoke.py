"""Issue 32, acceptance 4: a short run of ``bench/bench_web.py`` (50 subscribers in 2 client
processes, 5 tables of round 11) against a real ``olympiad serve``, so that the benchmark keeps
running; its figures at 5,000 subscribers are in ``docs/web.md``. No broker: the embedded store.
"""
from __future__ import annotations

import re

from bench.bench_web import main


def test_a_small_run_connects_everyone_and_every_subscriber_gets_every_submission(capsys):
    status = main(["--subscribers", "50", "--processes", "2", "--tables", "5", "--interval", "0.1", "--settle", "1"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "50 of 50 subscribers connected" in out
    assert "subscribers that got the last update: 50 of 50" in out
    # 5 submissions x 50 subscribers, each measured; none missing
    assert re.search(r"submit -> update at subscriber: n=250 missing=0 p50 \d+ ms, p99 \d+ ms, max \d+ ms", out), out
    assert re.search(r"server CPU [\d.]+ s .* ms per update", out), out
    assert "connection errors 0" in out
