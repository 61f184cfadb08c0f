#!/usr/bin/env bash
# deploy/olympiad.sh ARGS... — bootstrap .venv if needed, then run `olympiad ARGS...`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/deploy/bootstrap.sh"
exec "$ROOT/.venv/bin/olympiad" "$@"
