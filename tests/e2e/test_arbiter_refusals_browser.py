"""Issue 11, acceptance 3 (page half): every refusal kind of
tests/integration/test_commands_http_refusals.py provoked through the pages' own controls in one
headless Chromium session; each time the page shows the message with the field and the rule,
and the store's event count is unchanged. Also the captain's form: a token the chief arbiter
issues on the page for one team submits that team's line-up on /captain, and a refused one is
shown in words.

The kinds: a line-up with a player not nominated and one out of order; a captain's line-up out of
order; a line-up of a published round; a roster change after the nomination deadline (round 1
published); pairing round 2 before round 1 is complete (and its explanation); a forfeit in a
round not yet published; a correction without a board (not a command: the request schema); a
correction with a terminal's token; publishing an amended pairing that breaks an absolute rule without a reason. A terminal's entry
outside its tables cannot be made on the entry page any more (issue 30: it offers the terminal's
tables only); the server's refusal of one is checked beside it.
"""
from __future__ import annotations

import json
import sqlite3
import urllib.error
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from olympiad.web.local_server import call, free_port
from tests.e2e.test_arbiter_browser import CHIEF, TID, eight_teams_csv, message, serve_new, submit_lineup
from tests.e2e.test_browser import browsers, chromium  # noqa: F401 (fixture)

pytestmark = pytest.mark.e2e


def test_every_refusal_reaches_the_arbiter_page_with_field_and_rule(tmp_path, browsers):  # noqa: F811
    path = tmp_path / "club.sqlite"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = serve_new(f"sqlite:///{path}", port)
    try:
        seen = drive(base, path, eight_teams_csv(tmp_path / "teams.csv"), browsers())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    want = {  # kind: (field, rule)
        "not nominated": ("boards.3", "R-D1 only nominated players"),
        "out of order": ("boards", "R-D1 fixed board order"),
        "captain out of order": ("boards", "R-D1 fixed board order"),
        "published round": ("round", "line-ups before the round is published"),
        "roster": ("players", "R-D1 nomination deadline"),
        "pair early": ("round", "pair a round when the previous round is complete"),
        "explain early": ("round", "pair a round when the previous round is complete"),
        "forfeit unpublished": ("round", "results only for paired rounds"),
        "not a command": ("board", "request schema"),
        "terminal corrects": ("actor", "the chief arbiter's command"),
        "override": ("override_reason", "an absolute pairing rule is broken only with a reason"),
    }
    assert set(seen["refused"]) == set(want)
    for kind, (field, rule) in want.items():
        text, before, after = seen["refused"][kind]
        assert f"field: {field}; rule: {rule}]" in text, (kind, text)
        assert "Nothing was written" in text and "refused (HTTP" in text, (kind, text)
        assert before == after, (kind, before, after)
    assert "round 1 is not complete" in seen["refused"]["pair early"][0]
    assert "HTTP 403" in seen["refused"]["terminal corrects"][0]
    assert any("R-P1 repeat opponent" in line for line in seen["checker"])
    # The captain's line-up was recorded, by the captain: T02 fields its reserve on board 4.
    assert seen["captain lineup"] == [("captain-T02", "T02", [1, 2, 3, 5])]


