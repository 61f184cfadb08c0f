"""Issue 25: one write path. Every event enters a log as the output of a decider: a raw event from
outside is a fact of an ``ImportFacts`` command, judged by the event rules (``processors.rules``)
that the command handlers' events meet too, so a rule holds whichever door an event comes
through: the store (``EmbeddedDoor``), the log loader (``olympiad replay`` of a foreign log file)
and HTTP (``/commands``) here, Kafka in the integration tests."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.commands_api import NEW_EVENT
from olympiad.web.embedded import EmbeddedBackend, store_engine
from processors.deciders import handle
from processors.tournament import RuleViolation
from producers.sources import IMPORTER
from projections.eventlog import write_log
from projections.replay import standings_after
from projections.store import EventStore
from schemas import event_ids
from schemas.commands import Actor, ImportFacts, parse_command
from schemas.events import MatchForfeited, RoundClosed
from tests.factories import TID, board, four_team_round_one, imported, match, paired, stored
from tests.web_app import embedded_app

CHIEF = {"role": "chief", "id": "chief"}
TOKEN = "chief-token-7c1d9e4b2a856f30"


def refused_at_store(events: list, bad: Any) -> RuleViolation:
    """Import ``events`` into a fresh store, then ``bad`` (``ImportFacts``): the refusal; the
    store is unchanged."""
    store = stored(events)
    before = len(store.events())
    with pytest.raises(RuleViolation) as refused:
        imported(store, [bad])
    assert len(store.events()) == before and bad.event_id not in store.state.applied
    assert refused.value.event_id == bad.event_id
    return refused.value


def refused_by_log_loader(tmp_path, events: list) -> str:
    """``olympiad replay`` of a foreign log file (no chain: an import) holding ``events``: exit
    status 2 and its one message."""
    path = tmp_path / "log.jsonl.gz"
    write_log(path, events)
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def refused_over_http(events: list, bad: Any) -> dict:
    """The ``ImportFacts`` command of ``bad`` posted by the chief arbiter to the web app's
    ``/commands`` over a store holding ``events``: 422, the refusal's body; the store is unchanged."""
    web, store, _ = embedded_app(events, chief=TOKEN)
    before = len(store.events())
    with TestClient(web) as client:
        r = client.post(f"/api/tournaments/{TID}/commands", headers={"Authorization": f"Bearer {TOKEN}"},
                        json={"command": "ImportFacts", "source": "raw.jsonl", "facts": [bad.model_dump(mode="json")]})
    assert r.status_code == 422, r.text
    assert len(store.events()) == before and bad.event_id not in store.state.applied
    return r.json()


def round_two(complete: bool = True) -> list:
    """``four_team_round_one`` (A-C 3-1, D-B 2-2) and round 2 paired A-D, B-C, played if ``complete``."""
    events = [*four_team_round_one(), paired(2, [("A", "D"), ("B", "C")])]
    return events + (match(2, 1, ("1-0", "1-0", "1-0", "1-0")) + match(2, 2, ("0-1", "0-1", "0-1", "0-1")) if complete else [])


# ---------------------------------------------------------------- 1. an event's id is the id of what it says
def test_a_raw_result_under_another_boards_id_is_refused_at_the_store_and_the_board_stays_free(tmp_path):
    events = [e for e in four_team_round_one() if e.event_id != event_ids.board(TID, 1, 2, 1)]
    squat = board(1, 1, 1, "1-0", event_id=event_ids.board(TID, 1, 2, 1))  # table 1 board 1 said, table 2's id
    exc = refused_at_store(events[:-7], squat)  # before any table-1 result: no other rule refuses it
    assert (exc.field, exc.rule) == ("event_id", "an event's id is derived from its content")
    assert str(exc) == (f"event_id: event id '{TID}/r1/t2/b1' is not the id of what the event says: {TID}/r1/t1/b1 "
                        "[rule: an event's id is derived from its content]")
    assert refused_over_http(events[:-7], squat)["rule"] == "an event's id is derived from its content"
    store = stored(events)
    assert len(imported(store, [board(1, 2, 1, "1/2-1/2")]).events) == 1  # table 2 board 1 is entered as usual
    message = refused_by_log_loader(tmp_path, events[:-7] + [squat])
    assert f"refused: event {TID}/r1/t2/b1: event_id:" in message and "[rule: an event's id is derived from its content]" in message


