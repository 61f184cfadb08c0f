"""gacrux 1.11.65 (FIDE TEC's TieBreakServer on PyPI) run as a separate tool on exported TRF files.

``tiebreaks(path, codes)`` runs ``python -m gacrux.tiebreakchecker`` (exact command in
../shared/spec/trf-teams.md §1.6) and returns its exit status, its status block and, per team pairing
number, the values of ``codes``. Without gacrux a test skips, and fails under CI (env CI=true).
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from tests.needs import missing

COMMAND = [sys.executable, "-m", "gacrux.tiebreakchecker"]


def require_gacrux() -> None:
    """Skip the calling test when gacrux is not installed; fail instead under CI."""
    if importlib.util.find_spec("gacrux") is None:
        message = "gacrux is not installed (pip install gacrux==1.11.65, the test extra)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        missing(message)


def tiebreaks(path: Path, codes: list[str], current_round: int | None = None,
              encoding: str | None = "utf-8") -> tuple[int, dict, dict[int, list[Decimal | None]]]:
    """(exit status, gacrux's status block, TPN -> value of each code) for the TRF file ``path``.

    ``current_round``: gacrux's ``-n`` (standings after that round). ``encoding``: gacrux's ``-b``
    (None: its default options, which read Latin-1).
    """
    args = [*COMMAND, "-i", str(path), *(["-b", encoding] if encoding else []), "-t", *codes]
    if current_round is not None:
        args += ["-n", str(current_round)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    try:
        result = json.loads(done.stdout)
    except ValueError:
        return done.returncode, {"code": done.returncode, "error": [done.stdout[-2000:], done.stderr[-2000:]]}, {}
    values = {c["cid"]: [None if v is None else Decimal(str(v)) for v in c["tiebreakScore"]]
              for c in result.get("tiebreakResult", {}).get("competitors", [])}
    return done.returncode, result["status"], values
