"""Issue 30, acceptance 3: the read pages of the Samarkand 2026 Open in a headless Chromium.

``olympiad serve`` runs the event through round 10 (round 11 paired, no result); the chief arbiter
closes round 10, and three round-11 matches are entered. Then:

- the team card, player card, crosstable and board-prize pages show what the API's views say
  (the same rows, the values of ``projections.views``);
- a round in progress is titled provisional with the count of decided matches, a closed round
  official, a complete round that is not closed complete;
- a terminal's entry page offers only its tables, and no correction or forfeit controls;
- the print view of a match sheet drops the navigation.

Screenshots of each page and of the print view of a match sheet go to var/screenshots (ignored);
``deploy/screenshots.sh`` runs this test with ``OLYMPIAD_SCREENSHOTS=docs/screenshots`` to refresh the
committed ones.
"""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from olympiad.web.local_server import call, serving
from olympiad.web.preload import held_back
from producers.sources import load_source
from tests.e2e.test_browser import SCREENSHOTS, browsers  # noqa: F401 (fixture)

pytestmark = pytest.mark.e2e

TID = "samarkand-2026-open"
CHIEF = "e2e-chief-token-players-8d2b5c"
API = f"/api/tournaments/{TID}"


@pytest.fixture(scope="module")
def server():
    """Rounds 1-10 played and round 10 closed; round 11 with tables 2, 3 and 4 decided."""
    with serving(TID, 10, CHIEF, start_timeout=60) as base:
        closed = call(f"{base}{API}/commands", {"command": "CloseRound", "round": 10}, CHIEF)
        assert closed["command"] == "CloseRound"
        arbiter = call(f"{base}{API}/terminals", {"terminal_id": "arbiter", "tables": None}, CHIEF)["token"]
        for table in (2, 3, 4):
            boards = [{"board": e.board, "result": e.result} for e in held_back(load_source(TID), 10) if e.table == table]
            call(f"{base}{API}/rounds/11/tables/{table}/results", {"boards": boards}, arbiter)
        yield base