def test_a_correction_and_a_withdrawal_carry_their_own_ids():
    state = stored(four_team_round_one()).state
    decision = handle(state, parse_command({"command": "CorrectResult", "tournament_id": TID, "actor": CHIEF, "round": 1,
                                            "table": 1, "board": 2, "result": "1-0", "reason": "scoresheet"}))
    assert [e.event_id for e in decision.events] == [f"{TID}/r1/t1/b2/correction/1"]
    assert event_ids.matches(decision.events[0])
    assert not event_ids.matches(decision.events[0].model_copy(update={"event_id": f"{TID}/r1/t1/b3/correction/1"}))
    assert not event_ids.matches(decision.events[0].model_copy(update={"event_id": f"{TID}/r1/t1/b2/correction/0"}))


# ---------------------------------------------------------------- 2. a delayed duplicate is already recorded
def correction(result: str, reason: str) -> Any:
    return parse_command({"command": "CorrectResult", "tournament_id": TID, "actor": CHIEF, "round": 1, "table": 1,
                          "board": 1, "result": result, "reason": reason})


def test_a_delayed_retry_of_a_correction_is_already_recorded_and_reverts_nothing():
    state = stored(four_team_round_one()).state
    a, b = correction("0-1", "scoresheet signed 0-1"), correction("1/2-1/2", "appeal: the game was drawn")
    assert [e.event_id for e in handle(state, a).events] == [f"{TID}/r1/t1/b1/correction/1"]
    assert [e.event_id for e in handle(state, b).events] == [f"{TID}/r1/t1/b1/correction/2"]
    again = handle(state, a)
    assert again.already_recorded and [e.event_id for e in again.recorded] == [f"{TID}/r1/t1/b1/correction/1"]
    assert state.results[(1, 1, 1)] == (f"{TID}/r1/t1/b1/correction/2", "1/2-1/2")
    back = handle(state, correction("0-1", "appeal withdrawn: the scoresheet stands"))  # a new reason: a new decision
    assert [e.event_id for e in back.events] == [f"{TID}/r1/t1/b1/correction/3"]


def test_a_delayed_retry_of_a_correction_over_http_is_already_recorded():
    web, store, _ = embedded_app(four_team_round_one(), chief=TOKEN)
    chief = {"Authorization": f"Bearer {TOKEN}"}
    url = f"/api/tournaments/{TID}/rounds/1/tables/1/corrections"
    a = {"board": 1, "result": "0-1", "reason": "scoresheet signed 0-1"}
    with TestClient(web) as client:
        assert client.post(url, json=a, headers=chief).json()["accepted"] == 1
        assert client.post(url, json={**a, "result": "1/2-1/2", "reason": "appeal"}, headers=chief).json()["accepted"] == 1
        late = client.post(url, json=a, headers=chief)
    assert late.status_code == 201 and late.json()["accepted"] == 0
    assert late.json()["event_ids"] == [f"{TID}/r1/t1/b1/correction/1"]
    assert store.state.results[(1, 1, 1)] == (f"{TID}/r1/t1/b1/correction/2", "1/2-1/2")


