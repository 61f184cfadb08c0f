"""Issue 26, point 1: a data folder whose rosters carry Arena titles, Arabic and CJK names and curly
apostrophes replays with exit 0 and the shipped data's digest; a title that is not a FIDE code is
kept and named on stderr, never refused (web and live pipeline: tests/integration/test_varied_rosters.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from olympiad.cli import app
from projections.store import EventStore
from tests.varied_data import SAMARKAND_DIGEST, reencoded, varied_samarkand

NOTE = ("note: 2 players carry a title that is not a FIDE title code (kept as given): "
        "NM ({a}: Ō’Connor, Seán; {b}: Þórsson, Ægir)")


def replay(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "olympiad", "replay", str(folder)], capture_output=True, text=True,
                          timeout=120, env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "PYTHONUTF8": "1"})


def test_a_folder_with_arena_titles_and_names_in_five_scripts_replays_to_the_same_digest(tmp_path: Path) -> None:
    varied_samarkand(tmp_path / "varied")
    for folder in (tmp_path / "varied", reencoded(tmp_path / "varied", tmp_path / "bom-crlf", "utf-8-sig", "\r\n", " ")):
        done = replay(folder)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1] == f"profile olympiad-2022; 4735 events; standings sha256 {SAMARKAND_DIGEST}"
        assert " ".join(done.stderr.split()) == NOTE.format(a="MAW", b="NRU")


def test_team_import_takes_arena_titles_and_notes_an_unknown_one(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cup.sqlite'}"
    env = {"OLYMPIAD_DB": db, "OLYMPIAD_CLOCK": "2026-12-01T09:00:00Z"}
    assert CliRunner().invoke(app, ["new", "arena-cup", "--name", "Arena Cup"], env=env).exit_code == 0
    rows = ["team_id,team,federation,board,name,title,rating"]
    names = ["عبد الله، محمد", "丁立人", "O’Gorman, Tom", "Непомнящий, Ян", "आनंद, विश्वनाथन"]
    for board, (name, title) in enumerate(zip(names, ["ACM", "AFM", "AIM", "AGM", "NM"]), start=1):
        rows.append(f'EGY,Egypt,EGY,{board},"{name}",{title},{2000 - board}')
    csv = tmp_path / "teams.csv"
    csv.write_bytes("\r\n".join(rows).encode("utf-16"))
    result = CliRunner().invoke(app, ["team", "import", "arena-cup", str(csv)], env=env)
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert ("note: 1 player carries a title that is not a FIDE title code (kept as given): NM (EGY: आनंद, विश्वनाथन)"
            in out and out.endswith("recorded: arena-cup/team/EGY"))
    team = EventStore(db).state.teams["EGY"]
    assert [(p.name, p.title) for p in team.players] == list(zip(names, ["ACM", "AFM", "AIM", "AGM", "NM"]))


def test_the_arbiter_page_import_takes_arena_titles_and_names_the_unknown_one() -> None:
    from fastapi.testclient import TestClient

    from tests.factories import TID, created
    from tests.web_app import embedded_app

    chief = "chief-import-titles-93ab1c"
    app, store, _ = embedded_app([created()], chief)
    rows = ["team_id,team,federation,board,name,fide_id,title,rating"]
    rows += [f'CIV,Cote d’Ivoire,CIV,{b},"N’Guessan {b}, Zoë",,{t},{1900 - b}'
             for b, t in enumerate(["AGM", "AIM", "AFM", "ACM", "HGM"], start=1)]
    with TestClient(app) as client:
        done = client.post(f"/api/tournaments/{TID}/teams/import", json={"text": "\r\n".join(rows), "filename": "civ.csv"},
                           headers={"Authorization": f"Bearer {chief}"})
    assert done.status_code == 201, done.text
    assert done.json()["message"].endswith(
        "; note: 1 player carries a title that is not a FIDE title code (kept as given): HGM (CIV: N’Guessan 5, Zoë)")
    assert [p.title for p in store.state.teams["CIV"].players] == ["AGM", "AIM", "AFM", "ACM", "HGM"]
