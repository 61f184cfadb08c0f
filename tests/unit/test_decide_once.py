"""Issue 10, acceptance 3: a command is decided once; a log loads whatever the rules say later.

The fixture log was written by the release that introduced commands (``tests/data/README.md``).
Here one rule is tightened (a forfeit needs a note of at least 10 characters): the log still
loads through every loader of this process, with its standings digest unchanged (issue 25,
acceptance 2: replay, the event store opened on its rows, the log file with its hash chain
through ``olympiad replay``, ``olympiad audit`` of both), while the same command sent now is
refused.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from olympiad.cli import app as cli
from processors import rules
from processors.deciders import handle
from processors.tournament import RuleViolation
from projections.eventlog import read_log, write_log
from projections.replay import replay
from schemas.commands import parse_command
from tests.factories import written_earlier

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "club-league-2026.events.jsonl.gz"
DIGEST_AFTER_11 = "fd7ac607982b1ba4dafcf96031e7998f9babbd368d054d4472def468a20c5e2b"
TID = "club-league-2026"


@pytest.fixture
def tightened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "FORFEIT_NOTE_MIN", 10)


def test_the_fixture_log_loads_with_a_tightened_rule_and_its_digest_is_unchanged(tightened, tmp_path):
    events = read_log(FIXTURE)
    forfeits = [e for e in events if getattr(e, "forfeit", None)]
    assert forfeits and any(len(e.note) < 10 for e in forfeits)  # decided under the old rule
    assert replay(events).rounds[11].digest == DIGEST_AFTER_11
    db = f"sqlite:///{tmp_path / 'old.sqlite'}"
    reopened = written_earlier(db, events)  # the store's rows as they were written; loading evolves, it does not decide again
    assert reopened.state.closed[11] == DIGEST_AFTER_11
    assert reopened.project().rounds[11].digest == DIGEST_AFTER_11
    log = tmp_path / "club.events.jsonl.gz"
    write_log(log, events, with_chain=True)  # a log the product wrote: replayed, not imported
    for source in (str(log), db):
        result = CliRunner().invoke(cli, ["replay", source])
        assert result.exit_code == 0, result.output
        assert result.output.rstrip().endswith(f"standings sha256 {DIGEST_AFTER_11}")
        result = CliRunner().invoke(cli, ["audit", source, "--no-trail"], env={"COLUMNS": "300"})
        out = " ".join(result.output.split())
        assert result.exit_code == 3, out  # consistent; nothing outside the log anchors it (issue 27)
        assert "rounds 1-11 reproduced" in out and "audit: consistent but not anchored" in out and "DIVERGENCE" not in out


def test_the_fixture_log_without_its_chain_is_an_import_and_meets_the_tightened_rule(tightened, tmp_path):
    """A log file without a chain is foreign: ``olympiad replay`` imports it (``ImportFacts``), so
    its facts meet today's rules, and the short forfeit note is refused."""
    log = tmp_path / "club.events.jsonl.gz"
    write_log(log, read_log(FIXTURE))
    result = CliRunner().invoke(cli, ["replay", str(log)])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, message
    assert "note:" in message and "[rule: a forfeit says why]" in message


def test_the_same_command_sent_after_the_change_is_refused(tightened):
    events = read_log(FIXTURE)
    upto = next(i for i, e in enumerate(events) if e.event_id == f"{TID}/r2/t2/b3")
    state = replay(events[:upto]).state  # just before the round-2 late arrival was recorded
    table = state.tables[(2, 2)]
    command = parse_command({"command": "RecordForfeit", "tournament_id": TID, "actor": {"role": "chief", "id": "chief"},
                             "round": 2, "table": 2, "board": 3, "forfeiting": [table.home], "reason": "late-arrival"})
    with pytest.raises(RuleViolation) as refused:
        handle(state, command)
    assert (refused.value.field, refused.value.rule) == ("note", "a forfeit says why")
    assert "10 characters" in str(refused.value)
    rules.FORFEIT_NOTE_MIN = 0  # the rule as it was: the command is accepted, as it was then
    assert handle(state, command).events[0] == events[upto].model_copy(update={"occurred_at": None, "actor": "chief"})
