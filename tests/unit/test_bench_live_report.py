"""Issue 32, acceptance 1: the parts of ``bench/bench_live.py`` that need no broker (its run on a
real broker is ``tests/integration/test_bench_live.py``): the latency cut by stage at the record
timestamps, the CPU per board result between two samples, the broker found by its port; and the
publisher's pacing, which spaces results at the rate instead of sending a burst after a wait."""
from __future__ import annotations

import time

from bench.bench_live import Run, broker_pid, cpu_line, cpu_per_result, stages
from producers.publish import Pacer, Standing


class _Follower:
    """What ``stages`` reads of a ``producers.publish.Follower``."""

    def __init__(self, accepted, standings):
        self.accepted = accepted
        self.standings = standings


def test_the_latency_is_cut_where_each_stage_wrote_its_record():
    # perf_counter 10.000 = wall 1000.000 (clock 990); result r1 sent at 10.000, on tournament-log
    # (offset 7) at wall 1000.004, in the standings (log position 8) sent at 1000.015, seen at 10.018
    follower = _Follower({"T/r1/t1/b1": (0, 7, 10.005)},
                         {("T", 1): [Standing({}, 0, 5, 10.010), Standing({}, 0, 8, 10.018), Standing({}, 0, 9, 10.030)]})
    run = Run(follower, {"T/r1/t1/b1": (10.0, 1)}, {"T/r1/t1/b1": (7, 1000.004)},
              {("T", 1): [(5, 1000.008), (8, 1000.015), (9, 1000.025)]}, 990.0, [])
    split = stages(run, "T", {"T/r1/t1/b1"})
    assert {k: [round(v * 1000, 3) for v in vs] for k, vs in split.items()} == {
        "total": [18.0], "processors": [4.0], "worker": [11.0], "subscriber": [3.0]}
    assert stages(run, "T", set()) == {"total": [], "processors": [], "worker": [], "subscriber": []}


def test_cpu_per_result_is_taken_between_the_samples_nearest_the_span_and_scaled_to_it():
    samples = [(0.0, {"processors": 1.0, "worker": 2.0}), (1.0, {"processors": 1.2, "worker": 2.1}),
               (2.0, {"processors": 1.4, "worker": 2.2})]
    per_result, span = cpu_per_result(samples, 0.1, 1.9, 1000)  # 1,000 results from 0.1 s to 1.9 s
    assert span == 2.0
    # 0.4 s of processors' CPU in the 2 s sampled, scaled to the 1.8 s of the span: 0.36 s / 1000
    assert round(per_result["processors"] * 1e6) == 360 and round(per_result["worker"] * 1e6) == 180
    assert cpu_line(per_result) == ("processors 360 us, worker 180 us; processors + worker 540 us (goal <= 300), "
                                    "in all 540 us (goal <= 500)")


def test_no_broker_is_found_on_a_port_nothing_listens_on():
    assert broker_pid("127.0.0.1:1") is None


def test_the_pacer_sends_no_burst_after_a_wait():
    pacer = Pacer(200.0)  # one send every 5 ms
    pacer.pace()
    time.sleep(0.05)  # the publisher waited (a round's standings): 10 sends' worth
    times = []
    for _ in range(4):
        pacer.pace()
        times.append(time.perf_counter())
    # A sleep never returns early, so the schedule (restarted at the first send after the wait)
    # puts the fourth send at least 3 intervals after the first (before: all four at once, 0 ms).
    assert times[3] - times[0] >= 0.0145, [round(t - times[0], 4) for t in times]


def test_a_run_whose_worker_rejoined_its_group_says_so(capsys):
    from bench.bench_live import warn_rejoined

    run = Run(_Follower({}, {}), {}, {}, {}, 0.0, [], rejoined=True)
    warn_rejoined(run)
    assert "hung in a rebalance" in capsys.readouterr().out
    warn_rejoined(Run(_Follower({}, {}), {}, {}, {}, 0.0, []))
    assert capsys.readouterr().out == ""
