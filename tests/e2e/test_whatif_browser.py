"""Issue 31, acceptance 5: the what-if on the scoreboard, in a real headless Chromium.

``olympiad serve`` runs Samarkand 2026 Open with rounds 1-9 played and round 10 paired; every
round-10 result but one table's is entered through the API. On the scoreboard a hypothetical
2-2 at that table completes the round on a branch: the table becomes the standings after round
10 with it, the engine's pairing of round 11 appears, both marked hypothetical and both as the
application function (``projections.views.whatif.whatif_answer``) computes them, and both differ
from what the real score of that table gives. A second browser sees nothing of it; "reset"
brings back the live table; nothing was recorded (the rounds' progress and the audit trail are
as before). The run saves whatif.png beside the other screenshots (``tests/e2e/test_browser.py``).

Needs Debian's ``chromium`` and ``chromium-driver`` (``deploy/install-browser.sh``).
"""
from __future__ import annotations

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from olympiad.web.local_server import call, serving
from olympiad.web.preload import held_back, through_round
from producers.sources import load_source
from projections.replay import replay
from projections.views.whatif import whatif_answer
from schemas.points import fmt_points
from tests.e2e.test_browser import SCREENSHOTS, browsers, chromium, shown_rows  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e

TID = "samarkand-2026-open"
CHIEF = "e2e-whatif-chief-token-7d2e"


def pairs(next_pairing: dict) -> list[tuple[str, str]]:
    return [(t["home"]["team_id"], t["away"]["team_id"]) for t in next_pairing["tables"]]


def choose(page, css: str, value: str) -> None:
    """Pick ``value`` in the select at ``css``, again if a live redraw replaced it meanwhile."""
    def pick(d) -> bool:
        Select(d.find_element(By.CSS_SELECTOR, css)).select_by_value(value)
        return True
    WebDriverWait(page, 10, ignored_exceptions=(StaleElementReferenceException,)).until(pick)


def test_a_hypothetical_draw_on_the_scoreboard_is_this_browsers_only(browsers):  # noqa: F811
    events = load_source(TID)
    round_10 = held_back(events, 9)
    full = replay(events).state
    # The table to leave open: its real score is not 2-2, and a 2-2 there pairs round 11 otherwise.
    for table in range(1, 104):
        real = full.match(10, table)
        if real.home_gp == 2:
            continue
        entered = [e for e in round_10 if e.table != table]
        result = replay(through_round(events, 9) + entered)
        draw = whatif_answer(result.state, result.rounds, [f"10/{table}=2-2"])
        actual = whatif_answer(result.state, result.rounds, [f"10/{table}={fmt_points(real.home_gp)}-{fmt_points(real.away_gp)}"])
        if pairs(draw["next_pairing"]) != pairs(actual["next_pairing"]) and draw["standings"]["rows"] != actual["standings"]["rows"]:
            break
    live = whatif_answer(result.state, result.rounds)

    with serving(TID, 9, CHIEF, start_timeout=60) as server:
        token = call(f"{server}/api/tournaments/{TID}/terminals", {"terminal_id": "arbiter", "tables": None}, CHIEF)["token"]
        for t in sorted({e.table for e in entered}):
            boards = [{"board": e.board, "result": e.result} | ({"reason": "as in the source"} if e.result in ("+/-", "-/+", "-/-") else {})
                      for e in entered if e.table == t]
            call(f"{server}/api/tournaments/{TID}/rounds/10/tables/{t}/results", {"boards": boards}, token)
        recorded = (call(f"{server}/api/tournaments/{TID}/rounds"), call(f"{server}/api/tournaments/{TID}/audit-trail"))

        page = browsers()
        page.get(f"{server}/")
        WebDriverWait(page, 15).until(lambda d: "102 of 103 matches" in d.find_element(By.ID, "standings-title").text)
        # The page redraws its tables when the live stream opens; touch them only after that.
        WebDriverWait(page, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#live.on"))
        assert [r["team"] for r in shown_rows(page)] == [r["team_id"] for r in live["standings"]["rows"]]
        assert page.find_element(By.ID, "whatif").get_attribute("hidden") is not None
        assert page.find_element(By.ID, "next-pairing").get_attribute("hidden") is not None

        choose(page, f'#pairings tr[data-table="{table}"] td.whatif select', "2-2")
        WebDriverWait(page, 10).until(lambda d: d.find_element(By.ID, "next-pairing").is_displayed())
        title = page.find_element(By.ID, "standings-title")
        assert title.get_attribute("data-hypothetical") == "1" and "hypothetical" in title.text
        assert title.text == "What if: Standings after round 10 (hypothetical)"
        assert "Hypothetical: 1 of 103 matches set in this browser" in page.find_element(By.ID, "whatif").text
        assert "hypothetical" in page.find_element(By.ID, "standings").get_attribute("class")
        row = page.find_element(By.CSS_SELECTOR, f'#pairings tr[data-table="{table}"]')
        assert "hypothetical" in row.get_attribute("class")
        assert row.find_element(By.CSS_SELECTOR, "td.score").text == "2 : 2"
        shown = shown_rows(page)
        assert [r["team"] for r in shown] == [r["team_id"] for r in draw["standings"]["rows"]]
        assert [r["mp"] for r in shown] == [r["mp"] for r in draw["standings"]["rows"]]
        assert [r["tb"] for r in shown] == [r["tiebreaks"] for r in draw["standings"]["rows"]]
        shown_pairs = page.execute_script("""return [...document.querySelectorAll('#next-pairing tbody tr')]
            .map(tr => [tr.dataset.home, tr.dataset.away]);""")
        assert [tuple(p) for p in shown_pairs] == pairs(draw["next_pairing"]) != pairs(actual["next_pairing"])
        assert "round 11 pairing" in page.find_element(By.ID, "next-pairing-title").text
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.save_screenshot(str(SCREENSHOTS / "whatif.png"))

        other = browsers()  # a second browser: the live scoreboard, nothing of the first one's what-if
        other.get(f"{server}/")
        WebDriverWait(other, 15).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#live.on"))
        assert "102 of 103 matches" in other.find_element(By.ID, "standings-title").text
        assert other.find_element(By.ID, "standings-title").get_attribute("data-hypothetical") != "1"
        assert not other.find_element(By.ID, "whatif").is_displayed()
        assert not other.find_element(By.ID, "next-pairing").is_displayed()
        assert [r["team"] for r in shown_rows(other)] == [r["team_id"] for r in live["standings"]["rows"]]
        assert other.find_element(By.CSS_SELECTOR, f'#pairings tr[data-table="{table}"] td.score').text == "–"

        page.find_element(By.ID, "whatif-reset").click()
        WebDriverWait(page, 10).until(lambda d: not d.find_element(By.ID, "whatif").is_displayed())
        assert not page.find_element(By.ID, "next-pairing").is_displayed()
        assert "102 of 103 matches" in page.find_element(By.ID, "standings-title").text
        assert page.find_element(By.ID, "standings-title").get_attribute("data-hypothetical") == "0"
        assert [r["team"] for r in shown_rows(page)] == [r["team_id"] for r in live["standings"]["rows"]]
        select = page.find_element(By.CSS_SELECTOR, f'#pairings tr[data-table="{table}"] td.whatif select')
        assert select.get_attribute("value") == ""
        # nothing was recorded: every round's progress and the audit trail as before
        assert (call(f"{server}/api/tournaments/{TID}/rounds"), call(f"{server}/api/tournaments/{TID}/audit-trail")) == recorded