def shoot(driver, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def title(driver) -> str:
    return driver.find_element(By.ID, "page-title").text


def test_round_titles_say_provisional_official_or_complete(server, browsers):
    page = browsers()
    page.get(f"{server}/")
    WebDriverWait(page, 10).until(lambda d: "3 of 103 matches" in d.find_element(By.ID, "standings-title").text)
    assert page.find_element(By.ID, "standings-title").text == "Provisional standings, round 11: 3 of 103 matches"
    page.get(f"{server}/?round=10")
    assert page.find_element(By.ID, "standings-title").text == "Standings after round 10, official (round closed)"
    page.get(f"{server}/?round=9")
    assert page.find_element(By.ID, "standings-title").text == "Standings after round 9, complete (not closed yet)"
    page.get(f"{server}/rounds/11")
    assert title(page) == "Round 11 pairings, provisional: 3 of 103 matches decided"
    page.get(f"{server}/rounds/10")
    assert title(page) == "Round 10 pairings, official (round closed)"
    rows = page.find_elements(By.CSS_SELECTOR, "#round-pairings tbody tr")
    assert len(rows) == 103 and len(rows[0].find_elements(By.CSS_SELECTOR, ".seat a")) == 8  # 4 boards, 2 players
    shoot(page, "round-pairings")


def test_team_card(server, browsers):
    want = call(f"{server}{API}/teams/UZB")
    page = browsers()
    page.get(f"{server}/teams/UZB")
    assert title(page) == f"{want['name']}: team card"
    assert page.find_element(By.ID, "average-rating").text == str(want["average_rating"])
    players = page.find_elements(By.CSS_SELECTOR, "#players tbody tr")
    assert [p.get_attribute("data-player") for p in players] == [r["player_id"] for r in want["results"]]
    first = want["results"][0]
    assert players[0].find_element(By.CSS_SELECTOR, "td.rp").text == str(first["performance"]["rating"])
    rounds = page.find_elements(By.CSS_SELECTOR, "#rounds tbody tr")
    assert len(rounds) == 11
    seats = rounds[0].find_elements(By.CSS_SELECTOR, ".seat")
    assert len(seats) == 4 and want["rounds"][0]["boards"][0]["player"]["name"] in seats[0].text
    assert "provisional: 3 of 103 matches decided" in page.find_element(By.ID, "status").text
    shoot(page, "team-card")


def test_player_card(server, browsers):
    want = call(f"{server}{API}/players/UZB.1")
    page = browsers()
    page.get(f"{server}/players/UZB.1")
    assert want["name"] in title(page)
    assert page.find_element(By.ID, "performance").text == str(want["performance"]["rating"])
    assert len(page.find_elements(By.CSS_SELECTOR, "#games tbody tr")) == len(want["rounds"]) == want["games"] == 10
    shoot(page, "player-card")


def test_crosstable(server, browsers):
    want = call(f"{server}{API}/crosstable")
    page = browsers()
    page.get(f"{server}/crosstable")
    assert title(page) == "Crosstable after round 11, provisional: 3 of 103 matches decided"
    rows = page.find_elements(By.CSS_SELECTOR, "#crosstable tbody tr")
    assert [r.get_attribute("data-team") for r in rows] == [r["team_id"] for r in want["rows"]]
    cells = rows[0].find_elements(By.CSS_SELECTOR, "td.x")
    first = want["rows"][0]["rounds"][0]
    assert len(cells) == 11 and cells[0].text.startswith(f'{first["opponent_rank"]}{first["colour"] or ""}')
    shoot(page, "crosstable")


def test_prize_page_has_five_boards_with_the_minimum_of_games(server, browsers):
    want = call(f"{server}{API}/prizes")
    page = browsers()
    page.get(f"{server}/prizes")
    assert title(page) == "Board prizes after round 11, provisional: 3 of 103 matches decided"
    for board in want["boards"]:
        rows = page.find_elements(By.CSS_SELECTOR, f"#board-{board['board']} tbody tr")
        assert [r.get_attribute("data-player") for r in rows] == [r["player_id"] for r in board["rows"]]
        assert rows and all(r["played"] >= want["min_games"] == 8 for r in board["rows"])
        assert rows[0].find_element(By.CSS_SELECTOR, "td.rp").text == str(board["rows"][0]["performance"]["rating"])
    assert len(want["boards"]) == 5
    shoot(page, "prizes")


def test_a_terminal_sees_only_its_tables_and_no_corrections(server, browsers):
    token = call(f"{server}{API}/terminals", {"terminal_id": "tables-3-7", "tables": [3, 7]}, CHIEF)["token"]
    page = browsers()
    page.get(f"{server}/entry#token={token}&round=11&table=3")
    WebDriverWait(page, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-4 select.result"))
    picker = Select(page.find_element(By.ID, "table"))
    assert [o.text for o in picker.options] == ["3", "7"]
    assert page.find_element(By.ID, "match-title").text.startswith("Round 11, table 3: ")
    stored = page.find_elements(By.CSS_SELECTOR, "#entry-boards select.result")
    assert stored and all(not s.is_enabled() for s in stored)  # table 3 is in: a terminal cannot correct it
    assert not page.find_element(By.ID, "forfeit").is_displayed()
    picker.select_by_value("7")  # the page follows the table picked
    WebDriverWait(page, 5).until(lambda d: d.find_element(By.ID, "match-title").text.startswith("Round 11, table 7: "))
    assert all(s.is_enabled() for s in page.find_elements(By.CSS_SELECTOR, "#entry-boards select.result"))
    shoot(page, "entry-terminal")


def test_print_view_of_a_match_sheet(server, browsers):
    page = browsers()
    page.get(f"{server}/rounds/11/tables/1/sheet")
    assert title(page).startswith("Match sheet: ")
    assert len(page.find_elements(By.CSS_SELECTOR, "#sheet tbody tr")) == 4
    assert len(page.find_elements(By.CSS_SELECTOR, ".signatures .line")) == 3
    assert page.find_element(By.CSS_SELECTOR, "header nav").is_displayed()
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not page.find_element(By.CSS_SELECTOR, "header nav").is_displayed()
    assert page.find_element(By.ID, "sheet").is_displayed()
    shoot(page, "match-sheet-print")
