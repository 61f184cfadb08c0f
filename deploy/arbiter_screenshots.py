"""Screenshots of the arbiter page at its main steps, into docs/screenshots/ (issue 11).

Run explicitly: ``.venv/bin/python -m deploy.arbiter_screenshots`` (needs Debian's chromium and
chromium-driver, ``deploy/install-browser.sh``). It plays the browser test's club event
(``tests.e2e.test_arbiter_browser.run_flow``) on a fresh ``olympiad serve --new`` and saves
arbiter-1-create, arbiter-2-teams, arbiter-3-pairing, entry-lineups, arbiter-4-results and
arbiter-5-closed as PNG. The test run itself never writes them.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from olympiad.web.local_server import free_port
from tests.e2e.test_arbiter_browser import eight_teams_csv, run_flow, serve_new
from tests.e2e.test_browser import chromium

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def main() -> None:
    """Play the flow with a screenshot at each step; print the files written."""
    OUT.mkdir(parents=True, exist_ok=True)
    opened = []

    def open_browser():
        opened.append(chromium())
        opened[-1].set_window_size(1366, 900)  # a laptop screen
        return opened[-1]

    def shoot(driver, name: str) -> None:
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1366, max(900, min(height + 40, 2400)))
        driver.save_screenshot(str(OUT / f"{name}.png"))
        print(OUT / f"{name}.png")

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = serve_new(f"sqlite:///{Path(tmp) / 'club.sqlite'}", port)
        try:
            run_flow(f"http://127.0.0.1:{port}", eight_teams_csv(Path(tmp) / "teams.csv"), open_browser, shoot)
        finally:
            for b in opened:
                b.quit()
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
