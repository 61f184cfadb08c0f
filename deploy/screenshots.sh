#!/usr/bin/env bash
# deploy/screenshots.sh — refresh the committed screenshots docs/screenshots/{scoreboard,entry,whatif}.png and those of
# the read pages (team card, player card, crosstable, prizes, a round, a terminal's entry page, a match sheet's print view).
#
# The test suite writes its screenshots under var/screenshots (ignored), so that a test run leaves
# the checkout as it found it; this runs the browser test once with OLYMPIAD_SCREENSHOTS pointing
# at docs/screenshots instead. Commit the result by hand.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
deploy/bootstrap.sh
deploy/install-browser.sh
OLYMPIAD_SCREENSHOTS=docs/screenshots .venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/e2e/test_browser.py -k entry_page_updates_the_scoreboard_live tests/e2e/test_whatif_browser.py
OLYMPIAD_SCREENSHOTS=docs/screenshots exec .venv/bin/python -m pytest -q -p no:cacheprovider \
  tests/e2e/test_player_pages_browser.py