def events(path: Path) -> int:
    """The store's event count (read by SQLite itself, beside the server)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute("select count(*) from events").fetchone()[0]


def drive(base: str, path: Path, csv: Path, arb) -> dict:
    """One browser, the whole lifecycle's refusals; returns what the test checks."""
    refused: dict = {}
    seen: dict = {"refused": refused}

    def click(element_id: str) -> None:
        arb.execute_script("arguments[0].scrollIntoView({block: 'center'})", arb.find_element(By.ID, element_id))
        arb.find_element(By.ID, element_id).click()

    def fill(element_id: str, value: str) -> None:
        box = arb.find_element(By.ID, element_id)
        box.clear()
        if value:
            box.send_keys(value)

    def provoke(kind: str, what: str, act) -> None:
        """Act on the page, wait for its refusal message; record it with the counts around it."""
        arb.execute_script("document.getElementById('message').textContent = ''")
        before = events(path)
        act()
        text = message(arb, f"{what} refused")
        refused[kind] = (text, before, events(path))

    def lineup(team: str, boards: str) -> None:
        submit_lineup(arb, team, boards)

    arb.get(f"{base}/arbiter#token={CHIEF}")
    WebDriverWait(arb, 10).until(lambda d: d.find_element(By.ID, "create").is_displayed())
    fill("c-id", TID)
    fill("c-rounds", "5")
    click("c-submit")
    message(arb, "Create: recorded")
    arb.find_element(By.ID, "import-file").send_keys(str(csv))
    click("import")
    message(arb, "Import of teams.csv: recorded")

    provoke("not nominated", "Line-up of T01 for round 1", lambda: lineup("T01", "1 2 3 6"))
    provoke("out of order", "Line-up of T01 for round 1", lambda: lineup("T01", "2 1 3 4"))

    # The captain of T02: a token issued on the page, the line-up form on /captain.
    Select(arb.find_element(By.ID, "cap-team")).select_by_value("T02")
    click("cap-issue")
    message(arb, "Captain's token of T02: issued")
    captain_url = arb.find_element(By.ID, "cap-url").get_attribute("href")
    arb.get(captain_url)
    WebDriverWait(arb, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#captain-boards select.player")) == 4)
    Select(arb.find_element(By.CSS_SELECTOR, '#captain-boards tr[data-board="4"] select')).select_by_value("5")
    click("submit")
    message(arb, "Line-up of round 1: recorded")
    WebDriverWait(arb, 5).until(lambda d: "boards 1 2 3 5" in d.find_element(By.ID, "submitted").text)

    def captain_out_of_order() -> None:
        Select(arb.find_element(By.CSS_SELECTOR, '#captain-boards tr[data-board="1"] select')).select_by_value("2")
        Select(arb.find_element(By.CSS_SELECTOR, '#captain-boards tr[data-board="2"] select')).select_by_value("1")
        click("submit")

    provoke("captain out of order", "Line-up", captain_out_of_order)
    arb.get(f"{base}/arbiter")  # the chief's token is kept by the page (local storage)
    WebDriverWait(arb, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#lineups tbody tr"))

    click("pair")
    message(arb, "Pairing of round 1: recorded")
    click("publish")
    message(arb, "Publication of round 1: recorded")
    WebDriverWait(arb, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#results tbody tr")) == 4)

    def late_lineup() -> None:
        fill("lu-round", "1")
        lineup("T01", "1 2 3 5")

    provoke("published round", "Line-up of T01 for round 1", late_lineup)

    def roster() -> None:
        Select(arb.find_element(By.ID, "r-team")).select_by_value("T01")
        reserve = arb.find_element(By.CSS_SELECTOR, '#r-players tr[data-order="5"] input.p-name')
        reserve.clear()
        reserve.send_keys("New Reserve")
        fill("r-reason", "a player fell ill")
        click("r-submit")

    provoke("roster", "Roster of T01", roster)
    provoke("pair early", "Pairing of round 2", lambda: click("pair"))
    provoke("explain early", "Explanation", lambda: click("explain"))

    def forfeit_unpublished() -> None:
        fill("f-round", "2")
        fill("f-table", "1")
        click("forfeit")

    provoke("forfeit unpublished", "Forfeit at table 1", forfeit_unpublished)

    def no_board() -> None:
        fill("x-round", "1")
        fill("x-table", "1")
        fill("x-board", "")
        fill("x-reason", "scoresheet")
        click("correct")

    provoke("not a command", "Correction of round 1, table 1, board ?", no_board)

    # A terminal's token (issued on the page) in the arbiter page's token field, then at the entry page.
    fill("term-id", "t1")
    fill("term-tables", "1")
    click("term-issue")
    message(arb, "Token of terminal t1: issued for table 1")
    terminal = arb.find_element(By.ID, "term-url").get_attribute("href").split("#token=")[1].split("&")[0]

    def terminal_corrects() -> None:
        fill("token", terminal)
        fill("x-board", "1")
        click("correct")

    provoke("terminal corrects", "Correction of round 1, table 1, board 1", terminal_corrects)
    fill("token", CHIEF)

    # A terminal's entry page offers its own tables only (issue 30): the link to table 2 opens table 1,
    # so nothing of table 2 can be submitted from the page; the server still refuses a write outside
    # the terminal's scope, naming field and rule.
    arb.get(f"{base}/entry#token={terminal}&round=1&table=2")
    WebDriverWait(arb, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board-4 select.result"))
    assert [o.text for o in Select(arb.find_element(By.ID, "table")).options] == ["1"]
    assert arb.find_element(By.ID, "match-title").text.startswith("Round 1, table 1: ")
    before = events(path)
    with pytest.raises(urllib.error.HTTPError) as outside:
        call(f"{base}/api/tournaments/{TID}/rounds/1/tables/2/results", {"boards": [{"board": 1, "result": "1-0"}]}, terminal)
    body = json.loads(outside.value.read())
    assert (outside.value.code, body["field"], body["rule"]) == (403, "table", "terminal tokens")
    assert "table 2 is outside its scope" in body["detail"]
    assert events(path) == before

    # Round 1 complete (by the API: not what is tested), round 2 paired and amended on the page.
    for table in range(1, 5):
        call(f"{base}/api/tournaments/{TID}/commands", {"command": "RecordResults", "round": 1, "table": table,
             "boards": [{"board": b, "result": "1/2-1/2" if table > 1 or b > 1 else "1-0"} for b in range(1, 5)]}, CHIEF)
    arb.get(f"{base}/arbiter")
    WebDriverWait(arb, 10).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, '#results tr[data-complete="true"]')) == 4)
    click("pair")
    message(arb, "Pairing of round 2: recorded")
    view = call(f"{base}/api/tournaments/{TID}/arbiter")
    r1 = call(f"{base}/api/tournaments/{TID}/rounds/1/pairings")["tables"][0]
    home, away = r1["home"]["team_id"], r1["away"]["team_id"]
    table = next(t for t in view["proposal"]["tables"] if home in (t["home"]["team_id"], t["away"]["team_id"]))
    opponent = table["away"]["team_id"] if table["home"]["team_id"] == home else table["home"]["team_id"]
    fill("swap-teams", f"{opponent},{away}")  # home meets its round-1 opponent again
    fill("amend-reason", "the captains asked")
    click("amend")
    message(arb, "Amendment of round 2: recorded")
    WebDriverWait(arb, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#checker li.broken"))
    seen["checker"] = [li.text for li in arb.find_elements(By.CSS_SELECTOR, "#checker li.broken")]
    provoke("override", "Publication of round 2", lambda: click("publish"))

    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        lineups = [json.loads(b) for (b,) in db.execute("select body from events where type = 'LineupSubmitted'")]
    seen["captain lineup"] = [(e["actor"], e["team_id"], e["boards"]) for e in lineups]
    return seen
