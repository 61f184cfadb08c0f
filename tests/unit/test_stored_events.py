"""Issue 32: a log the product stored (a shipped log) is read without validating each field again
(``schemas.events.parse_stored_event``, ``projections.eventlog.read_log(path, stored=True)``):
the events are the ones ``parse_event`` gives, and a line the stored path does not recognise is
refused as in any log. A log a user hands in is still validated field by field."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from producers.shipped import shipped_logs
from producers.sources import read_source
from projections.eventlog import read_log, write_log
from schemas.canonical import canonical_json
from schemas.events import EVENT_TYPES, EventSchemaError, parse_event, parse_stored_event, stored_builder
from tests.factories import created, four_team_round_one

T = "t1"


def same(a, b) -> None:
    """``a`` and ``b`` are the same events: type, fields (in order), fields set, canonical text."""
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert type(x) is type(y), (x, y)
        assert list(x.__dict__.items()) == list(y.__dict__.items()), (x, y)
        assert x.model_fields_set == y.model_fields_set, (x, y)
        assert canonical_json(x) == canonical_json(y)
        assert hash(x) == hash(y) and x == y


@pytest.mark.parametrize("name", sorted(shipped_logs()))
def test_a_shipped_log_read_as_stored_gives_the_validated_events(name):
    path = shipped_logs()[name]
    validated = read_log(path)
    assert len(validated) > 4000
    same(read_log(path, stored=True), validated)
    same(read_source(name).events, validated)  # the shipped log is read as stored


STORED = [
    # every type the stored path builds without validation, in its current and older versions
    {"type": "BoardResultRecorded", "schema_version": 1, "event_id": "r1/t1/b1", "tournament_id": T, "round": 1,
     "table": 1, "board": 1, "white": "A, B", "black": "C, D", "result": "+/-", "reason": "late", "terminal_id": "term-1"},
    {"type": "BoardResultRecorded", "schema_version": 2, "event_id": "r1/t1/b2", "tournament_id": T, "round": 1,
     "table": 1, "board": 2, "result": "1/2-1/2", "occurred_at": "2026-09-12T15:00:00Z", "actor": "arb"},
    {"type": "BoardResultCorrected", "schema_version": 2, "event_id": "c1", "tournament_id": T, "supersedes": "r1/t1/b2",
     "round": 1, "table": 1, "board": 2, "result": "1-0", "reason": "scoresheet", "occurred_at": "2026-09-12T18:00:00+05:00"},
    {"type": "MatchForfeited", "schema_version": 1, "event_id": "f1", "tournament_id": T, "round": 1, "table": 2,
     "winner": None, "reason": "both absent"},
    {"type": "TeamWithdrawn", "schema_version": 2, "event_id": "w1", "tournament_id": T, "team_id": "A", "from_round": 3},
    {"type": "AbsenceAnnounced", "schema_version": 1, "event_id": "a1", "tournament_id": T, "round": 2, "team_id": "B"},
    {"type": "RoundClosed", "schema_version": 1, "event_id": "rc1", "tournament_id": T, "round": 1, "digest": "a" * 64},
    # nested models and tuples
    {"type": "TeamRegistered", "schema_version": 1, "event_id": "reg-A", "tournament_id": T, "team_id": "A", "name": "Team Ä",
     "federation": "UZB", "pairing_number": 3, "players": [
         {"board_order": 1, "name": "Abdusattorov, Nodirbek", "fide_id": "14204118", "title": "GM", "rating": 2766},
         {"board_order": 2, "name": "Yakubboev, Nodirbek"}]},
    {"type": "RosterChanged", "schema_version": 1, "event_id": "ros-A", "tournament_id": T, "team_id": "A",
     "players": [{"board_order": 1, "name": "X, Y", "title": "WIM"}], "reason": "illness"},
    {"type": "StartingRanksSet", "schema_version": 1, "event_id": "ranks", "tournament_id": T, "order": ["B", "A"]},
    {"type": "LineupSubmitted", "schema_version": 1, "event_id": "l1", "tournament_id": T, "round": 1, "team_id": "A",
     "boards": [1, 2, 3, 5]},
    {"type": "RoundPaired", "schema_version": 1, "event_id": "p1", "tournament_id": T, "round": 1,
     "tables": [{"table": 1, "home": "A", "away": "B"}, {"table": 2, "home": "C", "away": "D"}], "bye": "E", "absent": ["F"]},
    {"type": "PairingAmended", "schema_version": 1, "event_id": "am1", "tournament_id": T, "round": 1,
     "tables": [{"table": 1, "home": "B", "away": "A"}], "reason": "colours", "report": ["R-C1: colour"]},
]


@pytest.mark.parametrize("raw", STORED, ids=lambda raw: f"{raw['type']}-v{raw['schema_version']}")
def test_a_stored_event_is_the_event_parse_event_gives(raw):
    text = canonical_json(raw)
    same([parse_stored_event(text)], [parse_event(text)])
    same([parse_stored_event(text.encode())], [parse_event(text)])


def test_the_timestamps_of_a_stored_event_are_read_as_validated():
    event = parse_stored_event(canonical_json(STORED[2]))
    assert event.occurred_at == datetime(2026, 9, 12, 13, 0, tzinfo=timezone.utc)
    assert event.actor is None and event.schema_version == 2


def test_a_written_log_reads_alike(tmp_path):
    path = tmp_path / "log.jsonl.gz"
    events = four_team_round_one()
    assert {e.type for e in events} >= {"TournamentCreated", "TeamRegistered", "RoundPaired", "BoardResultRecorded"}
    write_log(path, events)
    validated = read_log(path)
    assert [canonical_json(e) for e in validated] == [canonical_json(e) for e in events]
    same(read_log(path, stored=True), validated)


BAD = {
    "not JSON": '{"type": "BoardResultRecorded", "event_id": ',
    "not an object": "[1, 2]",
    "unknown type": '{"type": "Nope", "event_id": "x", "tournament_id": "t1"}',
    "unknown version": canonical_json({**STORED[1], "schema_version": 9}),
    "unknown field": canonical_json({**STORED[1], "colour": "white"}),
    "missing field": canonical_json({k: v for k, v in STORED[1].items() if k != "board"}),
    "not a timestamp": canonical_json({**STORED[1], "occurred_at": "noon"}),
    "nested not an array": canonical_json({**STORED[-2], "tables": {"table": 1, "home": "A", "away": "B"}}),
    "nested model": canonical_json({"type": "RoundPaired", "schema_version": 2, "event_id": "p1", "tournament_id": T,
                                    "round": 1, "tables": [{"table": 1, "home": "A"}]}),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_line_the_stored_path_does_not_recognise_is_refused_as_in_any_log(case, tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text(canonical_json(created()) + "\n" + BAD[case] + "\n", encoding="utf-8")
    with pytest.raises(EventSchemaError) as validated:
        read_log(path)
    with pytest.raises(EventSchemaError) as stored:
        read_log(path, stored=True)
    assert str(stored.value) == str(validated.value) and str(stored.value).startswith("line 2:")
    assert (stored.value.field, stored.value.rule) == (validated.value.field, validated.value.rule)


def test_a_log_file_a_user_hands_in_is_validated_field_by_field(tmp_path):
    path = tmp_path / "log.jsonl"
    bad = {**STORED[1], "round": 100}  # a round the schema refuses; the stored path would not look
    path.write_text(canonical_json(created()) + "\n" + canonical_json(bad) + "\n", encoding="utf-8")
    with pytest.raises(EventSchemaError, match="line 2:.*round") as refused:
        read_source(str(path))
    assert refused.value.field == "round"


def test_only_types_with_validators_dates_or_dicts_are_validated():
    validated = {"TournamentCreated",  # its rule profile's own validators, and dates
                 "StandingsUpdated"}  # rows: dicts
    assert {kind for kind, cls in EVENT_TYPES.items() if stored_builder(cls) is None} == validated
