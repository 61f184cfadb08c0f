"""Issue 12, "What was seen": what was accepted although invalid, or converted instead of refused,
is now refused at the door with the field and the rule, and nothing is stored."""
from __future__ import annotations

import json

import pytest

from processors.deciders import handle
from processors.tournament import RuleViolation
from projections.store import EventStore
from schemas.canonical import canonical_json
from schemas.commands import parse_command
from schemas.events import EventSchemaError, parse_event
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022
from tests.factories import TID, four_team_round_one, imported, paired, stored, team


def _created_with(**update) -> dict:
    profile = {**OLYMPIAD_2008.model_dump(mode="json"), "name": "my-league", **update}
    return {"type": "TournamentCreated", "event_id": "c", "tournament_id": TID, "name": "My League", "profile": profile}


@pytest.mark.parametrize("update, field, rule", [
    ({"boards": 0}, "profile.boards", "boards at least 1"),
    ({"rounds": -3}, "profile.rounds", "rounds at least 1"),
    ({"match_points": {"win": 2, "draw": 1, "loss": -1}}, "profile.match_points.loss", "loss at least 0"),
    ({"match_points": {"win": 1, "draw": 2, "loss": 0}}, "profile.match_points", "R-D3 match points"),
    ({"tiebreaks": []}, "profile.tiebreaks", "tiebreaks: at least 1"),
    ({"match_points": {"win": 3, "draw": 1, "loss": 0}}, "profile", "C.04.7 art. 1.1"),
    ({"bye_award": {"mp": 3, "gp": 2}}, "profile", "R-D9 bye award"),
])
def test_an_invalid_profile_is_refused(update, field, rule):
    with pytest.raises(EventSchemaError) as refused:
        parse_event(_created_with(**update))
    assert (refused.value.field, refused.value.rule) == (field, rule)


def test_a_profile_keeping_a_built_in_name_with_other_rules_is_refused():
    store = EventStore("sqlite://")
    from schemas.events import TournamentCreated

    fake = TournamentCreated(event_id="created", tournament_id=TID, name="Fake", profile=OLYMPIAD_2022.model_copy(update={"rounds": 7}))
    with pytest.raises(RuleViolation) as refused:
        imported(store, [fake])
    assert (refused.value.field, refused.value.rule) == ("profile.name", "a profile's name names its rules")
    assert store.events() == []


def test_a_profile_over_other_rounds_has_one_name_at_every_door():
    """``olympiad new --rounds 7``, ``olympiad simulate --rounds 7`` and a drawn tournament all
    record ``<profile>-7-rounds`` (``schemas.profile.with_rounds``), a whole custom profile too;
    any other change to a built-in is a hashed variant (``named``)."""
    from producers.simulator import draw_spec
    from processors.tournament import TournamentState
    from schemas.profile import SWISS_TEAM_2026, named, with_rounds

    assert with_rounds(SWISS_TEAM_2026, 11) is SWISS_TEAM_2026
    create = {"command": "CreateTournament", "actor": {"role": "chief", "id": "chief"}, "tournament_id": TID,
              "name": "Club", "profile": "swiss-team-2026", "rounds": 7}
    created = handle(TournamentState(), parse_command(create)).events[0]
    assert (created.profile.name, created.profile.rounds) == ("swiss-team-2026-7-rounds", 7)
    assert created.profile == with_rounds(SWISS_TEAM_2026, 7)
    mine = {**OLYMPIAD_2008.model_dump(mode="json"), "name": "my-league"}
    custom = handle(TournamentState(), parse_command({**create, "profile": mine, "rounds": 5})).events[0].profile
    assert (custom.name, custom.rounds, custom.tiebreaks) == ("my-league-5-rounds", 5, OLYMPIAD_2008.tiebreaks)
    drawn = draw_spec(11, SWISS_TEAM_2026, rounds=(7, 7))
    assert (drawn.rounds, drawn.profile.name) == (7, "swiss-team-2026-7-rounds")
    assert named(drawn.profile) is drawn.profile
    variant = named(OLYMPIAD_2022.model_copy(update={"boards": 6})).name
    assert variant.startswith("olympiad-2022-variant-") and len(variant) == len("olympiad-2022-variant-") + 8


