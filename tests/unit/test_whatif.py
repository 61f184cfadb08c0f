"""Issue 31: the what-if, what a team needs and the chances, on real data and on small tournaments.

Acceptance 1 (the function; every door with the store's event count and file hash:
``tests/e2e/test_whatif_doors.py``): Samarkand 2026 Open after round 10 with all 103 round-11
matches set to their real scores is the replay's standings after round 11, digest for digest;
with none set it is the round-10 table and the round-11 pairing as published. Acceptance 2: what
a team needs, checked by hand on eight teams in the last round, a case decided by tie-breaks
among them. Acceptance 3: the chances are reproducible from their seed, certain where the last
round cannot change the leader, and every place's chances add up to 100 %.
"""
from __future__ import annotations

import json
from decimal import Decimal

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from olympiad.web.preload import through_round
from processors.tournament import RuleViolation
from producers.simulator import new_tournament, publish, record_match
from producers.sources import load_log
from projections.eventlog import write_log
from projections.history import build_history
from projections.match_scores import reachable, score_codes
from projections.pairing import propose_pairing
from projections.replay import replay
from projections.views.whatif import whatif_answer
from projections.whatif import settings_of, what_if
from projections.whatif_chances import chances
from projections.whatif_needs import team_needs
from schemas.points import fmt_points
from schemas.profile import PROFILES, with_rounds
from tests.unit.test_pairing_helpers import play_round
from tests.web_app import embedded_app

TID = "samarkand-2026-open"


@pytest.fixture(scope="module")
def samarkand():
    """``(the whole replay, the replay of the log after round 10)``."""
    events = load_log(TID)
    return replay(events), replay(through_round(events, 10))


def real_scores(state, rnd: int) -> list[str]:
    return [f"{rnd}/{t.table}={fmt_points(state.match(rnd, t.table).home_gp)}-{fmt_points(state.match(rnd, t.table).away_gp)}"
            for t in state.rounds[rnd].tables]


def test_every_real_score_set_gives_the_replays_standings_after_round_11(samarkand):
    full, after_10 = samarkand
    state = after_10.state
    before = (len(state.applied), dict(state.results))
    texts = real_scores(full.state, 11)
    assert len(texts) == 103
    result = what_if(state, settings_of(state, texts), after_10.rounds)
    assert result.board.label == "Standings after round 11"
    assert result.board.standings.digest == full.rounds[11].digest
    assert result.board.standings.canonical == full.rounds[11].canonical
    assert result.next_round is None and result.pairing is None  # the last round: nothing to pair
    assert (len(state.applied), dict(state.results)) == before  # the real state is not touched


def test_nothing_set_is_the_round_10_table_and_the_round_11_pairing(samarkand):
    full, after_10 = samarkand
    answer = whatif_answer(after_10.state, after_10.rounds)
    assert answer["hypothetical"] is True and answer["settings"] == []
    assert answer["standings"]["label"] == "What if: Standings after round 10"
    assert answer["standings"]["digest"] == full.rounds[10].digest
    published = full.state.rounds[11]
    shown = answer["round_in_play"]
    assert shown["round"] == 11 and [(m["table"], m["home"]["team_id"], m["away"]["team_id"]) for m in shown["tables"]] == [
        (t.table, t.home, t.away) for t in published.tables]
    assert not any(m["hypothetical"] or m["boards_in"] for m in shown["tables"])
    assert answer["next_pairing"] is None


def test_one_set_match_is_provisional_and_marked(samarkand):
    _, after_10 = samarkand
    answer = whatif_answer(after_10.state, after_10.rounds, ["11/1=2-2"])
    assert answer["standings"]["label"] == "What if: provisional standings, round 11: 1 of 103 matches"
    table_1 = answer["round_in_play"]["tables"][0]
    assert table_1["hypothetical"] and (table_1["home_gp"], table_1["away_gp"]) == ("2", "2")
    assert [b["result"] for b in table_1["boards"]] == ["1-0", "0-1", "0-1", "1-0"]  # home wins boards 1-2 (R-D4)
    assert all(b["hypothetical"] for b in table_1["boards"])
    assert answer["settings"] == [{"round": 11, "table": 1, "home_gp": "2", "away_gp": "2", "boards": [
        {"board": 1, "result": "1-0"}, {"board": 2, "result": "0-1"}, {"board": 3, "result": "0-1"}, {"board": 4, "result": "1-0"}]}]


