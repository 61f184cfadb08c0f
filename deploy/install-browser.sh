#!/usr/bin/env bash
# deploy/install-browser.sh — Debian's Chromium and its WebDriver, for the browser tests
# (tests/e2e/test_browser.py drives /usr/bin/chromium through /usr/bin/chromedriver with Selenium).
#
# Idempotent: does nothing when both are installed. Otherwise runs `apt-get update` and installs
# the Debian packages `chromium` and `chromium-driver` (needs root, or sudo). Test tools never
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
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver
echo "installed: $(chromium --version 2>/dev/null | head -1); $(chromedriver --version | head -1)"
