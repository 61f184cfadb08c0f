"""Issue 29, acceptance 3: from a headless Chromium, the scoreboard shows a board in progress (move
number and position) and updates it as the feed advances; the arbiter page confirms a reported
result. ``olympiad serve`` on a SQLite store; the feed's ingester writes beside it (the fixture
writes the round's PGN, the ingester polls)."""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from olympiad.web.local_server import free_port
from producers.doors import EmbeddedDoor
from producers.feeds.ingester import Ingester
from producers.feeds.sources import PgnFiles
from projections.store import EventStore
from tests.e2e.test_arbiter_browser import CHIEF, serve
from tests.e2e.test_browser import browsers, chromium  # noqa: F401 (fixture)
from tests.factories import TID
from tests.feed_games import FEED, VIDIT_MAKOTO, feed_store
from tests.unit.test_feed_bad import pgn

pytestmark = pytest.mark.e2e
CARD = '#games .game[data-table="1"][data-board="1"]'


def test_the_scoreboard_follows_a_game_and_the_arbiter_confirms_its_result(tmp_path: Path, browsers):  # noqa: F811
    db = f"sqlite:///{tmp_path / 'feed.sqlite'}"
    feed_store(feed_results="arbiter", url=db)
    folder = tmp_path / "feed"
    folder.mkdir()
    ingester = Ingester(EmbeddedDoor(EventStore(db)).submit, TID, [PgnFiles(folder)], FEED)

    def play(plies: int, result: str = "*") -> None:
        (folder / "round-1.pgn").write_text(pgn("A player 1", "C player 1", VIDIT_MAKOTO[:plies], result), encoding="utf-8")
        assert ingester.poll_once().problems == 0

    play(10)
    port = free_port()
    proc = serve(["--db", db], port)
    try:
        base = f"http://127.0.0.1:{port}"
        board = browsers()
        board.get(f"{base}/")
        # the boards are drawn again on each standings message: read a card inside the wait, never keep one
        shown = lambda text: WebDriverWait(board, 20, ignored_exceptions=(StaleElementReferenceException,)).until(  # noqa: E731
            lambda d: text in d.find_element(By.CSS_SELECTOR, CARD).text)
        WebDriverWait(board, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'{CARD}[data-ply="10"] svg'))
        shown("move 6 · last O-O")
        shown("A player 1 – C player 1")
        play(21)
        WebDriverWait(board, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'{CARD}[data-ply="21"]'))
        shown("move 11 · last a4")
        play(62, "1-0")
        shown("reported 1-0")

        arbiter = browsers()
        arbiter.get(f"{base}/arbiter#token={CHIEF}")
        button = '#feed-confirm tr[data-table="1"][data-board="1"] button.confirm-board'
        WebDriverWait(arbiter, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, button))
        WebDriverWait(arbiter, 10, ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: d.find_element(By.CSS_SELECTOR, button).click() or True)
        WebDriverWait(arbiter, 10).until(lambda d: "Confirm round 1 table 1 board 1: recorded" in d.find_element(By.ID, "message").text)
        assert EventStore(db).state.results[(1, 1, 1)][1] == "1-0"
        shown("result 1-0")
    finally:
        proc.terminate()
        proc.wait(10)
