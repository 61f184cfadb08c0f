"""Issue 29, acceptance 4: the feed benchmark's smoke run (8 games): every game's result recorded,
every figure printed and positive."""
from __future__ import annotations

from bench.bench_feed import run


def test_the_feed_bench_runs_eight_games_and_prints_its_figures():
    lines: list[str] = []
    figures = run(8, 40, out=lines.append)
    assert figures["games"] == 8 and figures["results"] == 8
    assert all(figures[k] > 0 for k in ("games_per_s", "moves_per_s", "cpu_us_per_move", "end_to_standings_ms_max"))
    assert lines[0] == "8 concurrent games, 40 plies a step: 8 results recorded"
    assert lines[3].startswith("game end to standings: median ")
