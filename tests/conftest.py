"""Shared fixtures: paths of the real data beside the checkout."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.needs import missing

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("OLYMPIAD_SHARED_DATA") or ROOT.parent / "shared" / "data")
"""The real data beside the checkout; ``$OLYMPIAD_SHARED_DATA`` for a checkout elsewhere (a git worktree)."""


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


LIBRARY_TEXT = ("validation error for", "errors.pydantic.dev", "For further information visit", "sqlalche.me/e/")
"""What no test output may hold (issue 26: no library's text or link reaches a user): pydantic's
summary line and its documentation link, SQLAlchemy's link. ``schemas.refusals`` says these in
the product's words; a test whose captured stdout, stderr or log holds one fails."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Fail a passing test (setup, call or teardown) whose captured output holds ``LIBRARY_TEXT``."""
    outcome = yield
    report = outcome.get_result()
    if not report.passed:
        return
    for name, text in report.sections:  # ("Captured stdout call", text): this phase's only
        if not name.endswith(f" {report.when}"):
            continue
        low = text.lower()
        marker = next((m for m in LIBRARY_TEXT if m.lower() in low), None)
        if marker is not None:
            at = low.index(marker.lower())
            report.outcome = "failed"
            report.longrepr = (f"library text {marker!r} in {name}: "
                               f"...{text[max(0, at - 300):at + 200]}... (a refusal is the product's line: schemas.refusals)")
            return