def test_a_complete_round_on_the_branch_is_paired_by_the_engine(samarkand):
    full, _ = samarkand
    after_9 = replay(through_round(load_log(TID), 9))
    result = what_if(after_9.state, settings_of(after_9.state, real_scores(full.state, 10)), after_9.rounds)
    assert result.next_round == 11 and len(result.pairing.tables) == 103
    assert result.board.standings.complete and result.board.label == "Standings after round 10"


@pytest.mark.parametrize("text, field, rule", [
    ("11-1=2-2", "set", "a what-if setting"),
    ("10/1=2-2", "round", "a what-if sets the round in play"),
    ("11/104=2-2", "table", "a what-if sets the round in play"),
    ("11/1=2-1", "result", "a match score sums to the boards"),
    ("11/1=x-y", "result", "a match score sums to the boards"),
    ("11/1=1-0,0-1,1-0", "result", "result codes"),
    ("11/1=1-0,0-1,1-0,2-0", "result", "result codes"),
])
def test_a_bad_setting_is_refused_naming_field_and_rule(samarkand, text, field, rule):
    _, after_10 = samarkand
    with pytest.raises(RuleViolation) as refused:
        settings_of(after_10.state, [text])
    assert (refused.value.field, refused.value.rule) == (field, rule)


def eight_teams():
    """Eight teams, three rounds (2022 profile: MP, OSB-C1, GP, BH-C1), two played and the last
    paired: T1-T4, T6-T3, T2-T7, T8-T5. After round 2: T4 4 MP; T1, T3, T6 3; T2, T7, T8 1; T5 0.
    Of round 3, T2-T7 is in (2-2: 2 MP each) and T8-T5 (3-1: T8 3 MP); T1-T4 and T6-T3 are pending."""
    profile = with_rounds(PROFILES["olympiad-2022"], 3)
    state, _ = new_tournament(profile, [2500 - 30 * i for i in range(8)], "cup")
    play_round(state, profile, 1, home_scores={("T1", "T5"): 3, ("T6", "T2"): 2, ("T3", "T7"): 2.5, ("T8", "T4"): 1})
    play_round(state, profile, 2, home_scores={("T3", "T1"): 2, ("T4", "T2"): 2.5, ("T5", "T6"): 1, ("T7", "T8"): 2})
    pairing = propose_pairing(build_history(state, 2), profile, 3)
    assert [(t.home, t.away) for t in pairing.tables] == [("T1", "T4"), ("T6", "T3"), ("T2", "T7"), ("T8", "T5")]
    publish(state, pairing)
    record_match(state, 3, 3, 2)
    record_match(state, 3, 4, 3)
    return state


