"""Shared fixtures: paths of the real data beside the checkout."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.needs import missing

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def samarkand_dir() -> Path:
    path = SHARED_DATA / "samarkand-2026-open"
    if not path.is_dir():
        missing(f"real data not found at {path}")
    return path


@pytest.fixture(scope="session", autouse=True)
def chief_key_file(tmp_path_factory: pytest.TempPathFactory):
    """The chief arbiter's checkpoint key of every tournament a test creates (``$OLYMPIAD_KEY``):
    in a temporary folder, never in the checkout."""
    path = tmp_path_factory.mktemp("keys") / "chief.key"
    before = os.environ.get("OLYMPIAD_KEY")
    os.environ["OLYMPIAD_KEY"] = str(path)
    yield path
    if before is None:
        os.environ.pop("OLYMPIAD_KEY", None)
    else:
        os.environ["OLYMPIAD_KEY"] = before
