#!/usr/bin/env bash
# deploy/test.sh [PYTEST ARGS...] — the whole test suite on a fresh machine.
#
# Installs what the tests need (the .venv; Debian's Chromium through deploy/install-browser.sh;
# PostgreSQL through deploy/postgres.sh and the Kafka jars through Maven on first use), then runs
# pytest. Screenshots the browser test takes go to var/screenshots (ignored); the committed ones in
# docs/screenshots are refreshed by deploy/screenshots.sh. The integration
# fixtures start the local Kafka broker and PostgreSQL themselves unless KAFKA_BOOTSTRAP_SERVERS /
# DATABASE_URL name existing ones, and stop what they started.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
deploy/bootstrap.sh
deploy/install-browser.sh
# The layer contracts of ../shared/design.md (pyproject.toml [tool.importlinter]): a wrong import fails the build.
.venv/bin/lint-imports --no-cache
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
