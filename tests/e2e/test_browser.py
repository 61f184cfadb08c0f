"""Issue 5, acceptance 1 and 4: the entry page and the live scoreboard in a real headless Chromium.

``olympiad serve`` runs Samarkand 2026 Open through round 10; one browser enters the four results
of round 11, table 1 on the entry page; a second browser showing the scoreboard must show the
new MP, tie-breaks and ranks (as the core computes them) within 1 s, without a reload. The run
saves entry.png and scoreboard.png under var/screenshots (ignored); ``deploy/screenshots.sh``
runs this test with ``OLYMPIAD_SCREENSHOTS=docs/screenshots`` to refresh the committed ones.

Issue 13, acceptance 1: with rounds 1-10 played and round 11 paired the scoreboard (in its HTML
before any script runs, and live) is the standings after round 10, value for value; after three
round-11 matches it shows them as provisional, "3 of 103 matches".

The 1 s is measured by the two pages' own clocks (same machine): from the submit click on the
entry page to the first frame painted after the update on the scoreboard. Selenium's polling
(a chromedriver round trip per look, blocked while the page renders) only tells that it happened.

Needs Debian's ``chromium`` and ``chromium-driver`` (``deploy/install-browser.sh``).
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from projections.replay import replay
from projections.scoreboard import scoreboard
from producers.sources import load_source
from olympiad.web.local_server import call, serving
from olympiad.web.preload import held_back, through_round
from schemas.events import parse_event

pytestmark = pytest.mark.e2e

TID = "samarkand-2026-open"
CHIEF = "e2e-chief-token-4f9c1a7e2b"
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / os.environ.get("OLYMPIAD_SCREENSHOTS", "var/screenshots")
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000"]


@pytest.fixture()
def server():
    with serving(TID, 10, CHIEF, start_timeout=60) as base:
        yield base


def chromium() -> webdriver.Chrome:
    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (binary and driver):
        pytest.fail("Debian's chromium and chromium-driver are needed: run deploy/install-browser.sh")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROME_FLAGS + [f"--user-data-dir={tempfile.mkdtemp(prefix='olympiad-e2e-')}"]:
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(driver))


@pytest.fixture()
def browsers():
    opened = []

    def open_one() -> webdriver.Chrome:
        opened.append(chromium())
        return opened[-1]

    yield open_one
    for b in opened:
        b.quit()


def expected_rows(events: list, entered: list[dict]) -> dict[str, dict]:
    """The scoreboard's table as the core computes it with the entered round-11 results
    (``{"table", "board", "result"}``): round 10 plus the decided matches of round 11."""
    new = [parse_event({"type": "BoardResultRecorded", "event_id": f"expected/{e['table']}/{e['board']}",
                        "tournament_id": TID, "round": 11, "table": e["table"], "board": e["board"],
                        "result": e["result"]}) for e in entered]
    result = replay(through_round(events, 10) + new)
    rows = scoreboard(result.state, result.rounds).standings.document["rows"]
    return {r["team_id"]: r for r in rows} | {"__order__": [r["team_id"] for r in rows]}


def shown_rows(board: webdriver.Chrome) -> list[dict]:
    """Every standings row the page shows: team, rank and the cell values by column key."""
    return board.execute_script("""
        return [...document.querySelectorAll('#standings tbody tr')].map(tr => ({
          team: tr.dataset.team, rank: Number(tr.dataset.rank),
          mp: Number(tr.querySelector('td.mp').dataset.value),
          tb: Object.fromEntries([...tr.querySelectorAll('td[data-tb]')].map(td => [td.dataset.tb, td.dataset.value]))}));""")


def assert_table(rows: list[dict], want: dict[str, dict]) -> None:
    assert [r["team"] for r in rows] == want["__order__"]
    for r in rows:
        exp = want[r["team"]]
        assert (r["rank"], r["mp"], r["tb"]) == (exp["rank"], exp["mp"], exp["tiebreaks"]), r["team"]


def test_the_scoreboard_never_counts_an_unplayed_match(server, browsers):
    """Rounds 1-10 played, round 11 paired: the table is the standings after round 10 (as
    ``olympiad replay --through-round 10``), in the HTML before any script runs and live; three
    round-11 matches later it is provisional, "3 of 103 matches"."""
    events = load_source(TID)
    after_10 = replay(events, through_round=10).rounds[10].document["rows"]
    want_10 = {r["team_id"]: r for r in after_10} | {"__order__": [r["team_id"] for r in after_10]}
    assert want_10["UZB"]["tiebreaks"]["BH-C1"] == "132"

    with urllib.request.urlopen(f"{server}/") as r:  # the HTML as served, no script run
        html = r.read().decode()
    assert re.search(r'id="standings-title"[^>]*>Standings after round 10<', html)
    assert re.findall(r'<tr data-team="([^"]+)"', html)[:len(after_10)] == want_10["__order__"]
    uzb = re.search(r'<tr data-team="UZB".*?</tr>', html).group(0)
    assert 'data-tb="BH-C1" data-value="132"' in uzb and '<td class="fed">UZB</td>' in uzb
    assert 'data-table="1"' in html and "Uzbekistan" in html  # the round-11 pairing too

    board = browsers()
    board.get(f"{server}/")
    WebDriverWait(board, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#live.on")
                                   and d.execute_script("return window.lastUpdate && window.lastUpdate.seq") == 0)
    assert board.find_element(By.ID, "standings-title").text == "Standings after round 10"
    assert_table(shown_rows(board), want_10)
    heads = [th.text for th in board.find_elements(By.CSS_SELECTOR, "#standings thead th")]
    assert heads == ["Rk", "SNo", "Team", "Fed", "Games", "+", "=", "-", "MP", "OSB-C1", "GP", "BH-C1", "decided by"]

    held = [e for e in held_back(events, 10) if e.table in (2, 3, 4)]
    token = call(f"{server}/api/tournaments/{TID}/terminals", {"terminal_id": "arbiter", "tables": None}, CHIEF)["token"]
    for table in (2, 3, 4):
        boards = [{"board": e.board, "result": e.result} for e in held if e.table == table]
        call(f"{server}/api/tournaments/{TID}/rounds/11/tables/{table}/results", {"boards": boards}, token)
    want = expected_rows(events, [{"table": e.table, "board": e.board, "result": e.result} for e in held])
    WebDriverWait(board, 10).until(lambda d: "3 of 103 matches" in d.find_element(By.ID, "standings-title").text)
    assert board.find_element(By.ID, "standings-title").text == "Provisional standings, round 11: 3 of 103 matches"
    assert board.find_element(By.ID, "standings-title").get_attribute("data-provisional") == "1"
    WebDriverWait(board, 5).until(lambda d: [r["team"] for r in shown_rows(d)] == want["__order__"])
    assert_table(shown_rows(board), want)
    assert want["UZB"]["mp"] == want_10["UZB"]["mp"]  # table 1 not played: Uzbekistan's own values unchanged

    # the table after an earlier round, one click away
    board.find_element(By.CSS_SELECTOR, '#rounds a[data-round="7"]').click()
    # round 7 is complete but was never closed: complete, not official (issue 30)
    WebDriverWait(board, 5).until(
        lambda d: d.find_element(By.ID, "standings-title").text == "Standings after round 7, complete (not closed yet)")
    after_7 = replay(events, through_round=7).rounds[7].document["rows"]
    WebDriverWait(board, 5).until(lambda d: [r["team"] for r in shown_rows(d)] == [r["team_id"] for r in after_7])


def test_entry_page_updates_the_scoreboard_live(server, browsers):
    events = load_source(TID)
    entered = [{"table": 1, "board": e.board, "result": e.result} for e in held_back(events, 10) if e.table == 1]
    want = expected_rows(events, entered)
    token = call(f"{server}/api/tournaments/{TID}/terminals", {"terminal_id": "tables-1-2", "tables": [1, 2]}, CHIEF)["token"]

    board = browsers()
    board.get(f"{server}/")
    WebDriverWait(board, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#live.on")
                                   and d.execute_script("return window.lastUpdate && window.lastUpdate.seq") == 0)
    board.execute_script("window.notReloaded = true;")
    table_1 = board.find_element(By.CSS_SELECTOR, '#pairings tr[data-table="1"]')
    home, away = (table_1.find_element(By.CSS_SELECTOR, f"td:nth-child({i})").text for i in (3, 5))
    assert (home, away) == ("Uzbekistan", "Ukraine")
    mp_before = int(board.find_element(By.CSS_SELECTOR, 'tr[data-team="UZB"] td.mp').get_attribute("data-value"))

    entry = browsers()
    entry.get(f"{server}/entry#token={token}&round=11&table=1")
    WebDriverWait(entry, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-4 select.result"))
    for e in entered:
        Select(entry.find_element(By.CSS_SELECTOR, f"#board-{e['board']} select.result")).select_by_value(e["result"])
    WebDriverWait(entry, 5).until(lambda d: d.find_element(By.ID, "score").get_attribute("data-home") == "2.5")
    assert entry.find_element(By.ID, "score").text.startswith("Uzbekistan 2½ : 1½ Ukraine")
    assert entry.find_element(By.ID, "submit").text == "Submit 4 results"

    started = time.monotonic()
    entry.find_element(By.ID, "submit").click()
    WebDriverWait(board, 5, poll_frequency=0.02).until(
        lambda d: d.execute_script("return window.lastUpdate.caused_by.length === 4 && window.lastUpdate.shownAt !== null"))
    observed_ms = (time.monotonic() - started) * 1000
    shown_ms = board.execute_script("return window.lastUpdate.shownAt") - entry.execute_script("return window.submittedAt")
    received_ms = board.execute_script("return window.lastUpdate.at") - entry.execute_script("return window.submittedAt")
    print(f"submit click -> scoreboard painted: {shown_ms} ms (received after {received_ms} ms; page clocks); "
          f"seen by Selenium after {observed_ms:.0f} ms")
    assert shown_ms < 1000

    assert board.execute_script("return window.notReloaded") is True
    WebDriverWait(entry, 5).until(lambda d: "Stored 4 results" in d.find_element(By.ID, "message").text)
    assert [c.text for c in entry.find_elements(By.CSS_SELECTOR, "#entry-boards td.stored")] == ["½-½", "½-½", "½-½", "0-1"]

    order = board.execute_script("return [...document.querySelectorAll('#standings tbody tr')].map(tr => tr.dataset.team)")
    assert order == want["__order__"]
    for team in ("UZB", "UKR"):
        row, exp = board.find_element(By.CSS_SELECTOR, f'tr[data-team="{team}"]'), want[team]
        assert int(row.get_attribute("data-rank")) == exp["rank"]
        assert int(row.find_element(By.CSS_SELECTOR, "td.mp").get_attribute("data-value")) == exp["mp"]
        assert row.find_element(By.CSS_SELECTOR, "td.gp").get_attribute("data-value") == exp["gp"]
        for tb in ("OSB-C1", "BH-C1"):
            cell = row.find_element(By.CSS_SELECTOR, f'td[data-tb="{tb}"]')
            assert cell.get_attribute("data-value") == exp["tiebreaks"][tb]
    assert want["UZB"]["mp"] == mp_before + 2 and want["UZB"]["rank"] == 1
    assert "changed" in board.find_element(By.CSS_SELECTOR, 'tr[data-team="UZB"] td.mp').get_attribute("class")
    score = board.find_element(By.CSS_SELECTOR, '#pairings tr[data-table="1"] td.score')
    assert score.text == "2½ : 1½" and "changed" in score.get_attribute("class")

    # Two teams level on MP: the panel names the first tie-break on which they differ.
    a, b = next((x, y) for x, y in zip(want["__order__"], want["__order__"][1:]) if want[x]["mp"] == want[y]["mp"])
    decisive = next(tb for tb in ("OSB-C1", "GP", "BH-C1") if want[a]["tiebreaks"][tb] != want[b]["tiebreaks"][tb])
    for team in (a, b):  # a click on the row (not on its team-page link)
        board.execute_script("arguments[0].click()", board.find_element(By.CSS_SELECTOR, f'tr[data-team="{team}"] td.team'))
    why = WebDriverWait(board, 5).until(lambda d: d.find_elements(By.ID, "compare-why"))[0]
    assert why.get_attribute("data-decided-by") == decisive and why.get_attribute("data-ahead") == a
    assert f"{decisive} separates them" in why.text

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    entry.save_screenshot(str(SCREENSHOTS / "entry.png"))
    board.save_screenshot(str(SCREENSHOTS / "scoreboard.png"))

    # A terminal handed the link of its next table (in its scope): the open page follows the changed fragment.
    table_2 = board.find_element(By.CSS_SELECTOR, '#pairings tr[data-table="2"]')
    home, away = (table_2.find_element(By.CSS_SELECTOR, f"td:nth-child({i})").text for i in (3, 5))
    entry.execute_script("window.notReloaded = true; location.hash = 'round=11&table=2';")
    WebDriverWait(entry, 5).until(
        lambda d: d.find_element(By.ID, "match-title").text == f"Round 11, table 2: {home} – {away}")
    assert entry.execute_script("return window.notReloaded") is True
