"""Issue 13, "Importers hold no facts of one data set": the PGN importer (Chennai 2022) takes its
identity and its gap decisions from the facts of the folder (``event.json``, or the project's copy
``olympiad/data/<folder name>.event.json`` for the read-only shared folder), never from code."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from producers.importers import chennai
from producers.importers.federations import federation_of
from producers.sources import SHIPPED_DIR, facts_path
from tests.conftest import SHARED_DATA
from tests.needs import missing

DATA = SHARED_DATA / "olympiad-2022-chennai-open"


@pytest.fixture(scope="module")
def bare_copy(tmp_path_factory) -> Path:
    """The data files of the Chennai folder under another name, without any facts."""
    if not DATA.is_dir():
        missing(f"real data not found at {DATA}")
    folder = tmp_path_factory.mktemp("data") / "olympiad-2030-pgn-test"
    folder.mkdir()
    for name in ("matches.json", "rosters.csv"):
        shutil.copyfile(DATA / name, folder / name)
    return folder


def test_the_shared_folder_takes_its_facts_from_the_projects_copy():
    if not DATA.is_dir():
        missing(f"real data not found at {DATA}")
    assert not (DATA / "event.json").exists()
    assert facts_path(str(DATA)) == SHIPPED_DIR / "olympiad-2022-chennai-open.event.json"
    created = chennai.load_events(DATA)[0]
    assert (created.tournament_id, created.name) == ("chennai-2022-open", "44th Chess Olympiad 2022, Open")


def test_a_renamed_copy_without_facts_is_named_by_its_folder_and_read_as_the_pgn_stands(bare_copy):
    events = chennai.load_events(bare_copy)
    created = events[0]
    assert (created.tournament_id, created.name) == ("olympiad-2030-pgn-test", "44th Chess Olympiad 2022, Open section")
    assert {e.tournament_id for e in events} == {"olympiad-2030-pgn-test"}
    paired = {e.round: e for e in events if e.type == "RoundPaired"}
    assert [paired[r].bye for r in (10, 11)] == [None, None]  # no byes decided: the teams are absent
    assert set(paired[10].absent) == {"GAM", "RWA", "NIG"}
    missing_boards = {(e.round, e.table, e.board): e.result for e in events
                      if e.type == "BoardResultRecorded" and e.note.startswith("board missing")}
    assert missing_boards == {(8, 65, 1): "-/-", (11, 92, 3): "-/-"}  # not played by either side


def _with_facts(bare_copy: Path, tmp_path: Path, facts: dict) -> Path:
    folder = tmp_path / bare_copy.name
    shutil.copytree(bare_copy, folder)
    (folder / "event.json").write_text(json.dumps(facts), encoding="utf-8")
    return folder


@pytest.mark.parametrize("facts, message", [
    ({"byes": {"10": "Atlantis"}}, "event.json: byes: round 10: 'Atlantis' is not a team of matches.json"),
    ({"absent": {"3": ["India"]}}, "event.json: absent: round 3: 'India' has a match in the PGN"),
    ({"absent": {"12": ["Rwanda"]}}, "event.json: absent: round 12 is not a round of matches.json (1..11)"),
    ({"forfeited_boards": [{"round": 8, "table": 65, "board": 2, "result": "+/-"}]},
     "event.json: forfeited_boards[0]: round 8 table 65 board 2 was played (it is in the PGN)"),
])
def test_a_decision_the_data_does_not_bear_is_refused_by_the_cli(bare_copy, tmp_path, facts, message):
    folder = _with_facts(bare_copy, tmp_path, {"tournament_id": "x-open", "name": "X", **facts})
    result = CliRunner().invoke(app, ["replay", str(folder)])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.stderr.split())
    assert "Traceback" not in result.output


def test_federation_codes_are_data_and_an_unknown_country_is_named():
    """The country -> FIDE code table is ``olympiad/data/fide-federations.json`` (no facts in code)."""
    assert (federation_of("India"), federation_of("India 2"), federation_of("Trinidad & Tobago")) == ("IND", "IND", "TTO")
    with pytest.raises(ValueError, match="team 'Atlantis 3': no FIDE federation code for 'Atlantis' in fide-federations.json"):
        federation_of("Atlantis 3")