def test_what_t1_needs_checked_by_hand():
    """T1 (3 MP) meets the leader T4 (4 MP); the only other open match is T6-T3 (3 MP each), whose
    nine scores are the outcomes. By hand:

    - a win: T1 5 MP, T4 4; T6-T3 drawn (1 outcome of 9) leaves T1 alone on 5, first by MP; a
      decisive T6-T3 (8 of 9) puts its winner on 5 MP too: the tie-breaks decide first place
      (8 outcomes by tie-breaks). A medal is certain by MP: only that winner can pass T1.
    - a draw: T4 5 MP, T1 4: first place is ruled out by MP. A decisive T6-T3 gives its winner 5
      and its loser 3: T1 third by MP. T6-T3 drawn: T1, T3, T6 all on 4 MP for places 2-4, the
      tie-breaks decide (1 outcome): OSB-C1, cut-1 dropping the opponent with the fewest MP (T5,
      0 MP, for T1 and T6; T7, 2 MP, for T3): T1 4 x 2 (T3) + 5 x 2 (T4) = 18, T3 4 x 2 (T1) +
      4 x 2 (T6) = 16, T6 2 x 2 (T2) + 4 x 2 (T3) = 12: T1 second, the medal is secured.
    - a loss: T4 6 MP, T1 3: first ruled out by MP. T6-T3 drawn: T6, T3 4 MP, T1 fourth at
      best, out by MP. Decisive (8 outcomes): T1, the loser and T8 all on 3 MP, the tie-breaks
      decide third place. At 0-4 with T6 beating T3 4-0, OSB-C1: T8 6 x 1 (T4) + 2 x 2 (T7) = 10
      (T5 cut), T1 3 x 2 (T3) + 6 x 0 (T4) = 6 (T5 cut), T3 3 x 2 (T1) + 5 x 0 (T6) = 6 (T7 cut);
      then GP: T1 5 > T3 4.5. T8 third, T1 fourth: out.
    """
    state = eight_teams()
    needs = team_needs(state, "T1", (1, 3))
    assert (needs.round, needs.final, needs.table, needs.opponent) == (3, True, 1, "T4")
    assert (needs.outcomes, needs.sampled) == (9, False)
    by_score = {r.own_gp: r for r in needs.results}
    assert sorted(by_score) == [Decimal(h) / 2 for h in range(9)]
    for gp in ("4", "3.5", "3", "2.5"):  # a win
        first, medal = by_score[Decimal(gp)].bands
        assert by_score[Decimal(gp)].mp == 2
        assert first.by_tiebreaks == 8 and first.inside >= 1 and first.outcomes == 9
        assert (medal.verdict, medal.inside, medal.by_tiebreaks) == ("secured", 9, 0)
    assert [by_score[Decimal(gp)].bands[0].inside for gp in ("4", "3.5", "3", "2.5")] == [9, 9, 8, 6]
    first, medal = by_score[Decimal(2)].bands  # a draw
    assert (first.verdict, first.by_tiebreaks) == ("ruled out", 0)
    assert (medal.verdict, medal.inside, medal.by_tiebreaks) == ("secured", 9, 1)
    for gp in ("1.5", "1", "0.5", "0"):  # a loss
        first, medal = by_score[Decimal(gp)].bands
        assert (first.verdict, first.by_tiebreaks) == ("ruled out", 0)
        assert medal.by_tiebreaks == 8 and medal.inside <= 8
    assert by_score[Decimal(0)].bands[1].verdict == "ruled out"

    # The two tie-break cases of the docstring, on their what-if branches: values as computed by hand.
    rows = what_if(state, settings_of(state, ["3/1=4-0", "3/2=0-4"])).board.standings.document["rows"]
    assert [(r["team_id"], r["mp"], r["tiebreaks"]["OSB-C1"]) for r in rows[:2]] == [("T1", 5, "26"), ("T3", 5, "22")]
    rows = what_if(state, settings_of(state, ["3/1=2-2", "3/2=2-2"])).board.standings.document["rows"]
    assert [(r["team_id"], r["mp"], r["tiebreaks"]["OSB-C1"]) for r in rows[1:4]] == [("T1", 4, "18"), ("T3", 4, "16"), ("T6", 4, "12")]
    rows = what_if(state, settings_of(state, ["3/1=0-4", "3/2=4-0"])).board.standings.document["rows"]
    assert [(r["team_id"], r["mp"], r["tiebreaks"]["OSB-C1"], r["gp"]) for r in rows[2:5]] == [
        ("T8", 3, "10", "6"), ("T1", 3, "6", "5"), ("T3", 3, "6", "4.5")]


def test_needs_in_words_say_where_match_points_decide_and_where_tie_breaks_do():
    state = eight_teams()
    answer = whatif_answer(state, needs="Team 0001", bands=(1, 3))
    first, medal = answer["needs"]["lines"]
    assert first.startswith("Team 0001, first place (final place; all 9 outcomes of the other matches): "
                            "4-0: secured (tie-breaks decide 88.9 %)")
    assert "2-2: ruled out (by match points)" in first
    assert "2-2: secured (tie-breaks decide 11.1 %)" in medal and "3-1: secured (by match points)" in medal
    assert "0-4: ruled out (tie-breaks decide 88.9 %)" in medal


def test_needs_take_the_settings_and_sample_a_large_space():
    state = eight_teams()
    fixed = team_needs(state, "T1", (1,), settings_of(state, ["3/2=2-2"]))  # T6-T3 set: one outcome left
    assert fixed.outcomes == 1 and [r.bands[0].inside for r in fixed.results] == [1, 1, 1, 1, 0, 0, 0, 0, 0]
    sampled = team_needs(state, "T1", (1,), exact_limit=5, samples=7, seed=3)
    assert (sampled.sampled, sampled.outcomes, sampled.seed) == (True, 7, 3)
    assert team_needs(state, "T1", (1,), exact_limit=5, samples=7, seed=3) == sampled
    with pytest.raises(RuleViolation) as refused:
        team_needs(state, "T1", (9,))
    assert refused.value.field == "band"


