"""Acceptance 4: the olympiad-2022 engine against the official Samarkand 2026 Open pairings.

For each round r the official history of rounds 1..r-1 (as it stood then) is fed to the engine
and its pairs are compared with the official ones. The two late-arrival tables are arbiter-made
(data README) and left out. The data has no colours: with colours reconstructed by the profile's
allocation rules the engine reproduces rounds 1-8 exactly; docs/pairing-fidelity.md lists every
difference of rounds 9-11 and its cause.
"""
from __future__ import annotations

import pytest

from producers.importers.event_facts import arbiter_made, read_event_facts
from projections.pairing.fidelity import compare_rounds
from producers.sources import load_source
from schemas.profile import OLYMPIAD_2022

# Published pairs not made by the engine, per round (colours reconstructed). See docs/pairing-fidelity.md.
KNOWN_DIFFERENCES = {9: 3, 10: 2, 11: 6}


@pytest.fixture(scope="module")
def events(samarkand_dir):
    return load_source(str(samarkand_dir))


@pytest.fixture(scope="module")
def made(samarkand_dir, events):
    """The two late-arrival tables, from the folder's event.json."""
    return arbiter_made(read_event_facts(samarkand_dir), events)


def test_arbiter_made_tables_come_from_event_json(made) -> None:
    assert made == {2: "CIV", 4: "MHL"}


def test_all_published_pairs(events, made) -> None:
    """Issue 13: reading event.json, the engine still makes 1116 of the 1127 published pairs."""
    result = compare_rounds(events, OLYMPIAD_2022, arbiter_made=made)
    assert (sum(c.identical for c in result), sum(c.total for c in result)) == (1116, 1127)


def test_rounds_with_reconstructed_colours(events, made) -> None:
    result = compare_rounds(events, OLYMPIAD_2022, arbiter_made=made)
    assert [c.round for c in result] == list(range(1, 12))
    for c in result:
        assert c.total - c.identical == KNOWN_DIFFERENCES.get(c.round, 0), (c.round, c.published_only, c.engine_only)
    assert result[0].identical == result[0].total == 101  # round 1 from the start list, exactly
    # the newcomer took the place of the team the rules gave the bye (data README, "Late arrivals")
    assert {c.round: c.arbiter_made for c in result if c.arbiter_made} == {2: (("CIV", "KIR"),), 4: (("TGA", "MHL"),)}
    assert (result[1].pairing.bye, result[3].pairing.bye) == ("KIR", "TGA")
    assert result[2].pairing.bye == "KIR"  # the official round-3 bye


def test_rounds_without_colours(events, made) -> None:
    """Without colours, the engine still reproduces rounds 1-3 exactly (no colour limit can bind yet)."""
    result = compare_rounds(events, OLYMPIAD_2022, arbiter_made=made, colours=False, rounds=[1, 2, 3])
    assert [(c.identical, c.total) for c in result] == [(101, 101), (101, 101), (102, 102)]
