"""Issue 10: teams imported from CSV and from a TRF-2026 file's team records (310 with 001)."""
from __future__ import annotations

from typer.testing import CliRunner

from olympiad.cli import app
from producers.sources import load_source
from projections.store import EventStore


def _run(db, *argv):
    result = CliRunner().invoke(app, [str(a) for a in argv], env={"OLYMPIAD_DB": db, "OLYMPIAD_CLOCK": "2026-12-01T09:00:00Z"})
    return result.exit_code, " ".join(result.output.split())


def test_the_samarkand_teams_come_back_from_its_trf_export(tmp_path):
    trf = tmp_path / "samarkand.trf"
    assert CliRunner().invoke(app, ["export-trf", "samarkand-2026-open", str(trf), "--through-round", "1"]).exit_code == 0
    db = f"sqlite:///{tmp_path / 's.sqlite'}"
    assert _run(db, "new", "samarkand-copy", "--name", "Samarkand copy")[0] == 0
    code, out = _run(db, "team", "import", "samarkand-copy", trf)
    assert (code, out) == (0, "recorded: 206 events, samarkand-copy/team/USA ... samarkand-copy/team/MHL")
    imported = EventStore(db).state.teams
    original = {e.team_id: e for e in load_source("samarkand-2026-open") if e.type == "TeamRegistered"}
    assert list(imported) == list(original)
    for tid, team in original.items():
        got = imported[tid]
        assert (got.name, got.federation, got.pairing_number) == (team.name, team.federation, team.pairing_number)
        # A TRF name field holds 33 characters (001 columns 15-47): a longer name comes back whole from
        # the product's player comment.
        assert [(p.board_order, p.name, p.title, p.rating) for p in got.players] == \
            [(p.board_order, p.name, p.title, p.rating) for p in team.players]


def test_a_csv_with_a_bad_row_is_refused_whole(tmp_path):
    db = f"sqlite:///{tmp_path / 'c.sqlite'}"
    assert _run(db, "new", "csv-cup", "--name", "CSV Cup")[0] == 0
    csv = tmp_path / "teams.csv"
    rows = ["team_id,team,federation,board,name,rating"]
    rows += [f"A,Alpha,UZB,{b},Alpha {b},{2000 - b}" for b in range(1, 6)]
    rows += [f"B,Beta,UZB,{b},Beta {b},{1900 - b}" for b in range(1, 4)]  # three players: too few
    csv.write_text("\n".join(rows) + "\n")
    code, out = _run(db, "team", "import", "csv-cup", csv)
    assert code == 2 and "players: 3 players nominated; the profile needs 4 to 5 [rule: R-D1 team of 4 boards + 1 reserve]" in out
    assert EventStore(db).state.teams == {}
    csv.write_text("team_id,team,board,name\nA,Alpha,one,Alpha 1\n")
    code, out = _run(db, "team", "import", "csv-cup", csv)
    assert code == 2 and "line 2, column board: 'one' is not a whole number" in out


def test_a_refused_csv_cell_prints_the_one_refusal_line_with_its_rule(tmp_path):
    """The importer's ``[rule: ...]`` is text, not console markup: the line ends with it, no trailing space."""
    db = f"sqlite:///{tmp_path / 'r.sqlite'}"
    assert _run(db, "new", "csv-cup", "--name", "CSV Cup")[0] == 0
    csv = tmp_path / "t.csv"
    csv.write_text("team_id,team,federation,board,name,rating\nA,Alpha,UZB,1,Ann,2500\nA,Alpha,UZB,2,Bob,abc\n")
    result = CliRunner().invoke(app, ["team", "import", "csv-cup", str(csv)], env={"OLYMPIAD_DB": db})
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"refused: {csv}: line 3, column rating: 'abc' is not a whole number "
                                          "[rule: team file columns: whole numbers]"]


SAME_TEAM_RULE = "one registration per team: every row of a team gives its name, federation and pairing number alike"
REGISTRATION_RULE = ("a team's registration is its identity: change its players with ChangeRoster (olympiad team "
                     "roster), or withdraw it (WithdrawTeam)")


def test_a_row_giving_its_team_another_name_or_federation_is_refused_not_ignored(tmp_path):
    db = f"sqlite:///{tmp_path / 'n.sqlite'}"
    assert _run(db, "new", "csv-cup", "--name", "CSV Cup")[0] == 0
    csv = tmp_path / "teams.csv"
    rows = ["team_id,team,federation,board,name"] + [f"A,Alpha,UZB,{b},Alpha {b}" for b in range(1, 6)]
    for column, row, said in (("team", "A,Alfa,UZB,3,Alpha 3", "'Alpha'; this row says 'Alfa'"),
                              ("federation", "A,Alpha,KAZ,3,Alpha 3", "'UZB'; this row says 'KAZ'")):
        csv.write_text("\n".join(rows[:3] + [row] + rows[4:]) + "\n")
        assert _run(db, "team", "import", "csv-cup", csv) == (2, f"refused: {csv}: line 4, column {column}: an earlier "
                                                              f"row of team 'A' (from line 2) gives {said} "
                                                              f"[rule: {SAME_TEAM_RULE}]")
    assert EventStore(db).state.teams == {}


def test_a_second_import_of_a_team_is_already_recorded_and_one_that_differs_is_refused_naming_the_field(tmp_path):
    db = f"sqlite:///{tmp_path / 'i.sqlite'}"
    assert _run(db, "new", "csv-cup", "--name", "CSV Cup")[0] == 0
    csv = tmp_path / "teams.csv"
    rows = ["team_id,team,federation,board,name"] + [f"A,Alpha,UZB,{b},Alpha {b}" for b in range(1, 6)]
    csv.write_text("\n".join(rows) + "\n")
    assert _run(db, "team", "import", "csv-cup", csv) == (0, "recorded: csv-cup/team/A")
    assert _run(db, "team", "import", "csv-cup", csv) == (0, "already recorded: csv-cup/team/A")
    for field, text in (("name", "name 'Alpha'; this entry gives 'Alfa'"),
                        ("federation", "federation 'UZB'; this entry gives 'KAZ'")):
        csv.write_text("\n".join(rows).replace("Alpha,UZB", "Alfa,UZB" if field == "name" else "Alpha,KAZ") + "\n")
        assert _run(db, "team", "import", "csv-cup", csv) == (2, f"refused: teams.0.{field}: team 'A' is registered with "
                                                              f"{text} [rule: {REGISTRATION_RULE}]")
    team = EventStore(db).state.teams["A"]
    assert (team.name, team.federation) == ("Alpha", "UZB")
