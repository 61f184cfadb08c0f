"""Issue 11, acceptance 1: a club event run from a headless Chromium (the page half of
acceptance 3 is tests/e2e/test_arbiter_refusals_browser.py).

``olympiad serve --new`` on an empty SQLite store; on the arbiter page the chief arbiter creates
the tournament, imports eight teams from a CSV, submits a line-up (and sees a refused one in
words, with field and rule), pairs round 1, reads the engine's explanation, publishes; two
terminals enter every result on the entry page (the players' names shown per board); the
scoreboard repaints without a reload; the arbiter corrects one board and closes the round. The
standings served equal ``olympiad replay sqlite:///...`` of the store.

``run_flow(..., shoot)`` is also what ``deploy/arbiter_screenshots.py`` runs to write the
screenshots of docs/screenshots (never this test).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from olympiad.web.local_server import call, free_port
from tests import tournament_script as script
from tests.e2e.test_browser import browsers, chromium  # noqa: F401 (fixture)

pytestmark = pytest.mark.e2e

TID = "club-open-2026"
CHIEF = "arbiter-e2e-chief-6f1c9a2e47b3d805"
RESULTS = {1: ["1-0", "1/2-1/2", "0-1", "1-0"], 2: ["0-1", "0-1", "1/2-1/2", "1-0"],
           3: ["1/2-1/2", "1/2-1/2", "1/2-1/2", "1/2-1/2"], 4: ["1-0", "1-0", "0-1", "1-0"]}


def eight_teams_csv(path: Path) -> Path:
    """The first eight teams of the 31-team script's CSV."""
    full = script.write_teams_csv(path)
    full.write_text("\n".join(x for x in full.read_text().splitlines() if not x.startswith("T") or int(x[1:3]) <= 8) + "\n")
    return full


def serve(args: list[str], port: int) -> subprocess.Popen:
    """``olympiad serve ARGS --port PORT`` with the chief arbiter's token ``CHIEF``; returns once
    the API answers (at most 60 s, else ``RuntimeError``)."""
    proc = subprocess.Popen([sys.executable, "-m", "olympiad", "serve", *args, "--port", str(port)],
                            env=os.environ | {"OLYMPIAD_CHIEF_TOKEN": CHIEF}, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            call(f"http://127.0.0.1:{port}/api/setup")
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"olympiad serve {' '.join(args)} did not start")
            time.sleep(0.1)


def serve_new(db: str, port: int) -> subprocess.Popen:
    """``olympiad serve --new`` on ``db`` (a SQLite file; the chief arbiter's key beside it)."""
    key = db.removeprefix("sqlite:///") + ".chief.key"
    return serve(["--new", "Club Open 2026", "--profile", "olympiad-2022", "--db", db, "--key", key], port)


def message(driver, contains: str) -> str:
    """Wait for the page's message to contain ``contains``; returns it."""
    WebDriverWait(driver, 10).until(lambda d: contains in d.find_element(By.ID, "message").text)
    return driver.find_element(By.ID, "message").text


def submit_lineup(driver, team: str, boards: str) -> None:
    """Type ``boards`` into ``team``'s line-up box on the arbiter page and submit it."""
    from selenium.common.exceptions import StaleElementReferenceException

    # The page says "recorded" as soon as the answer comes, then reads the tournament again and
    # repaints its tables: wait for the team's row, and find it again if a repaint replaced it.
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#lineups tr[data-team="{team}"] input.lineup'))
    for attempt in range(5):
        try:
            box = driver.find_element(By.CSS_SELECTOR, f'#lineups tr[data-team="{team}"] input.lineup')
            box.clear()
            box.send_keys(boards)
            driver.find_element(By.CSS_SELECTOR, f'#lineups tr[data-team="{team}"] button.submit-lineup').click()
            return
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.3)