# ---------------------------------------------------------------- 3. a forfeit's winner plays at the table
def test_a_forfeit_won_by_a_team_not_at_the_table_is_refused_naming_winner():
    events = [e for e in four_team_round_one() if not (e.type == "BoardResultRecorded" and e.table == 2)]
    web, store, _ = embedded_app(events, chief=TOKEN)
    chief = {"Authorization": f"Bearer {TOKEN}"}
    with TestClient(web) as client:
        r = client.post(f"/api/tournaments/{TID}/rounds/1/tables/2/forfeit", json={"winner": "A", "reason": "D absent"},
                        headers=chief)
        assert r.status_code == 422, r.text
        assert (r.json()["field"], r.json()["rule"]) == ("winner", "winner is one of the two teams")
        assert "'A' does not play at table 2 (D v B)" in r.json()["detail"]
        assert not any(e.type == "MatchForfeited" for e in store.events())  # not a double forfeit
        r = client.post(f"/api/tournaments/{TID}/commands", headers=chief, json={
            "command": "RecordForfeit", "round": 1, "table": 2, "winner": "C", "reason": "absence"})
        assert (r.status_code, r.json()["field"]) == (422, "winner")
        r = client.post(f"/api/tournaments/{TID}/rounds/1/tables/2/forfeit", json={"winner": "B", "reason": "D absent"},
                        headers=chief)
        assert r.status_code == 201, r.text
    assert store.state.board_codes(1, 2) == {1: "-/+", 2: "+/-", 3: "-/+", 4: "+/-"}  # B (away) wins every board


# ---------------------------------------------------------------- 6. the event rules hold for raw events
def test_a_raw_match_forfeit_without_a_reason_is_refused(tmp_path):
    events = [e for e in four_team_round_one() if not (e.type == "BoardResultRecorded" and e.table == 2)]
    bare = MatchForfeited(event_id=event_ids.match_forfeit(TID, 1, 2), tournament_id=TID, round=1, table=2, winner="B",
                          forfeit="other", note="")
    exc = refused_at_store(events, bare)
    assert (exc.field, exc.rule) == ("note", "a forfeit says why")
    assert "[rule: a forfeit says why]" in refused_by_log_loader(tmp_path, events + [bare])
    http = refused_over_http(events, bare)
    assert (http["field"], http["rule"]) == ("note", "a forfeit says why")
    assert len(stored(events + [bare.model_copy(update={"note": "D did not arrive"})]).events()) == len(events) + 1


def test_a_raw_board_forfeit_without_a_reason_is_refused(tmp_path):
    events = [e for e in four_team_round_one() if e.event_id != event_ids.board(TID, 1, 2, 4)]
    bare = board(1, 2, 4, "+/-").model_copy(update={"forfeit": "other"})
    exc = refused_at_store(events, bare)
    assert (exc.field, exc.rule) == ("note", "a forfeit says why")
    assert "[rule: a forfeit says why]" in refused_by_log_loader(tmp_path, events + [bare])
    assert refused_over_http(events, bare)["rule"] == "a forfeit says why"


def test_a_raw_rematch_is_refused_unless_the_note_gives_the_override_reason(tmp_path):
    rematch = paired(2, [("A", "C"), ("B", "D")])  # A-C and D-B met in round 1
    exc = refused_at_store(four_team_round_one(), rematch)
    assert (exc.field, exc.rule) == ("note", "an absolute pairing rule is broken only with a reason")
    assert "R-P1 repeat opponent" in str(exc)
    assert "[rule: an absolute pairing rule is broken only with a reason]" in refused_by_log_loader(
        tmp_path, four_team_round_one() + [rematch])
    http = refused_over_http(four_team_round_one(), rematch)
    assert (http["field"], http["rule"]) == ("note", "an absolute pairing rule is broken only with a reason")
    overridden = rematch.model_copy(update={"note": "amended by the chief arbiter: four teams; absolute rules overridden: "
                                                    "four teams cannot avoid a rematch"})
    assert len(stored(four_team_round_one() + [overridden]).events()) == len(four_team_round_one()) + 1


