"""Issue 25 (one way in): an importer's facts enter a log only through the ``ImportFacts`` decider."""
from __future__ import annotations

from pathlib import Path

import pytest

from processors.deciders import handle
from processors.tournament import RuleViolation, TournamentState
from producers.sources import load_source
from projections.replay import replay
from schemas.canonical import canonical_json
from schemas.commands import Actor, ImportFacts, import_batches, parse_command
from schemas.events import EventSchemaError

SAMARKAND = Path(__file__).resolve().parents[3] / "shared" / "data" / "samarkand-2026-open"
IMPORTER = Actor(role="importer", id="import")
SAMARKAND_AFTER_11 = "ead914151892446a1f353a407cf91b571d7cf649e8cb7a430b3f8d01cdd094c8"  # docs/cli.md, the shipped log


@pytest.fixture(scope="module")
def facts() -> list:
    return load_source(str(SAMARKAND))


def test_a_data_sets_facts_imported_through_the_decider_give_the_replays_standings(facts):
    state = TournamentState()
    decision = handle(state, ImportFacts(tournament_id=facts[0].tournament_id, actor=IMPORTER, source="samarkand", facts=facts))
    assert len(decision.events) == len(facts) == 4735
    assert facts[1].actor is None and decision.events[1].actor == "import"  # the importing actor, in the trail
    again = handle(state, ImportFacts(tournament_id=facts[0].tournament_id, actor=IMPORTER, source="samarkand", facts=facts))
    assert again.already_recorded  # an identical re-import records nothing
    assert replay(list(decision.events)).rounds[11].digest == SAMARKAND_AFTER_11  # the published final table's


def test_a_large_import_travels_in_parts_that_parse_back(facts):
    command = ImportFacts(tournament_id=facts[0].tournament_id, actor=IMPORTER, source="samarkand", facts=facts)
    parts = import_batches(command)
    assert len(parts) == 2 and sum(len(p.facts) for p in parts) == 4735
    assert parse_command(canonical_json(parts[1])).facts == parts[1].facts


def test_a_fact_of_another_tournament_or_a_derived_event_is_refused(facts):
    other = facts[1].model_copy(update={"tournament_id": "elsewhere"})
    with pytest.raises(RuleViolation) as refused:
        handle(TournamentState(), ImportFacts(tournament_id=facts[0].tournament_id, actor=IMPORTER, source="x",
                                              facts=[facts[0], other]))
    assert (refused.value.field, refused.value.rule) == ("facts.1.tournament_id", "an import's facts are of its tournament")
    derived = {"type": "StandingsUpdated", "event_id": "x", "tournament_id": "t", "round": 1, "complete": True,
               "digest": "d", "rows": []}
    with pytest.raises(EventSchemaError) as bad:
        parse_command({"command": "ImportFacts", "tournament_id": "t", "actor": {"role": "importer", "id": "i"},
                       "source": "x", "facts": [derived]})
    assert "derived by the pipeline" in str(bad.value)


def test_an_importer_may_import_and_nothing_else(facts):
    state = TournamentState()
    handle(state, ImportFacts(tournament_id=facts[0].tournament_id, actor=IMPORTER, source="x", facts=facts[:1]))
    with pytest.raises(RuleViolation) as refused:
        handle(state, parse_command({"command": "SetStartingRanks", "tournament_id": facts[0].tournament_id,
                                     "actor": {"role": "importer", "id": "import"}}))
    assert refused.value.field == "actor"


def test_a_fact_twice_in_one_import_is_one_fact_and_a_different_one_under_its_id_is_refused():
    from tests.factories import four_team_round_one, stored

    events = four_team_round_one()
    assert len(stored(events + [events[-1]]).events()) == len(events)  # a redelivered line: recorded once
    with pytest.raises(RuleViolation) as refused:
        stored(events + [events[-1].model_copy(update={"result": "0-1"})])
    assert (refused.value.field, refused.value.event_id) == ("result", events[-1].event_id)
