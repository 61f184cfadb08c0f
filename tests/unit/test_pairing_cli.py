"""``olympiad simulate``, ``olympiad pair`` and ``olympiad check`` end to end on a simulated log."""
from __future__ import annotations

from typer.testing import CliRunner

from olympiad.cli import app
from projections.views.pairing import words_first
from schemas.events import PairingProposed, parse_event

runner = CliRunner()


def test_simulate_pair_check(tmp_path) -> None:
    log = tmp_path / "sim.jsonl.gz"
    result = runner.invoke(app, ["simulate", "--teams", "12", "--rounds", "4", "--seed", "7", "--profile", "olympiad-2008", "--out", str(log)])
    assert result.exit_code == 0, result.output
    assert "4 of 4 rounds" in result.output
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 0
    paired = runner.invoke(app, ["pair", str(log), "--round", "3", "--explain", "T1", "--explain", "T5", "--compare"])
    assert paired.exit_code == 0, paired.output
    assert "why Team 0001 (T1):" in paired.output and "6/6 pairs identical (100.0 %)" in paired.output
    assert "why Team 0005 (T5):" in paired.output  # every team asked for, not only the last (issue 30)
    # the 2008 profile's explanation cites the 2008 Olympiad pairing rules, not D.02 2022
    assert "; 2008 Olympiad pairing rules]" in paired.output and "D.02" not in paired.output
    checked = runner.invoke(app, ["check", str(log), "--round", "4"])
    assert checked.exit_code == 0 and "no rule violated" in checked.output, checked.output
    as_json = runner.invoke(app, ["pair", str(log), "--round", "2", "--json"])
    assert isinstance(parse_event(as_json.stdout), PairingProposed)


def test_pair_refuses_an_unknown_team_and_a_missing_round(tmp_path) -> None:
    log = tmp_path / "sim.jsonl"
    assert runner.invoke(app, ["simulate", "--teams", "9", "--rounds", "2", "--out", str(log)]).exit_code == 0
    assert runner.invoke(app, ["pair", str(log), "--round", "2", "--explain", "NOPE"]).exit_code == 2
    assert runner.invoke(app, ["pair", str(log), "--round", "5"]).exit_code == 2
    assert runner.invoke(app, ["check", str(log), "--round", "3"]).exit_code == 2


def test_simulate_draws_a_swiss_team_tournament_from_the_seed_and_check_accepts_it(tmp_path) -> None:
    """Without --teams the tournament is drawn from the seed (draw_spec): the same seed, the same log;
    ``olympiad check`` validates every round under C.04.6."""
    logs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for log in logs:
        result = runner.invoke(app, ["simulate", "--seed", "11", "--rounds", "5", "--profile", "swiss-team-2026-typeb", "--out", str(log)])
        assert result.exit_code == 0, result.output
        text = " ".join(result.output.split())  # rich wraps long lines
        assert "drawn from seed 11" in text and "5 of 5 rounds under swiss-team-2026-typeb" in text
    assert logs[0].read_text() == logs[1].read_text()
    for rnd in range(1, 6):
        checked = runner.invoke(app, ["check", str(logs[0]), "--round", str(rnd)])
        assert checked.exit_code == 0 and "no rule violated under swiss-team-2026-typeb" in " ".join(checked.output.split()), checked.output


def test_a_trace_line_reads_words_first_and_its_rule_ids_after():
    assert words_first("[spec R-B1, D.02 2022 art. 4] bye: KIR (lowest-ranked eligible team, 0 MP)") == \
        "bye: KIR (lowest-ranked eligible team, 0 MP) [spec R-B1, D.02 2022 art. 4]"
    assert words_first("no rule cited here") == "no rule cited here"
