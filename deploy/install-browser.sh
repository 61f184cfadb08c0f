#!/usr/bin/env bash
# deploy/install-browser.sh — Debian's Chromium and its WebDriver, for the browser tests
# (tests/e2e/test_browser.py drives /usr/bin/chromium through /usr/bin/chromedriver with Selenium).
#
# Idempotent: does nothing when both are installed. Otherwise runs `apt-get update` and installs
# the Debian packages `chromium` and `chromium-driver` (needs root, or sudo), its output in
# var/install-browser.log. Test tools never
# download a browser of their own: Selenium is given both paths.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  echo "chromium and chromedriver present: $(chromium --version 2>/dev/null | head -1)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
# The package manager's hundreds of lines go to a log; one line says what happens, the log's tail
# is shown only if it fails.
mkdir -p "$(dirname "${BASH_SOURCE[0]}")/../var"
log="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/var/install-browser.log"
echo "installing Debian's chromium and chromium-driver (apt-get; log: $log) ..."
if ! { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium chromium-driver; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "install-browser: apt-get failed; see $log" >&2
  exit 1
fi
echo "installed: $(chromium --version 2>/dev/null | head -1); $(chromedriver --version | head -1)"