def run_flow(base: str, csv: Path, open_browser: Callable, shoot: Optional[Callable[[object, str], None]] = None) -> dict:
    """Drive the whole round 1 from the pages; returns what the test checks."""
    shoot = shoot or (lambda driver, name: None)
    seen: dict = {}
    arb = open_browser()
    arb.get(f"{base}/arbiter#token={CHIEF}")
    WebDriverWait(arb, 10).until(lambda d: d.find_element(By.ID, "create").is_displayed())
    assert arb.find_element(By.ID, "c-name").get_attribute("value") == "Club Open 2026"
    arb.find_element(By.ID, "c-id").clear()
    arb.find_element(By.ID, "c-id").send_keys(TID)
    arb.find_element(By.ID, "c-rounds").send_keys("5")
    shoot(arb, "arbiter-1-create")
    arb.find_element(By.ID, "c-submit").click()
    message(arb, "Create: recorded")
    arb.find_element(By.ID, "import-file").send_keys(str(csv))
    arb.find_element(By.ID, "import").click()
    message(arb, "Import of teams.csv: recorded: 8 events")
    WebDriverWait(arb, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#teams tbody tr")) == 8)
    shoot(arb, "arbiter-2-teams")

    def lineup(team: str, boards: str) -> str:
        submit_lineup(arb, team, boards)
        return message(arb, f"Line-up of {team}")

    seen["refused"] = lineup("T01", "1 2 3 6")
    lineup("T01", "1 2 3 5")
    message(arb, "Line-up of T01 for round 1: recorded")
    arb.find_element(By.ID, "pair").click()
    message(arb, "Pairing of round 1: recorded")
    WebDriverWait(arb, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#proposal-tables tbody tr")) == 4)
    arb.find_element(By.ID, "explain").click()
    WebDriverWait(arb, 5).until(lambda d: d.find_element(By.ID, "trace").text.strip())
    seen["trace"] = arb.find_element(By.ID, "trace").text
    shoot(arb, "arbiter-3-pairing")
    arb.find_element(By.ID, "publish").click()
    message(arb, "Publication of round 1: recorded")
    WebDriverWait(arb, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#results tbody tr")) == 4)

    tokens = {name: call(f"{base}/api/tournaments/{TID}/terminals", {"terminal_id": name, "tables": tables}, CHIEF)["token"]
              for name, tables in (("terminal-a", [1, 2]), ("terminal-b", [3, 4]))}
    board = open_browser()  # the scoreboard, live
    board.get(f"{base}/")
    WebDriverWait(board, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#live.on"))
    board.execute_script("window.notReloaded = true;")
    entry = open_browser()
    seen["names"] = {}
    for table, codes in RESULTS.items():
        token = tokens["terminal-a" if table <= 2 else "terminal-b"]
        entry.get(f"{base}/entry?table={table}#token={token}&round=1&table={table}")
        WebDriverWait(entry, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-4 select.result")
                                       and "Player" in d.find_element(By.CSS_SELECTOR, "#board-4 td.black").text)
        seen["names"][table] = [(entry.find_element(By.CSS_SELECTOR, f"#board-{b} td.white").text,
                                 entry.find_element(By.CSS_SELECTOR, f"#board-{b} td.black").text) for b in range(1, 5)]
        for b, c in enumerate(codes, start=1):
            Select(entry.find_element(By.CSS_SELECTOR, f"#board-{b} select.result")).select_by_value(c)
        WebDriverWait(entry, 5).until(lambda d: d.find_element(By.ID, "submit").text == "Submit 4 results")
        if table == 1:
            shoot(entry, "entry-lineups")
        entry.find_element(By.ID, "submit").click()
        message(entry, "Stored 4 results")
    WebDriverWait(board, 10).until(lambda d: d.execute_script(  # repainted with the last board entered
        f"return window.lastUpdate && window.lastUpdate.caused_by.includes('{TID}/r1/t4/b4') && window.lastUpdate.shownAt"))
    seen["board_reloaded"] = not board.execute_script("return window.notReloaded === true")
    seen["board_order"] = board.execute_script(
        "return [...document.querySelectorAll('#standings tbody tr')].map(tr => tr.dataset.team)")

    WebDriverWait(arb, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, '#results tr[data-complete="true"]')) == 4)
    shoot(arb, "arbiter-4-results")
    for field, value in (("x-table", "1"), ("x-board", "1"), ("x-reason", "the scoresheet shows Black won")):
        arb.find_element(By.ID, field).send_keys(value)
    Select(arb.find_element(By.ID, "x-result")).select_by_value("0-1")
    arb.find_element(By.ID, "correct").click()
    message(arb, "Correction of round 1, table 1, board 1: recorded")
    Select(arb.find_element(By.ID, "r-team")).select_by_value("T01")  # a roster change, now refused
    arb.execute_script("document.querySelector('#r-players tr[data-order=\"5\"] input.p-name').value = 'New Reserve'")
    arb.execute_script("document.getElementById('r-submit').click()")
    seen["roster_refused"] = message(arb, "Roster of T01 refused")
    arb.find_element(By.ID, "close").click()
    message(arb, "Closing round 1: recorded")
    WebDriverWait(arb, 5).until(lambda d: "closed" in d.find_element(By.ID, "closed").text)
    shoot(arb, "arbiter-5-closed")
    # The close's last write is the round's signed checkpoint (issue 25); the scoreboard then shows
    # the closed round's standings (pushed with the checkpoint, or as the snapshot of a new stream).
    closed = call(f"{base}/api/tournaments/{TID}/standings/1")["digest"]
    WebDriverWait(board, 10).until(lambda d: d.execute_script("return window.lastUpdate.digest") == closed)
    seen["board_digest"] = board.execute_script("return window.lastUpdate.digest")
    return seen


def test_a_club_event_from_the_arbiter_page(tmp_path, browsers):  # noqa: F811
    db = f"sqlite:///{tmp_path / 'club.sqlite'}"
    port = free_port()
    proc = serve_new(db, port)
    try:
        seen = run_flow(f"http://127.0.0.1:{port}", eight_teams_csv(tmp_path / "teams.csv"), browsers)
        served = call(f"http://127.0.0.1:{port}/api/tournaments/{TID}/standings/1")
        anchors = call(f"http://127.0.0.1:{port}/api/tournaments/{TID}/checkpoints")  # issue 27: the published checkpoints
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert "field: boards.3" in seen["refused"] and "rule: R-D1 only nominated players" in seen["refused"]
    assert "Nothing was written" in seen["refused"]
    assert "round 1" in seen["trace"].lower() or len(seen["trace"].splitlines()) >= 4
    # Both line-ups per board: T01 fielded its reserve (board order 5) on board 4.
    names = [n for table in seen["names"].values() for pair in table for n in pair]
    assert any(n.startswith("Player 01-5") for n in names) and not any(n.startswith("Player 01-4") for n in names)
    assert all(n.startswith("Player ") for n in names) and len(names) == 32
    assert "[field: players; rule: R-D1 nomination deadline]" in seen["roster_refused"]
    assert not seen["board_reloaded"]
    audit = subprocess.run([sys.executable, "-m", "olympiad", "audit", db], capture_output=True, text=True, timeout=120)
    assert audit.returncode == 3 and "1 signed checkpoint" in audit.stdout, audit.stdout + audit.stderr  # not anchored
    saved = tmp_path / "checkpoints.json"
    saved.write_text(json.dumps(anchors))
    done = subprocess.run([sys.executable, "-m", "olympiad", "replay", db, "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    replayed = json.loads(done.stdout)
    assert [r["team_id"] for r in replayed["rows"]] == [r["team_id"] for r in served["rows"]]
    assert [(r["mp"], r["gp"]) for r in replayed["rows"]] == [(r["mp"], r["gp"]) for r in served["rows"]]
    import hashlib

    assert hashlib.sha256(done.stdout.rstrip("\n").encode()).hexdigest() == served["digest"] == seen["board_digest"]
    # Issue 25: the round closed on the arbiter page carries a signed checkpoint that the audit verifies.
    audited = subprocess.run([sys.executable, "-m", "olympiad", "audit", db, "--no-trail", "--against", str(saved)],
                             capture_output=True, text=True, timeout=120, env=os.environ | {"COLUMNS": "300"})
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "anchored to 1 published checkpoint(s) and the published key" in " ".join(audited.stdout.split())
    assert "rounds 1-1 reproduced, 1 signed checkpoint(s)" in " ".join(audited.stdout.split())
    first, second = audited.stdout.splitlines()[:2]
    assert first.startswith(f"{TID}: log compared with the chain hashes stored with ") and f"1 published checkpoint(s) and the published key ({saved})" in first, first
    assert second == "round 1 reproduced", audited.stdout