def test_match_scores_are_completed_around_the_recorded_boards():
    assert score_codes("2.5", 4) == {1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1-0"}
    assert score_codes(1, 4, {1: "0-1"}) == {1: "0-1", 2: "0-1", 3: "0-1", 4: "1-0"}
    assert reachable(4, {1: "1-0", 2: "0-1"}) == [Decimal(x) / 2 for x in range(4, 9)]
    with pytest.raises(ValueError, match="reachable: 2, 2.5, 3, 3.5, 4"):
        score_codes("1.5", 4, {1: "1-0", 2: "0-1"})


def leader_out_of_reach():
    """Eight teams, four rounds: T1 wins its first three matches, every other match is drawn:
    T1 6 MP, nobody else more than 3, so the last round cannot change the leader."""
    profile = with_rounds(PROFILES["olympiad-2022"], 4)
    state, _ = new_tournament(profile, [2400 - 40 * i for i in range(8)], "lead")
    for rnd in (1, 2, 3):
        pairing = propose_pairing(build_history(state, rnd - 1), profile, rnd)
        publish(state, pairing)
        for t in pairing.tables:
            record_match(state, rnd, t.table, 3 if t.home == "T1" else 1 if t.away == "T1" else 2)
    publish(state, propose_pairing(build_history(state, 3), profile, 4))
    return state


def test_chances_are_certain_where_the_last_round_cannot_change_the_leader():
    state = leader_out_of_reach()
    odds = chances(state, 50, seed=5)
    assert (odds.round, odds.last_round, odds.counted) == (4, 4, 50)
    assert odds.chance("T1", 1) == 1.0 and odds.error("T1", 1) == 0.0
    assert all(odds.chance(t, 1) == 0.0 for t in state.teams if t != "T1")


def test_chances_are_reproducible_and_every_place_adds_up_to_100_percent():
    state = eight_teams()
    odds = chances(state, 200, seed=11)
    assert chances(state, 200, seed=11) == odds
    assert chances(state, 200, seed=12) != odds
    n = len(state.teams)
    assert [sum(odds.places[t][k] for t in state.teams) for k in range(n)] == [200] * n
    assert all(sum(odds.places[t]) == 200 for t in state.teams)
    assert sum(odds.chance(t, 1) for t in state.teams) == pytest.approx(1.0)
    assert sum(odds.chance(t, 3) for t in state.teams) == pytest.approx(3.0)
    assert odds.chance("T5", 3) == 0.0  # 0 MP and 3 GP at most: never a medal
    with pytest.raises(RuleViolation) as refused:
        chances(state, 0)
    assert (refused.value.field, refused.value.rule) == ("chances", "at most 2,000 simulations")


def test_the_cli_and_the_api_answer_what_the_function_answers(tmp_path):
    """The eight teams as a log file: ``olympiad whatif`` (text and JSON) and ``GET .../whatif``
    give the application function's answer, needs and chances included."""
    state = eight_teams()
    events = list(state.applied.values())
    log = tmp_path / "cup.jsonl"
    write_log(log, events)
    want = whatif_answer(state, None, ["3/2=2-2"], needs="T1", bands=(1, 3), simulations=40, seed=2)
    assert want["next_pairing"] is None and want["standings"]["provisional"]
    assert [round(sum(t["places"][k] for t in want["chances"]["teams"])) for k in range(8)] == [40] * 8

    runner = CliRunner()
    args = ["whatif", str(log), "--set", "3/2=2-2", "--needs", "T1", "--chances", "40", "--seed", "2"]
    out = runner.invoke(cli, [*args, "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == json.loads(json.dumps(want))
    text = runner.invoke(cli, args).stdout
    assert "cup: hypothetical: nothing is recorded" in text
    assert "  set: round 3 table 2: 2-2 (1-0, 0-1, 0-1, 1-0)" in text
    assert "What if: provisional standings, round 3: 3 of 4 matches" in text
    assert "Team 0001, first place (final place; all 1 outcomes of the other matches): 4-0: secured (by match points)" in text
    assert "Chances after round 3: 40 simulations (seed 2)" in text

    app, _, _ = embedded_app(events)
    with TestClient(app) as web:
        answer = web.get("/api/tournaments/cup/whatif", params={"set": "3/2=2-2", "needs": "T1", "chances": 40, "seed": 2})
        assert answer.status_code == 200 and answer.json() == json.loads(json.dumps(want))
        refused = web.get("/api/tournaments/cup/whatif", params={"set": "3/3=2-2"})
        assert refused.status_code == 422 and refused.json()["rule"] == "a what-if sets pending matches"
