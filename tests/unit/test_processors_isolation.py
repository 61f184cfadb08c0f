"""Issue 12: the processors judge each message on its own (in-process ``Judge`` over a dict store).

A poison message inside a batch is refused alone and never touches its batch mates or the state;
messages without a key are refused; a crafted tournament id ``T/x`` is never read as part of
``T``; a dead letter of a message near the broker's 1 MB limit still fits the broker. Issue 25:
a raw event is refused whatever its type (input topics carry commands), and the rebuild from the
store replays only.
"""
from __future__ import annotations

import hashlib
import json

import pytest

from processors import judge as processors
from processors.judge import COMMANDS_ONLY, Judge, entry_seq, judge_message
from schemas.canonical import canonical_json
from schemas.dead_letters import dead_letter
from tests.factories import TID, board, four_team_round_one
from tests.kafka_messages import import_body, imported

KEY = TID.encode()


def judged(judge: Judge, store: dict, messages: list[tuple[bytes, bytes | None]]) -> list:
    """Judge ``messages`` as one batch (as ``processors.app.judge_batch`` does) and commit it to ``store``."""
    verdicts = [judge_message(judge, raw, key) for raw, key in messages]
    for _, key, value in judge.commit():
        store[key] = value
    return verdicts


def registration() -> list[bytes]:
    return [imported(e) for e in four_team_round_one()[:6]]  # created, 4 teams, round 1 pairing


def test_a_poison_message_is_refused_alone_and_its_batch_mates_survive(monkeypatch):
    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()])
    first, second = imported(board(1, 1, 1, "1-0")), imported(board(1, 1, 2, "0-1"))
    poison = imported(board(1, 1, 3, "1-0"))
    real_handle = processors.handle

    def exploding(state, command):  # a failure after the state took the event: a bug no rule foresaw
        decision = real_handle(state, command)
        if command.facts[0].event_id == f"{TID}/r1/t1/b3":
            raise TypeError("unhashable type: 'list'")
        return decision

    monkeypatch.setattr(processors, "handle", exploding)
    verdicts = judged(judge, store, [(first, KEY), (poison, KEY), (second, KEY)])
    assert [v.accepted for v in verdicts] == [True, False, True]
    assert (verdicts[1].field, verdicts[1].rule) == ("(message)", "judged without error")
    assert "TypeError" in verdicts[1].reason
    # The poison's effect on the state was undone: board 3 is still open, boards 1 and 2 are in.
    assert judge.state(TID).board_codes(1, 1) == {1: "1-0", 2: "0-1"}
    # ... and so after a restart: the store holds the batch's valid events, not the poison.
    again = Judge(store)
    assert again.state(TID).board_codes(1, 1) == {1: "1-0", 2: "0-1"}
    monkeypatch.setattr(processors, "handle", real_handle)
    assert judge_message(again, poison, KEY).accepted


@pytest.mark.parametrize("value", [
    json.dumps(import_body({"type": ["BoardResultRecorded"], "event_id": "x", "tournament_id": TID})).encode(),
    json.dumps(import_body({"type": {"a": 1}, "event_id": "x", "tournament_id": TID})).encode(),
    b"[" * 100_000 + b"]" * 100_000,
    json.dumps(import_body({"type": "BoardResultRecorded", "event_id": f"{TID}/r1/t1/b4", "tournament_id": TID, "round": 1,
                            "table": 1, "board": 4, "result": "1-0", "reason": "\ud800"})).encode(),
    b"\xff\xfe not utf-8",
    None,
])
def test_malformed_messages_are_dead_letters_and_valid_ones_around_them_are_accepted(value):
    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()])
    before = imported(board(1, 2, 1, "1-0"))
    after = imported(board(1, 2, 2, "1-0"))
    verdicts = judged(judge, store, [(before, KEY), (value, KEY), (after, KEY)])
    assert [v.accepted for v in verdicts] == [True, False, True]
    assert verdicts[1].field and verdicts[1].rule
    assert Judge(store).state(TID).board_codes(1, 2) == {1: "1-0", 2: "1-0"}


def test_a_message_without_a_key_is_refused_like_a_wrongly_keyed_one():
    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()])
    unkeyed, wrong = judged(judge, store, [(imported(board(1, 1, 1, "1-0")), None),
                                           (imported(board(1, 1, 1, "1-0")), b"other")])
    assert not unkeyed.accepted and not wrong.accepted
    assert unkeyed.field == wrong.field == "key"
    assert unkeyed.rule == wrong.rule == "input events are keyed by tournament id"
    assert judge.state(TID).board_codes(1, 1) == {}