def test_a_raw_round_closed_with_another_digest_is_refused(tmp_path):
    state = stored(four_team_round_one()).state
    digest = standings_after(state, 1).digest
    wrong = RoundClosed(event_id=event_ids.closed(TID, 1), tournament_id=TID, round=1, digest="0" * 64)
    exc = refused_at_store(four_team_round_one(), wrong)
    assert (exc.field, exc.rule) == ("digest", "a closed round holds its standings' digest")
    assert f"({digest[:12]}...)" in str(exc)
    assert "[rule: a closed round holds its standings' digest]" in refused_by_log_loader(tmp_path, four_team_round_one() + [wrong])
    http = refused_over_http(four_team_round_one(), wrong)
    assert (http["field"], http["rule"]) == ("digest", "a closed round holds its standings' digest")
    assert stored(four_team_round_one() + [wrong.model_copy(update={"digest": digest})]).state.closed[1] == digest


def test_a_raw_pairing_before_the_previous_round_is_complete_is_refused(tmp_path):
    events = [e for e in four_team_round_one() if e.event_id != event_ids.board(TID, 1, 2, 4)]
    early = paired(2, [("A", "D"), ("B", "C")])
    exc = refused_at_store(events, early)
    assert (exc.field, exc.rule) == ("round", "pair a round when the previous round is complete")
    assert "round 1 is not complete: 1 match(es) still miss results" in str(exc)
    assert "[rule: pair a round when the previous round is complete]" in refused_by_log_loader(tmp_path, events + [early])
    http = refused_over_http(events, early)
    assert (http["field"], http["rule"]) == ("round", "pair a round when the previous round is complete")


def test_the_command_and_the_raw_event_meet_one_pairing_rule():
    """The handler (``PairRound``) and the event rule (``RoundPaired``, imported) call ``processors.rules.next_round``."""
    state = stored([e for e in four_team_round_one() if e.event_id != event_ids.board(TID, 1, 2, 4)]).state
    with pytest.raises(RuleViolation) as by_command:
        handle(state, parse_command({"command": "PairRound", "tournament_id": TID, "actor": CHIEF, "round": 2}))
    with pytest.raises(RuleViolation) as by_event:
        handle(state, ImportFacts(tournament_id=TID, actor=IMPORTER, source="raw", facts=[paired(2, [("A", "D"), ("B", "C")])]))
    assert str(by_command.value) == str(by_event.value)


