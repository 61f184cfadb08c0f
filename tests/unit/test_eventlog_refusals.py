"""Issue 12: the log loader refuses a file it cannot read with one clear message and one line number
(``olympiad replay``): a truncated ``.gz``, a plain file named ``.gz``, a malformed line, bytes that
are not UTF-8. Before: "Aborted.", a traceback, and two different line numbers."""
from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from projections.eventlog import write_log
from tests.factories import four_team_round_one

SHIPPED = Path(__file__).resolve().parents[2] / "olympiad" / "data" / "samarkand-2026-open.events.jsonl.gz"


def lines() -> list[bytes]:
    return gzip.decompress(SHIPPED.read_bytes()).splitlines(keepends=True)


CASES = {
    "truncated gz": ("log.jsonl.gz", lambda: SHIPPED.read_bytes()[:len(SHIPPED.read_bytes()) // 2],
                     ["gzip file", "truncated"]),
    "plain file named gz": ("log.jsonl.gz", lambda: b"".join(lines()[:20]), ["line 1:", "gzip file", "not a valid gzip file"]),
    "malformed line": ("log.jsonl", lambda: b"".join(lines()[:3]) + b'{"type": "BoardResultRecorded", "event_id": \n',
                       ["line 4:", "JSON syntax", "column 45"]),
    "not UTF-8": ("log.jsonl", lambda: b"".join(lines()[:3]) + b'{"type": "\xff"}\n', ["line 4:", "UTF-8 text"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_unreadable_log_is_refused_with_one_line_number(case, tmp_path):
    name, content, expected = CASES[case]
    path = tmp_path / name
    path.write_bytes(content())
    result = CliRunner().invoke(app, ["replay", str(path)])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, message
    assert "refused" in message and "Traceback" not in message and "Aborted" not in message
    for fragment in expected:
        assert fragment in message, (fragment, message)
    assert len(re.findall(r"\bline \d+", message)) == 1, message


def test_a_good_gz_log_still_reads(tmp_path):
    path = tmp_path / "log.jsonl.gz"
    write_log(path, four_team_round_one())
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