@pytest.mark.parametrize("field, value, rule", [
    ("round", True, "strict JSON types"),
    ("table", "1_0", "strict JSON types"),
    ("occurred_at", "2026", "timestamps: ISO 8601 text"),
    ("note", "late \ud800", "text: Unicode scalar values without control characters"),
    ("note", "nul \x00 byte", "text: Unicode scalar values without control characters"),
    ("tournament_id", f"{TID}/x", "tournament ids: lower-case letters, digits and '-', 1 to 64, starting with a letter or digit"),
])
def test_types_are_refused_not_converted(field, value, rule):
    raw = {"type": "BoardResultRecorded", "event_id": f"{TID}/r1/t1/b1", "tournament_id": TID, "round": 1, "table": 1, "board": 1,
           "result": "1-0", field: value}
    with pytest.raises(EventSchemaError) as refused:
        parse_event(raw)
    assert (refused.value.field, refused.value.rule) == (field, rule)
    with pytest.raises(EventSchemaError):  # the same through JSON text (a log line, a Kafka message)
        parse_event(json.dumps(raw))


def test_a_reason_of_spaces_or_five_megabytes_is_refused():
    base = {"command": "CorrectResult", "tournament_id": TID, "actor": {"role": "chief", "id": "chief"}, "round": 1,
            "table": 1, "board": 1, "result": "0-1"}
    for reason, rule in (("   ", "reason: not empty"), ("x" * 5_000_000, "input size limits")):
        with pytest.raises(EventSchemaError) as refused:
            parse_command(json.dumps({**base, "reason": reason}))
        assert refused.value.rule == rule
    deep = "[" * 100 + "]" * 100
    with pytest.raises(EventSchemaError) as refused:
        parse_command(deep)
    assert refused.value.rule == "input size limits"


def _store(events) -> EventStore:
    return stored(events)


def test_a_pairing_that_leaves_teams_out_or_has_no_tables_is_refused():
    store = _store(four_team_round_one()[:5])  # created, A-D registered
    for pairing, field, rule in (
        (paired(1, [("A", "C")]), "tables", "every present team paired once"),
        (paired(1, []), "tables", "every present team paired once"),
    ):
        with pytest.raises(RuleViolation) as refused:
            imported(store, [pairing])
        assert (refused.value.field, refused.value.rule) == (field, rule)
    assert len(store.events()) == 5


def test_a_late_entry_given_pairing_number_one_is_refused():
    store = _store(four_team_round_one())
    with pytest.raises(RuleViolation) as refused:
        imported(store, [team("E", 1)])
    assert (refused.value.field, refused.value.rule) == ("pairing_number", "stable pairing numbers")
    imported(store, [team("E", 5)])  # the next number is fine


def test_a_second_withdrawal_is_refused():
    state = _store(four_team_round_one()).state
    chief = {"role": "chief", "id": "chief"}
    first = parse_command({"command": "WithdrawTeam", "tournament_id": TID, "actor": chief, "team_id": "D", "reason": "ill"})
    handle(state, first)
    second = parse_command({"command": "WithdrawTeam", "tournament_id": TID, "actor": chief, "team_id": "D",
                            "from_round": 4, "reason": "left"})
    with pytest.raises(RuleViolation) as refused:
        handle(state, second)
    assert (refused.value.field, refused.value.rule) == ("team_id", "a team withdraws once") and state.withdrawn["D"] == 2


def test_lone_surrogate_text_never_reaches_the_store():
    store = _store(four_team_round_one())
    body = json.loads(canonical_json(four_team_round_one()[-1]))
    body.update(event_id="r1/t2/b4-again", note="\ud800")
    with pytest.raises(EventSchemaError):
        imported(store, [parse_event(body)])
    assert len(EventStore(engine=store.engine).events()) == len(four_team_round_one())


def test_one_tournament_per_log_for_commands_and_events():
    """A command or an event for another tournament, or before the tournament is created, is
    refused on ``tournament_id`` (the one rule, ``processors.rules.check_tournament``)."""
    from processors.rules import check_event
    from processors.tournament import TournamentState

    chief = {"role": "chief", "id": "chief"}
    withdraw = {"command": "WithdrawTeam", "actor": chief, "team_id": "D", "reason": "ill"}
    with pytest.raises(RuleViolation) as refused:
        handle(TournamentState(), parse_command({**withdraw, "tournament_id": TID}))
    assert (refused.value.field, refused.value.rule) == ("tournament_id", "tournament exists")
    state = _store(four_team_round_one()).state
    with pytest.raises(RuleViolation) as refused:
        handle(state, parse_command({**withdraw, "tournament_id": "other-open"}))
    assert (refused.value.field, refused.value.rule) == ("tournament_id", "one tournament per log")
    assert "command is for 'other-open', this log holds 'test-open'" in str(refused.value)
    with pytest.raises(RuleViolation) as refused:
        check_event(state, team("E", 5).model_copy(update={"tournament_id": "other-open"}))
    assert (refused.value.field, refused.value.rule) == ("tournament_id", "one tournament per log")
    assert "event is for 'other-open'" in str(refused.value) and "E" not in state.teams
