#!/usr/bin/env bash
# deploy/bootstrap.sh — create .venv and install the project with its test extra (idempotent).
#
# Re-installs only when pyproject.toml changed since the last install (stamp in .venv).
# Environment: PYTHON_BIN (python3.11, else python3) interpreter for the virtual environment.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON_BIN="${PYTHON_BIN:-$(command -v python3.11 || command -v python3)}"
if [[ ! -x .venv/bin/python ]]; then
  echo "bootstrap: creating .venv with $PYTHON_BIN" >&2
  "$PYTHON_BIN" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
stamp=".venv/.olympiad-installed"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "bootstrap: installing olympiad-events and its dependencies into .venv" >&2
  .venv/bin/python -m pip install --quiet -e '.[test]'
  echo "$want" > "$stamp"
fi
