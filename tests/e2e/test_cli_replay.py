"""Acceptance (issue 2, points 4 and 5): deterministic replays; bad input refused, nothing written."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from projections.eventlog import write_log
from schemas.canonical import canonical_json
from tests.factories import board, four_team_round_one, paired

OLYMPIAD = [sys.executable, "-m", "olympiad"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*OLYMPIAD, *args], capture_output=True, text=True, timeout=120)


def test_two_replays_are_byte_identical():
    first = run("replay", "samarkand-2026-open", "--json")
    second = run("replay", "samarkand-2026-open", "--json")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    assert doc["round"] == 11 and len(doc["rows"]) == 206 and doc["rows"][0]["name"] == "Uzbekistan"
    table = run("replay", "samarkand-2026-open")
    digest = [line for line in table.stdout.splitlines() if "sha256" in line][0].split()[-1]
    import hashlib

    assert digest == hashlib.sha256(first.stdout.rstrip("\n").encode()).hexdigest()


def _log(tmp_path: Path, extra_lines: list[str]) -> Path:
    path = tmp_path / "events.jsonl"
    write_log(path, four_team_round_one())
    with path.open("a", encoding="utf-8") as fh:
        for line in extra_lines:
            fh.write(line + "\n")
    return path


def _line(event) -> str:
    return canonical_json(event)


BAD = {
    "unknown team": ([_line(paired(2, [("A", "B"), ("C", "ZZ")]))], ["tables.1.away", "registered teams only", "ZZ"]),
    "board 5": ([_line(board(1, 1, 5, "1-0"))], ["board", "R-D1 boards 1..4"]),
    "result code 2-0": ([_line(board(1, 1, 4, "1-0", "x")).replace('"result":"1-0"', '"result":"2-0"')], ["line 15", "result", "2-0"]),
    "table not paired": ([_line(board(1, 7, 1, "1-0"))], ["table", "tables of the round's pairing"]),
    "second different result": ([_line(board(1, 1, 1, "0-1", "again"))], ["result", "one result per board; changes go through a correction"]),
    "malformed line": (['{"type": "BoardResultRecorded", "event_id": '], ["line 15", "JSON syntax"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_refused_and_nothing_is_written(case, tmp_path):
    lines, expected = BAD[case]
    log = _log(tmp_path, lines)
    db = tmp_path / "store.sqlite"
    proc = run("replay", str(log), "--db", f"sqlite:///{db}")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    message = " ".join(proc.stderr.split())
    assert "refused" in message
    for fragment in expected:
        assert fragment in message, (fragment, message)
    if db.exists():
        with sqlite3.connect(db) as conn:
            assert conn.execute("select count(*) from events").fetchone()[0] == 0


def test_a_correction_is_accepted(tmp_path):
    from schemas.events import BoardResultCorrected

    fix = BoardResultCorrected(event_id="test-open/r1/t1/b1/correction/1", tournament_id="test-open", supersedes="test-open/r1/t1/b1", round=1, table=1, board=1,
                               result="0-1", reason="scoresheet shows Black won")
    log = _log(tmp_path, [_line(fix)])
    proc = run("replay", str(log), "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["team_id"]: r for r in json.loads(proc.stdout)["rows"]}
    assert (rows["A"]["gp"], rows["A"]["mp"], rows["C"]["gp"], rows["C"]["mp"]) == ("2", 1, "2", 1)
