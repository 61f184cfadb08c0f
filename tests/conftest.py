"""Shared fixtures: paths of the real data beside the checkout."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def samarkand_dir() -> Path:
    path = SHARED_DATA / "samarkand-2026-open"
    if not path.is_dir():
        pytest.skip(f"real data not found at {path}")
    return path
