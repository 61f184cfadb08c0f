"""Issue 13: the importer holds no facts of one data set; they come from the folder's event.json.

A copy of the Samarkand folder renamed and without ``event.json`` is imported under the folder's
name with no correction; data that does not fit (a team missing from rosters.json, an
arbiter-made table naming a team the data does not have) is refused with a message naming it.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from producers.importers.event_facts import arbiter_made, read_event_facts
from producers.importers.samarkand import load_events


@pytest.fixture(scope="module")
def bare_copy(samarkand_dir, tmp_path_factory) -> Path:
    """raw/ of the Samarkand folder in a folder named 'olympiad-2030-test-open', no event.json."""
    folder = tmp_path_factory.mktemp("data") / "olympiad-2030-test-open"
    shutil.copytree(samarkand_dir / "raw", folder / "raw")
    return folder


def test_identity_and_correction_come_from_event_json(samarkand_dir) -> None:
    events = load_events(samarkand_dir)
    created = events[0]
    assert (created.tournament_id, created.name, created.profile.name) == (
        "samarkand-2026-open", "46th Chess Olympiad 2026, Open", "olympiad-2022")
    (correction,) = [e for e in events if e.type == "BoardResultCorrected"]
    # logged right after the round-11 pairing; board 4, the last board whose change alone gives 2.5-1.5
    assert events[events.index(correction) - 1].event_id == "samarkand-2026-open/r11/pairing"
    assert (correction.round, correction.board, correction.result) == (10, 4, "0-1")
    assert correction.reason.startswith("late correction: Angola 3.5-0.5 Myanmar (round 10) was corrected to 2.5-1.5")


def test_a_folder_without_event_json_is_named_by_the_folder(bare_copy) -> None:
    events = load_events(bare_copy)
    assert {e.tournament_id for e in events} == {"olympiad-2030-test-open"}
    assert events[0].name == "olympiad-2030-test-open"
    assert [e for e in events if e.type == "BoardResultCorrected"] == []
    assert read_event_facts(bare_copy).arbiter_made_tables == ()


def copy_with(bare_copy: Path, tmp_path: Path, facts: dict | None = None) -> Path:
    folder = tmp_path / bare_copy.name
    shutil.copytree(bare_copy, folder)
    if facts is not None:
        (folder / "event.json").write_text(json.dumps(facts), encoding="utf-8")
    return folder


def test_a_team_missing_from_the_rosters_is_refused(bare_copy, tmp_path) -> None:
    folder = copy_with(bare_copy, tmp_path)
    rosters = json.loads((folder / "raw" / "rosters.json").read_text(encoding="utf-8"))
    rosters["teams"] = [t for t in rosters["teams"] if t["id"] != 17]
    (folder / "raw" / "rosters.json").write_text(json.dumps(rosters), encoding="utf-8")
    with pytest.raises(ValueError, match=r"raw/round1.json: team 17 \(.+\) is not in raw/rosters.json"):
        load_events(folder)


def test_a_bad_event_json_names_the_field(bare_copy, tmp_path) -> None:
    folder = copy_with(bare_copy, tmp_path, {"tournament_id": "x", "name": "X", "late_corrections": [{"round": 10}]})
    with pytest.raises(ValueError, match=r"event.json: late_corrections\[0\].teams: required, not given \[rule: event.json fields\]"):
        load_events(folder)


def test_a_correction_of_a_match_that_was_not_played_is_refused(bare_copy, tmp_path) -> None:
    facts = {"tournament_id": "x", "name": "X", "late_corrections": [
        {"round": 10, "teams": [1, 2], "published": "3-1", "corrected": "2-2", "logged_after_pairing_of_round": 11}]}
    with pytest.raises(ValueError, match=r"late_corrections\[0\]: United States of America and India did not meet in round 10"):
        load_events(copy_with(bare_copy, tmp_path, facts))


def test_an_arbiter_made_table_with_an_unknown_team_is_refused_by_the_cli(bare_copy, tmp_path) -> None:
    facts = {"tournament_id": "x", "name": "X", "arbiter_made_tables": [{"round": 2, "newcomer": 999, "opponent": 205}]}
    folder = copy_with(bare_copy, tmp_path, facts)
    with pytest.raises(ValueError, match=r"arbiter_made_tables\[0\]: newcomer 999 is not a team of the data"):
        arbiter_made(read_event_facts(folder), load_events(folder))
    run = subprocess.run([sys.executable, "-m", "olympiad", "pair", str(folder), "--round", "2", "--compare"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "newcomer 999 is not a team of the data" in run.stderr
