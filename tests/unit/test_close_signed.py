"""Issue 27: closing a round and signing its checkpoint are one decision (``CloseRound`` carries
the chief arbiter's signature of the log as it stands): a ``round close`` whose stdout is closed
early still records both; closing a closed round again signs nothing new; a signature of a log
that moved on is refused (the door signs again)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from processors.deciders import handle
from processors.rules import CHECKPOINT_HEAD
from processors.tournament import RuleViolation
from producers.doors import EmbeddedDoor
from producers.signing import ChiefKey, checkpoint_basis, close_signed, load_or_create_key, public_hex, signed_head
from projections.store import EventStore
from schemas.canonical import canonical_json
from schemas.chain import chain_of, checkpoint_message, checkpoints_start, signed_message
from schemas.commands import parse_command
from schemas.events import parse_event
from tests.factories import TID, four_team_round_one, imported, paired, stored


@pytest.fixture()
def club(tmp_path):
    """Round 1 of four teams complete on a SQLite store whose tournament has the key ``club.key``."""
    key_file = tmp_path / "club.key"
    events = four_team_round_one()
    events[0] = events[0].model_copy(update={"chief_key": public_hex(load_or_create_key(key_file))})
    db = f"sqlite:///{tmp_path / 'club.sqlite'}"
    stored(events, db)
    return db, key_file


def test_a_round_close_whose_stdout_is_closed_early_records_the_close_and_its_checkpoint(club):
    db, key_file = club
    before = len(EventStore(db).events())
    proc = subprocess.Popen([sys.executable, "-m", "olympiad", "round", "close", TID, "1", "--db", db],
                            env=os.environ | {"OLYMPIAD_KEY": str(key_file)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # as `| head -1` does once it has its line: every later write fails
    proc.wait(timeout=120)
    store = EventStore(db)
    ids = [e.event_id for e in store.events()]
    assert ids[before:] == [f"{TID}/r1/closed", f"{TID}/r1/checkpoint"]
    cp = store.state.checkpoints[1]
    assert cp.events == before and cp.previous == checkpoints_start(TID)
    assert cp.head == chain_of(TID, [canonical_json(e) for e in store.events()][:before])[-1]


def test_closing_a_closed_round_again_signs_nothing_new_and_the_audit_agrees(club):
    db, key_file = club
    env = {"OLYMPIAD_KEY": str(key_file), "COLUMNS": "300"}
    runner = CliRunner()
    assert runner.invoke(app, ["round", "close", TID, "1", "--db", db], env=env).exit_code == 0
    signed = EventStore(db).state.checkpoints[1]
    store = EventStore(db)
    imported(store, [paired(2, [("A", "B"), ("C", "D")])])  # the log moves on
    again = runner.invoke(app, ["round", "close", TID, "1", "--db", db], env=env)
    assert again.exit_code == 0 and "already recorded" in again.output, again.output
    assert EventStore(db).state.checkpoints[1] == signed  # not a signature of the log's current head
    key = public_hex(load_or_create_key(key_file))
    audited = runner.invoke(app, ["audit", db, "--key", key, "--no-trail"], env=env)
    assert audited.exit_code == 0, audited.output
    assert " ".join(audited.output.split()).endswith(f"audit: everything agrees, anchored to the pinned key {key[:12]}...; "
                                                     "not checked: the published checkpoints (no --against): a log cut after "
                                                     "its last checkpoint reads the same")


def test_a_signature_of_a_log_that_moved_on_is_refused_and_nothing_is_decided(club):
    db, key_file = club
    store = EventStore(db)
    state = store.state
    n = len(state.applied)
    basis = checkpoint_basis(1, state, n - 1, store.chain_head)  # signed one event too early
    command = parse_command({"command": "CloseRound", "tournament_id": TID, "actor": {"role": "chief", "id": "chief"},
                             "round": 1, "checkpoint": signed_head(TID, basis, load_or_create_key(key_file))})
    with pytest.raises(RuleViolation) as refused:
        handle(state, command)
    assert refused.value.rule == CHECKPOINT_HEAD and refused.value.field == "checkpoint.events"
    assert str(refused.value).startswith(f"checkpoint.events: the checkpoint signs a log of {n - 1} events; round 1 was "
                                         f"closed after {n}: sign the log as it stands")
    assert 1 not in state.closed and len(state.applied) == n
    basis = checkpoint_basis(1, state, n, store.chain_head)
    decision = handle(state, command.model_copy(update={"checkpoint": command.checkpoint.model_copy(
        update=signed_head(TID, basis, load_or_create_key(key_file)))}))
    assert [e.type for e in decision.events] == ["RoundClosed", "CheckpointSigned"]


def test_the_door_signs_again_when_the_log_moved_on_between_reading_and_deciding(club):
    db, key_file = club
    door = EmbeddedDoor(EventStore(db))
    n = len(door.store.state.applied)
    fresh = checkpoint_basis(1, *door.log_head(TID))
    readings = iter([{**fresh, "events": n - 1}, fresh])  # the first as read before the log's last event
    sent: list = []

    def decide(checkpoint):
        sent.append(checkpoint)
        return door.submit(parse_command({"command": "CloseRound", "tournament_id": TID, "round": 1, "checkpoint": checkpoint,
                                          "actor": {"role": "chief", "id": "chief"}}))

    outcome = close_signed(TID, 1, ChiefKey(key_file), lambda: next(readings), decide)
    assert outcome.accepted and outcome.event_ids == (f"{TID}/r1/closed", f"{TID}/r1/checkpoint")
    assert [c["events"] for c in sent] == [n - 1, n]
    assert door.store.state.checkpoints[1].events == n


def test_a_version_1_checkpoint_reads_with_its_own_signed_message():
    raw = {"type": "CheckpointSigned", "schema_version": 1, "event_id": f"{TID}/r1/checkpoint", "tournament_id": TID,
           "round": 1, "head": "a" * 64, "standings_digest": "b" * 64, "pairing_digest": "c" * 64, "public_key": "d" * 64,
           "signature": "e" * 128}
    cp = parse_event(raw)
    assert cp.schema_version == 2 and cp.events is None and cp.previous is None
    assert signed_message(cp) == checkpoint_message(TID, 1, "a" * 64, "b" * 64, "c" * 64) == \
        f"olympiad-events checkpoint\n{TID}\n1\n{'a' * 64}\n{'b' * 64}\n{'c' * 64}".encode()
