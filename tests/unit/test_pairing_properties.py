"""Property tests (issue 3, acceptance 3): simulated tournaments of 9 to 250 teams x 11 rounds,
random results, forfeits, absences and withdrawals, both profiles."""
from __future__ import annotations

import itertools

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from producers.simulator import SimulationSpec, simulate
from projections.history import build_history
from projections.pairing.systems import check_pairing
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022

PROFILES = st.sampled_from([OLYMPIAD_2008, OLYMPIAD_2022])
RATES = st.fixed_dictionaries({
    "draw_rate": st.sampled_from([0.0, 0.35, 0.8]),
    "board_forfeit_rate": st.sampled_from([0.0, 0.02]),
    "match_forfeit_rate": st.sampled_from([0.0, 0.01, 0.05]),
    "absence_rate": st.sampled_from([0.0, 0.02, 0.05]),
    "withdrawal_rate": st.sampled_from([0.0, 0.03, 0.1]),
})


def _assert_tournament(sim, profile) -> None:
    state = sim.state
    final = build_history(state, max(state.rounds, default=0))
    met: set[frozenset[str]] = set()
    for r, per in final.rounds.items():
        published = state.rounds[r]
        # every team to pair is paired exactly once (the RoundPaired event validates "at most once")
        placed = {t for table in published.tables for t in (table.home, table.away)} | ({published.bye} - {None})
        present = {t for t in state.teams if t not in published.absent and not (t in state.withdrawn and state.withdrawn[t] <= r)}
        assert placed == present, f"round {r}: paired {sorted(placed ^ present)} wrongly"
        # no played match repeated (R-P1)
        for tr in per.values():
            if tr.met and tr.team < tr.opponent:
                pair = frozenset((tr.team, tr.opponent))
                assert pair not in met, f"round {r}: {sorted(pair)} meet again"
                met.add(pair)
        # no second bye, no bye after a default win (R-B1)
        if published.bye:
            earlier = [final.rounds[k][published.bye].kind for k in range(1, r)]
            assert "bye" not in earlier and "forfeit-win" not in earlier, f"round {r}: bye to {published.bye} ({earlier})"
        # score differences as small as the rules allow, colour limits where they must hold
        violations = check_pairing(build_history(state, r - 1), profile, r, published.tables, published.bye, published.absent)
        assert violations == [], f"round {r}: {[v.render() for v in violations]}"
    if sim.stopped:
        _assert_really_unpairable(sim, profile)


def _assert_really_unpairable(sim, profile) -> None:
    """The engine gave up on a round: check with plain networkx that no legal pairing exists."""
    state = sim.state
    r = max(state.rounds) + 1
    history = build_history(state, r - 1)
    teams = [t for t in sorted(state.teams) if t not in sim.stopped_absent and not (t in state.withdrawn and state.withdrawn[t] <= r)]
    met = {frozenset((tr.team, tr.opponent)) for per in history.rounds.values() for tr in per.values() if tr.met}

    def perfect(group: list[str]) -> bool:
        graph = nx.Graph()
        graph.add_nodes_from(group)
        graph.add_edges_from((a, b) for a, b in itertools.combinations(group, 2) if frozenset((a, b)) not in met)
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(group)

    if len(teams) % 2 == 0:
        assert not perfect(teams), sim.stopped
        return
    for bye in teams:
        kinds = [history.rounds[k][bye].kind for k in history.rounds]
        late = profile.bye_ineligible_late_entry and kinds and kinds[0] in ("absent", "not-entered")
        if "bye" in kinds or "forfeit-win" in kinds or late:
            continue
        assert not perfect([t for t in teams if t != bye]), sim.stopped


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=st.integers(9, 40), seed=st.integers(0, 10**6), profile=PROFILES, rates=RATES)
def test_small_fields(teams: int, seed: int, profile, rates) -> None:
    sim = simulate(SimulationSpec(teams=teams, rounds=11, seed=seed, profile=profile, **rates))
    _assert_tournament(sim, profile)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(teams=st.integers(41, 250), seed=st.integers(0, 10**6), profile=PROFILES, rates=RATES)
def test_large_fields(teams: int, seed: int, profile, rates) -> None:
    sim = simulate(SimulationSpec(teams=teams, rounds=11, seed=seed, profile=profile, **rates))
    assert not sim.stopped, sim.stopped
    _assert_tournament(sim, profile)