# ---------------------------------------------------------------- 4. a round closed on the arbiter page is signed
def test_a_round_closed_through_http_carries_a_checkpoint_that_the_audit_verifies(tmp_path, monkeypatch):
    from producers.signing import ChiefKey

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("OLYMPIAD_KEY", raising=False)
    db = tmp_path / "web.sqlite"
    engine = store_engine(f"sqlite:///{db}")
    tokens = TokenStore(engine)
    tokens.set_chief_token(NEW_EVENT, TOKEN)
    web = create_app(EmbeddedBackend(EventStore(engine=engine)), tokens)
    web.state.chief_key = ChiefKey(None)  # what `olympiad serve --new` without --key sets: <id>.chief.key here
    chief = {"Authorization": f"Bearer {TOKEN}"}
    tid = "web-club"
    with TestClient(web) as client:
        def post(body: dict) -> dict:
            r = client.post(f"/api/tournaments/{tid}/commands", json=body, headers=chief)
            assert r.status_code == 201, r.text
            return r.json()

        r = client.post("/api/tournaments", json={"command": "CreateTournament", "tournament_id": tid, "name": "Web Club",
                                                  "profile": "olympiad-2022", "rounds": 3}, headers=chief)
        assert r.status_code == 201, r.text
        for n, code in enumerate("ABCD", start=1):
            post({"command": "RegisterTeam", "team": {"team_id": code, "name": f"Team {code}", "players": [
                {"board_order": b, "name": f"{code} {b}", "rating": 2400 - 100 * n - b} for b in range(1, 5)]}})
        post({"command": "PairRound", "round": 1})
        post({"command": "PublishRound", "round": 1})
        for table in (1, 2):
            post({"command": "RecordResults", "round": 1, "table": table,
                  "boards": [{"board": b, "result": "1-0"} for b in range(1, 5)]})
        closed = post({"command": "CloseRound", "round": 1})
        published = client.get(f"/api/tournaments/{tid}/checkpoints").json()  # issue 27: the anchors, published
        page = client.get("/").text
    assert closed["event_ids"] == [f"{tid}/r1/closed", f"{tid}/r1/checkpoint"]
    assert (tmp_path / f"{tid}.chief.key").exists()
    state = EventStore(f"sqlite:///{db}").state
    assert state.checkpoints[1].public_key == state.created.chief_key
    assert published["chief_key"] == state.created.chief_key
    assert [c["event_id"] for c in published["checkpoints"]] == [f"{tid}/r1/checkpoint"]
    assert published["checkpoints"][0]["events"] == 15  # the log as round 1 was closed, before its RoundClosed
    assert state.checkpoints[1].head in page and f"/api/tournaments/{tid}/checkpoints" in page
    copy = tmp_path / "checkpoints.json"
    copy.write_text(json.dumps(published))
    result = CliRunner().invoke(cli, ["audit", f"sqlite:///{db}", "--against", str(copy)], env={"COLUMNS": "300"})
    out = " ".join(result.output.split())
    assert result.exit_code == 0, out
    assert "rounds 1-1 reproduced, 1 signed checkpoint(s)" in out and "everything agrees, anchored to 1 published" in out
    assert re.search(r"round 1 .*checkpoint", out), out


# ---------------------------------------------------------------- 5. the served tables read what the CLI stores beside them
def test_a_rounds_last_board_entered_beside_serve_then_the_next_round_published_shows_in_its_standings(tmp_path):
    """The CLI enters round 1's last board and publishes round 2 on the store ``serve`` serves:
    ``/standings/1`` and the scoreboard show round 1 with that board at once (not only once round 2
    is complete)."""
    from producers.doors import EmbeddedDoor

    db = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    last = board(1, 2, 4, "1-0")
    stored([e for e in four_team_round_one() if e.event_id != last.event_id], db)
    engine = store_engine(db)
    with TestClient(create_app(EmbeddedBackend(EventStore(engine=engine)), TokenStore(engine))) as client:
        before = client.get(f"/api/tournaments/{TID}/standings/1").json()
        assert before["complete"] is False
        cli = EmbeddedDoor(EventStore(db))  # another process: the arbiter's CLI commands
        for body in ({"command": "RecordResult", "round": 1, "table": 2, "board": 4, "result": "1-0"},
                     {"command": "PairRound", "round": 2}, {"command": "PublishRound", "round": 2}):
            assert cli.submit(parse_command({**body, "tournament_id": TID, "actor": CHIEF})).accepted
        after = client.get(f"/api/tournaments/{TID}/standings/1").json()
        board_view = client.get(f"/api/tournaments/{TID}/scoreboard").json()
    expected = EventStore(db).project().rounds[1]
    assert expected.complete and after["complete"] is True
    assert after["digest"] == expected.digest != before["digest"]
    assert (board_view["based_on"], board_view["provisional"], board_view["digest"]) == (1, False, expected.digest)
    assert [r["team_id"] for r in board_view["rows"]] == [r.team_id for r in expected.rows]


