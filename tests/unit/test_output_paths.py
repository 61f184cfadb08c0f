"""File paths in the CLI's messages are printed whole: ``olympiad.output.say`` puts no line break in
at the terminal's width (a path broken over lines does not copy), and reads no markup (a ``[`` in a
path is text). Checked at a 40-column terminal with a path of more than 100 characters."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from olympiad import output
from olympiad.cli import app

NARROW = {"COLUMNS": "40"}


@pytest.fixture(autouse=True)
def fresh_consoles():
    """The consoles are made once per process, at the width of the moment: made again here at 40."""
    output.console.cache_clear()
    output.err.cache_clear()
    yield
    output.console.cache_clear()
    output.err.cache_clear()


def _long_dir(tmp_path):
    folder = tmp_path / ("a-very-long-folder-name-[copy]-" * 3) / "exports"
    folder.mkdir(parents=True)
    return folder


def test_export_trf_prints_the_path_on_one_line(tmp_path):
    out = _long_dir(tmp_path) / "samarkand-2026-open-after-round-3.trf"
    result = CliRunner().invoke(app, ["export-trf", "samarkand-2026-open", str(out), "--through-round", "3"], env=NARROW)
    assert result.exit_code == 0, result.output
    assert len(str(out)) > 100
    assert f"wrote 1468 records (latin-1) to {out}\n" in result.stdout, result.stdout


def test_export_prints_the_log_and_chain_paths_whole(tmp_path):
    out = _long_dir(tmp_path) / "samarkand-2026-open.events.jsonl.gz"
    result = CliRunner().invoke(app, ["export", "samarkand-2026-open", str(out)], env=NARROW)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"wrote 4735 events to {out}"
    assert lines[1] == f"wrote their hash chain to {out}.chain"
