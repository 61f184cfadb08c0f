"""Issue 12, acceptance 1 (short profile): mutated events and commands through each door.

0 crashes, 0 invalid events accepted, every refusal names the field and the rule, every valid
event beside a refused one survives (``tests.fuzz.doors``). ``bench/bench_fuzz.py`` runs the same
with 10,000 mutants per door and prints the counts.
"""
from __future__ import annotations

import pytest

from tests.fuzz.doors import DOORS, Mutant, run, violations

EXAMPLES = 200  # per door: the short profile of the default run (the bench runs 10,000+)


@pytest.mark.parametrize("door", sorted(DOORS))
def test_mutants_through_the_door(door):
    counts = run(door, EXAMPLES)
    assert counts.mutants >= EXAMPLES // 2 and counts.refused > counts.mutants // 2
    assert counts.ok(), (counts.line(), counts.samples)


def test_the_oracle_sees_what_the_issue_saw():
    """The fuzz can fail: what was accepted before issue 12 is an invalid acceptance to it."""
    assert violations({"round": True}, {"round": 1})
    assert violations({"table": "1_0"}, {"table": 10})
    assert violations({"occurred_at": 2026}, {"occurred_at": "1970-01-01T00:33:46Z"})
    assert violations(None, {"reason": "\ud800"}) and violations(None, {"name": "a\x00b"})
    assert violations(None, {"reason": "   "}) and violations(None, {"reason": "x" * 5_000_000})
    assert violations(None, {"tournament_id": "t/x"})
    assert not violations({"round": 1, "reason": "late"}, {"round": 1, "reason": "late", "type": "X"})
    assert Mutant(0, "set", ("round",), True).render("t").count(b'"round": true') == 1