def test_an_import_by_a_terminal_or_a_captain_is_refused_naming_the_actor():
    """Raw events enter only as ``ImportFacts``, which the importer and the chief arbiter may issue
    (``processors.rules.ALLOWED``): a terminal's or a captain's import is refused at the store and
    over HTTP (a terminal's token), by the one role rule ``processors.rules.check_role``."""
    store = stored(round_two(complete=True)[:-8])  # round 2 published, no result yet
    before = len(store.events())
    for actor in (Actor(role="terminal", id="t1", table=1), Actor(role="captain", id="cap-a", team="A")):
        with pytest.raises(RuleViolation) as refused:
            imported(store, [board(2, 1, 1, "1-0")], actor=actor)
        assert (refused.value.field, refused.value.rule) == ("actor", "ImportFacts by chief or importer")
        assert f"{actor.role} {actor.id!r} may not ImportFacts" in str(refused.value)
    assert len(store.events()) == before
    web, store, _ = embedded_app(round_two(complete=True)[:-8], chief=TOKEN)
    with TestClient(web) as client:
        chief = {"Authorization": f"Bearer {TOKEN}"}
        r = client.post(f"/api/tournaments/{TID}/terminals", json={"terminal_id": "t1", "tables": [1]}, headers=chief)
        assert r.status_code == 201, r.text
        terminal = {"Authorization": f"Bearer {r.json()['token']}"}
        r = client.post(f"/api/tournaments/{TID}/commands", headers=terminal, json={
            "command": "ImportFacts", "source": "raw.jsonl", "facts": [board(2, 1, 1, "1-0").model_dump(mode="json")]})
        assert r.status_code == 403, r.text
        assert (r.json()["field"], r.json()["rule"]) == ("actor", "ImportFacts by chief or importer")
    assert len(store.events()) == before


def test_serve_new_takes_the_key_file_and_refuses_one_that_holds_no_key(tmp_path):
    bad = tmp_path / "chief.key"
    bad.write_text("not a key\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["serve", "--new", "Club", "--db", f"sqlite:///{tmp_path / 'new.sqlite'}",
                                      "--port", "0", "--key", str(bad)])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, message
    assert message.startswith(f"refused: --key {bad}:") and "Traceback" not in message


def test_a_forfeit_won_by_a_team_not_at_the_table_is_refused_on_the_command_line(tmp_path):
    db = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    stored([e for e in four_team_round_one() if not (e.type == "BoardResultRecorded" and e.table == 2)], db)
    result = CliRunner().invoke(cli, ["forfeit", TID, "1", "2", "--winner", "A", "--reason", "absence", "--db", db])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, message
    assert "winner: 'A' does not play at table 2 (D v B) [rule: winner is one of the two teams]" in message
    assert not any(e.type == "MatchForfeited" for e in EventStore(db).events())
    result = CliRunner().invoke(cli, ["forfeit", TID, "1", "2", "--winner", "D", "--reason", "absence", "--db", db])
    assert result.exit_code == 0, result.output
    assert EventStore(db).state.board_codes(1, 2) == {1: "+/-", 2: "-/+", 3: "+/-", 4: "-/+"}  # D (home) wins every board


def test_a_log_file_whose_chain_does_not_hold_it_is_refused_naming_the_file_and_line(tmp_path):
    """A log file with its chain file is a log the product wrote (``olympiad export``): replayed,
    not imported. A line changed or a line cut after it was written is refused, naming the file
    and the line, ``[rule: the log's hash chain]``."""
    log = tmp_path / "club.events.jsonl"
    events = four_team_round_one()
    write_log(log, events, with_chain=True)
    replayed = CliRunner().invoke(cli, ["replay", str(log), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert replayed.output.strip() == standings_after(stored(events).state, 1).canonical
    lines = log.read_text(encoding="utf-8").splitlines()
    for edited, line in ((lines[:8] + [lines[8].replace('"1-0"', '"0-1"')] + lines[9:], 9), (lines[:-1], len(lines))):
        log.write_text("\n".join(edited) + "\n", encoding="utf-8")
        result = CliRunner().invoke(cli, ["replay", str(log)])
        message = " ".join(result.output.split())
        assert result.exit_code == 2, message
        assert f"{log} line {line}:" in message and message.endswith("[rule: the log's hash chain]"), message
