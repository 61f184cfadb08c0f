"""Issue 10, acceptance 2: each lifecycle rule refuses through the CLI, naming the field and the
rule, and nothing is written."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from projections.store import EventStore
from tests import tournament_script as script

TID = "refusal-cup"


@pytest.fixture
def cup(tmp_path):
    """An 8-team tournament with a nomination deadline, round 1 published and one board entered:
    ``(run, store)``, ``run(*argv)`` -> (exit status, output)."""
    db = f"sqlite:///{tmp_path / 'cup.sqlite'}"
    runner = CliRunner()

    def run(*argv, clock="2026-12-01T09:00:00+00:00"):
        result = runner.invoke(app, [str(a) for a in argv], env={"OLYMPIAD_CLOCK": clock, "OLYMPIAD_DB": db, "COLUMNS": "300"})
        return result.exit_code, " ".join(result.output.split())

    csv = script.write_teams_csv(tmp_path / "teams.csv")
    keep = [line for line in csv.read_text().splitlines() if not line.startswith("T") or int(line[1:3]) <= 8]
    csv.write_text("\n".join(keep) + "\n")  # the first 8 teams
    for argv in (("new", TID, "--name", "Refusal Cup", "--rounds", 5, "--nomination-deadline", "2026-12-01T12:00:00+00:00"),
                 ("team", "import", TID, csv), ("round", "pair", TID, 1), ("round", "publish", TID, 1)):
        code, out = run(*argv)
        assert code == 0, out
    store = EventStore(db)
    t1 = store.state.rounds[1].tables[0]
    assert run("enter", TID, 1, 1, 1, "1-0")[0] == 0
    return run, store, t1


def refused(run, store, *argv, field, rule, **kw):
    before = len(store.events())
    code, out = run(*argv, **kw)
    assert code == 2, out
    assert f"{field}:" in out and f"[rule: {rule}]" in out, out
    assert len(store.events()) == before
    return out


PLAYERS = [x for b in range(1, 6) for x in ("--player", f"New {b};;;{2000 - b}")]


def test_a_roster_change_after_the_nomination_deadline(cup, tmp_path):
    run, store, _ = cup
    # after round 1 is published, and (on a fresh tournament) after the deadline's time
    refused(run, store, "team", "roster", TID, "T01", *PLAYERS, field="players", rule="R-D1 nomination deadline")
    db = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    fresh = CliRunner().invoke(app, ["new", "fresh-cup", "--name", "Fresh", "--nomination-deadline", "2026-12-01T12:00:00Z"],
                               env={"OLYMPIAD_DB": db, "OLYMPIAD_CLOCK": "2026-12-01T09:00:00Z"})
    assert fresh.exit_code == 0
    env = {"OLYMPIAD_DB": db, "OLYMPIAD_CLOCK": "2026-12-01T11:00:00Z"}
    assert CliRunner().invoke(app, ["team", "add", "fresh-cup", "A", "--name", "A", *PLAYERS], env=env).exit_code == 0
    late = CliRunner().invoke(app, ["team", "roster", "fresh-cup", "A", *PLAYERS[:8], "--player", "Other;;;1900"],
                              env={**env, "OLYMPIAD_CLOCK": "2026-12-01T12:30:00Z"})
    assert late.exit_code == 2 and "the nomination deadline 2026-12-01T12:00:00+00:00 has passed" in late.output
    assert "[rule: R-D1 nomination deadline]" in " ".join(late.output.split())
    # the same roster again after the deadline: refused for the deadline, not as a change of nothing
    same = CliRunner().invoke(app, ["team", "roster", "fresh-cup", "A", *PLAYERS], env={**env, "OLYMPIAD_CLOCK": "2026-12-01T12:30:00Z"})
    assert same.exit_code == 2 and "[rule: R-D1 nomination deadline]" in " ".join(same.output.split()), same.output


def test_a_lineup_with_a_player_not_nominated_or_out_of_order(cup):
    run, store, _ = cup
    refused(run, store, "lineup", TID, 2, "T01", 1, 2, 3, 6, field="boards.3", rule="R-D1 only nominated players")
    refused(run, store, "lineup", TID, 2, "T01", 2, 1, 3, 4, field="boards", rule="R-D1 fixed board order")
    refused(run, store, "lineup", TID, 2, "T01", 1, 2, 3, field="boards", rule="R-D1 4 boards")


def test_a_second_lineup_after_the_round_is_published(cup):
    run, store, _ = cup
    refused(run, store, "lineup", TID, 1, "T01", 1, 2, 3, 5, field="round", rule="line-ups before the round is published")


def test_pairing_a_round_before_the_previous_one_is_complete(cup):
    run, store, _ = cup
    refused(run, store, "round", "pair", TID, 2, field="round", rule="pair a round when the previous round is complete")


def test_publishing_an_amended_pairing_that_breaks_an_absolute_rule_needs_a_reason(cup):
    run, store, t1 = cup
    for table in store.state.rounds[1].tables:
        assert run("results", TID, 1, table.table, *(["-"] if table.table == 1 else []), "1-0", "0-1", "1/2-1/2",
                   *(["1-0"] if table.table != 1 else []))[0] == 0
    assert run("round", "pair", TID, 2)[0] == 0
    proposal = store.refresh().proposals[2]
    home, away = t1.home, t1.away  # they met in round 1
    table = next(t for t in proposal.tables if home in (t.home, t.away))
    opponent = table.away if table.home == home else table.home
    assert opponent != away
    code, out = run("round", "amend", TID, 2, "--swap-teams", f"{opponent},{away}", "--reason", "the captains asked")
    assert code == 0, out
    assert "checker: R-P1 repeat opponent: " in out and "they met in round 1" in out
    refused(run, store, "round", "publish", TID, 2, field="override_reason",
            rule="an absolute pairing rule is broken only with a reason")
    code, out = run("round", "publish", TID, 2, "--override-reason", "the organiser's decision, minutes of 1 Dec")
    assert code == 0, out
    pairing = store.refresh().rounds[2]
    assert any({t.home, t.away} == {home, away} for t in pairing.tables)
    assert "absolute rules overridden: the organiser's decision" in pairing.note


def test_a_correction_with_a_terminals_token(cup):
    run, store, _ = cup
    refused(run, store, "correct", TID, 1, 1, 1, "0-1", "--reason", "scoresheet", "--terminal", "t1",
            field="actor", rule="the chief arbiter's command")


def test_a_result_for_a_round_not_yet_published(cup):
    run, store, _ = cup
    refused(run, store, "enter", TID, 2, 1, 1, "1-0", field="round", rule="results only for paired rounds")
    refused(run, store, "enter", TID, 2, 1, 1, "1-0", "--terminal", "t1", field="round",
            rule="a terminal enters the current round")


def test_closing_names_the_missing_results_and_pairing_again_undoes_an_amendment(cup):
    """From a fresh user's trial: what is missing is named; ``round pair`` after an amendment goes
    back to the engine's proposal; a withdrawn team's line-up is refused."""
    run, store, t1 = cup
    out = refused(run, store, "round", "close", TID, 1, field="round", rule="close a round when every result is in")
    assert "still misses 15 result(s): table 1 board 2, table 1 board 3" in out
    for table in store.state.rounds[1].tables:
        codes = ["-", "0-1", "1/2-1/2", "1-0"] if table.table == 1 else ["1-0", "0-1", "1/2-1/2", "1-0"]
        assert run("results", TID, 1, table.table, *codes)[0] == 0
    assert run("round", "pair", TID, 2)[0] == 0
    engine = store.refresh().proposals[2]
    a, b = engine.tables[0].home, engine.tables[1].home
    assert run("round", "amend", TID, 2, "--swap-teams", f"{a},{b}", "--reason", "test")[0] == 0
    assert store.refresh().proposals[2].type == "PairingAmended"
    code, out = run("round", "pair", TID, 2)
    assert code == 0 and f"recorded: {TID}/r2/proposal/2" in out
    again = store.refresh().proposals[2]
    assert (again.type, again.tables) == ("PairingProposed", engine.tables)
    assert run("team", "withdraw", TID, "T08", "--reason", "left", "--from-round", 3)[0] == 0
    refused(run, store, "lineup", TID, 3, "T08", 1, 2, 3, 4, field="team_id", rule="withdrawn teams are not paired")
    refused(run, store, "round", "amend", TID, 1, "--swap-teams", f"{a},{b}", "--reason", "late", field="round",
            rule="amend a pairing before it is published")