def test_a_crafted_tournament_id_is_not_read_as_part_of_the_real_one():
    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()])
    crafted = f"{TID}/x"
    body = json.loads(canonical_json(four_team_round_one()[0]))
    body.update(tournament_id=crafted, event_id="crafted")
    store[f"{crafted}/0"] = json.dumps([json.dumps(body)])  # whatever a looser build let in
    store[f"{TID}/x/0"] = "not even JSON"
    restarted = Judge(store)  # after a restart every state is rebuilt from the store
    verdict = judge_message(restarted, imported(board(1, 1, 1, "1-0")), KEY)
    assert verdict.accepted, verdict.reason
    assert restarted.state(TID).tournament_id == TID and len(restarted.state(TID).teams) == 4
    assert entry_seq(f"{TID}/x/0", TID) is None and entry_seq(f"{TID}/12", TID) == 12


def test_a_bad_stored_entry_is_skipped_on_rebuild_not_fatal_for_the_tournament():
    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()])
    store[f"{TID}/1"] = json.dumps(['{"type": "BoardResultRecorded", "round": true}'])
    restarted = Judge(store)
    assert judge_message(restarted, imported(board(1, 1, 1, "1-0")), KEY).accepted
    entries = restarted.commit()
    assert [key for _, key, _ in entries] == [f"{TID}/2"]  # the next entry after the skipped one, not over it


def test_a_dead_letter_of_a_message_near_1_mb_fits_the_broker():
    value = json.dumps({"type": "BoardResultRecorded", "reason": "x" * 1_000_000}).encode()
    envelope = dead_letter({"topic": "board-results", "partition": 0, "offset": 7}, KEY, value, "reason",
                           "size", "r" * 900_000)
    assert len(envelope) < 64 * 1024
    body = json.loads(envelope)
    assert body["truncated"] is True and body["value_bytes"] == len(value)
    assert body["value_sha256"] == hashlib.sha256(value).hexdigest()
    assert value.decode().startswith(body["value"])
    small = json.loads(dead_letter({}, KEY, b'{"a": 1}', "f", "r", "why"))
    assert small["value"] == '{"a": 1}' and small["truncated"] is False


@pytest.mark.parametrize("event", [board(1, 1, 1, "1-0"), four_team_round_one()[0]])
def test_a_raw_event_is_refused_whatever_its_type(event):
    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()[:1]] if event.type != "TournamentCreated" else [])
    verdict = judge_message(judge, canonical_json(event).encode(), KEY)
    assert (verdict.accepted, verdict.field, verdict.rule) == (False, "command", COMMANDS_ONLY)
    assert verdict.reason == (f"command: {event.type} without a \"command\" came on an input topic; input topics carry "
                              "commands only: an event enters the log as a command's decision (an importer's facts as "
                              "ImportFacts) [rule: input topics carry commands]")
    derived = {"type": "StandingsUpdated", "event_id": "x", "tournament_id": TID}
    assert judge_message(judge, json.dumps(derived).encode(), KEY).rule == COMMANDS_ONLY


def test_the_rebuild_replays_the_stored_events_without_judging_them_again(monkeypatch):
    """Decide once: a forfeit stored by an older build whose note a tightened rule would refuse is
    replayed as it was accepted (``replay_stored``: evolve, no rule check)."""
    from processors import rules

    store: dict = {}
    judge = Judge(store)
    judged(judge, store, [(raw, KEY) for raw in registration()])
    forfeit = {"type": "MatchForfeited", "schema_version": 2, "event_id": f"{TID}/r1/t2/forfeit", "tournament_id": TID,
               "round": 1, "table": 2, "winner": "B", "forfeit": "absence", "note": "late"}
    assert judged(judge, store, [(json.dumps(import_body(forfeit)).encode(), KEY)])[0].accepted
    monkeypatch.setattr(rules, "FORFEIT_NOTE_MIN", 10)
    again = judge_message(Judge({}), json.dumps(import_body(*map(json.loads, registration_facts()), forfeit)).encode(), KEY)
    assert (again.accepted, again.field) == (False, "note")  # the tightened rule holds for what comes now ...
    restarted = Judge(store)
    assert restarted.state(TID).board_codes(1, 2) == {1: "-/+", 2: "+/-", 3: "-/+", 4: "+/-"}  # ... not for what was decided


def registration_facts() -> list[str]:
    return [canonical_json(e) for e in four_team_round_one()[:6]]
