"""Issue 32, acceptances 2 and 3: the parts of the many-tournaments load generator
(``bench/cluster_load.py``) that need no broker: the tournaments it plans, the names it makes,
when their results are entered, its percentiles, its report, and how it finds a listener's pid."""
from __future__ import annotations

import array
import os
import socket

from bench.cluster_load import FORFEIT_S, GAME_S, LoadReport, bench_names, listener_pid, percentile, plan
from deploy import topics
from producers.publish import chunks
from producers.simulator import draw_spec, simulate
from projections.replay import replay
from schemas.commands import Actor, ImportFacts
from schemas.profile import get_profile


def test_a_planned_tournament_has_8_to_16_teams_5_to_9_rounds_and_results_in_the_order_their_games_end():
    for seed in (1, 2, 3, 4):
        p = plan(seed, "unit-")
        assert p.tournament_id == f"unit-t{seed}"
        teams = [e for e in p.registration if e.type == "TeamRegistered"]
        assert 8 <= len(teams) <= 16 and 5 <= len(p.rounds) <= min(9, len(teams) - 1)
        for paired, timed in p.rounds:
            assert paired.type == "RoundPaired"
            delays = [d for d, e in timed if e.type in topics.BOARD_LEVEL]
            assert delays == sorted(delays) and all(FORFEIT_S[0] <= d <= GAME_S[1] for d in delays)
            # A withdrawal for the next round goes with the round's last result.
            assert all(d == timed[-1][0] for d, e in timed if e.type not in topics.BOARD_LEVEL)
        sent = p.registration + [e for paired, timed in p.rounds for e in [paired, *(e for _, e in timed)]]
        assert p.events == len(sent) and p.results == sum(1 for e in sent if e.type in topics.BOARD_LEVEL)
        assert p.expected == replay(sent).rounds[len(p.rounds)].digest


def test_the_order_within_a_round_does_not_change_the_standings_and_a_plan_is_reproducible():
    spec = draw_spec(7, get_profile("olympiad-2022"), teams=(8, 16), rounds=(5, 9), tournament_id="unit-t7")
    generated = replay(bench_names(simulate(spec).events, 7))
    p = plan(7, "unit-")
    assert p.expected == generated.rounds[max(generated.rounds)].digest
    assert plan(7, "unit-") == p


def test_the_names_are_made_by_the_bench_and_distinct_within_a_tournament():
    events = bench_names(simulate(draw_spec(5, get_profile("olympiad-2022"), teams=(12, 12), rounds=(5, 5), tournament_id="n")).events, 5)
    teams = [e for e in events if e.type == "TeamRegistered"]
    names = [t.name for t in teams]
    players = [p.name for t in teams for p in t.players]
    assert len(set(names)) == 12 and len(set(players)) == len(players) == 60
    assert not any(n.startswith("Team ") for n in names) and not any(" player " in n for n in players)
    assert events[0].name.endswith(" Open 5")


def test_the_new_names_sort_as_the_simulators_so_its_pairings_stay_legal():
    # Names break ties in the seeding (team strength, then name): seed 866 has such a tie, and
    # with its teams renamed in another order the processors refused its round-1 pairing (R-B1).
    from processors.deciders import handle
    from processors.tournament import TournamentState

    original = simulate(draw_spec(866, get_profile("olympiad-2022"), teams=(8, 16), rounds=(5, 9), tournament_id="n")).events
    renamed = bench_names(original, 866)
    old = [e.name for e in original if e.type == "TeamRegistered"]
    new = [e.name for e in renamed if e.type == "TeamRegistered"]
    assert sorted(range(len(old)), key=old.__getitem__) == sorted(range(len(new)), key=new.__getitem__)
    state = TournamentState()
    for i, chunk in enumerate(chunks(renamed)):  # as the processors judge them: nothing refused
        handle(state, ImportFacts(tournament_id="n", actor=Actor(role="importer", id="load"), source="load", facts=tuple(chunk),
                                  command_id=f"c{i}"))
    assert state.round_complete(max(e.round for e in renamed if e.type == "RoundPaired"))


def test_percentile_is_the_nearest_rank():
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile(array.array("d", range(1, 101)), 0.99) == 99.0
    assert percentile(array.array("d"), 0.5) != percentile(array.array("d"), 0.5)  # nan: nothing measured


def test_the_report_prints_every_figure_and_fails_on_any_loss():
    report = LoadReport(
        tournaments=2, finished=2, events=400, board_results=300, wall_s=10.0,
        cpu_s={"processors": 0.3, "workers": 0.15, "broker": 0.06, "load generator": 0.09}, kills=[],
        latencies_s=array.array("d", [0.02] * 99 + [0.5]), to_log_s=array.array("d", [0.01] * 100), digests_equal=2, different=[],
        lost_log=0, doubled_log=0, lost_db=0, doubled_db=0, dead_letters=0, refused=0, peak_rate=45.0, max_playing=2,
        rss_mb=90.0, generate_s=0.003, check_s=0.0015, load_average=(1.0, 1.5, 2.0))
    lines = report.lines()
    assert lines[0] == ("2 tournaments (2 finished), 400 events, 300 board results in 10 s: 30 board results/s (busiest 10 s: 45/s); "
                        "load average 1.00 1.50 2.00")
    assert lines[1] == ("CPU per board result: processors 1,000 us, workers 500 us, broker 200 us, load generator 300 us; "
                        "in all 2,000 us (1 s CPU = 0.06 cores)")
    assert lines[3] == "latency, result sent -> standings including it: p50 20 ms, p99 20 ms, max 500 ms (100 results)"
    assert "digests equal (live standings = replay of its log = replay as generated): 2 of 2" in lines
    assert report.ok
    report.doubled_db = 1
    assert not report.ok


def test_the_listener_of_a_port_is_found_by_its_socket():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert listener_pid(s.getsockname()[1]) == os.getpid()
