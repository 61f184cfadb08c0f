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
  echo "bootstrap: installing olympiad-events and its dependencies into .venv (about a minute)" >&2
  # Progress: one line per package pip fetches. pip's whole output goes to var/pip.log, with
  # setuptools' banner about editable installs (advice, not an error).
  mkdir -p var
  if ! .venv/bin/python -m pip install --progress-bar off -e '.[test]' 2>&1 \
      | tee var/pip.log | awk '/^Collecting / { n++; printf "bootstrap: pip: %d %s\n", n, $2 > "/dev/stderr"; fflush("/dev/stderr") }
                                 /^Successfully installed/ { print "bootstrap: pip: installed" > "/dev/stderr" }'; then
    tail -n 30 var/pip.log >&2
    echo "bootstrap: pip install failed (log: var/pip.log)" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
