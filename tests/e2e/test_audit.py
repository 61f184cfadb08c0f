"""Issue 16: the audit of a tournament's log, untouched and tampered (a copy of the log file and
of the event store's database): every tampering is detected and named."""
from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from projections.audit import trail
from projections.eventlog import write_log
from tests import tournament_script as script

TID = script.TID


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory):
    """The 31-team tournament on a SQLite store with its read models, and its log file."""
    tmp = tmp_path_factory.mktemp("audit")
    _, store, db = script.play_embedded(tmp)
    store.project()  # the read models a scoreboard reads: standings documents, matches, the proposal
    log = tmp / "club.events.jsonl"
    write_log(log, store.events())
    return db, log, store


def audit(*argv: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["audit", *argv, "--no-trail"], env={"COLUMNS": "300"})
    return result.exit_code, " ".join(result.output.split())


def test_the_untouched_log_and_store_agree(club):
    db, log, store = club
    assert audit(str(log)) == (0, f"{TID}: {len(store.events())} events, rounds 1-11 reproduced, 11 signed checkpoint(s), "
                               "nothing published beside the log to compare with audit: everything agrees")
    code, out = audit(f"sqlite:///{db}")
    assert code == 0, out
    assert "11 published standings, 11 published pairings" in out and "everything agrees" in out


def _copy(db: Path, tmp_path: Path) -> tuple[str, sqlite3.Connection]:
    copy = tmp_path / "copy.sqlite"
    shutil.copy(db, copy)
    return f"sqlite:///{copy}", sqlite3.connect(copy)


def _row(conn: sqlite3.Connection, event_id: str) -> tuple[int, dict]:
    seq, body = conn.execute("select seq, body from events where event_id = ?", (event_id,)).fetchone()
    return seq, json.loads(body)


def _body(event: dict) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def test_a_changed_result_is_named_in_the_database(club, tmp_path):
    url, conn = _copy(club[0], tmp_path)
    victim = f"{TID}/r3/t2/b1"
    seq, event = _row(conn, victim)
    event["result"] = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[event["result"]]
    conn.execute("update events set body = ? where seq = ?", (_body(event), seq))
    conn.commit()
    code, out = audit(url)
    assert code == 1
    assert f"DIVERGENCE chain: round 3: {victim}: the stored hash" in out and f"(seq {seq})" in out
    assert f"DIVERGENCE checkpoint: round 3: {TID}/r3/checkpoint: signed chain head" in out
    assert "DIVERGENCE standings: round 3:" in out  # the read model shows what was published


def test_a_deleted_and_two_swapped_events_are_named(club, tmp_path):
    url, conn = _copy(club[0], tmp_path)
    seq, _ = _row(conn, f"{TID}/r5/t4/b2")
    conn.execute("delete from events where seq = ?", (seq,))
    conn.commit()
    code, out = audit(url)
    assert code == 1 and f"DIVERGENCE chain: round 5: {TID}/r5/t4/b3: the stored hash" in out  # the event after it
    url, conn = _copy(club[0], tmp_path)
    a, ea = _row(conn, f"{TID}/r6/t1/b1")
    b, eb = _row(conn, f"{TID}/r6/t1/b2")
    conn.execute("update events set body = ?, event_id = 'x' where seq = ?", (_body(eb), a))
    conn.execute("update events set body = ?, event_id = ? where seq = ?", (_body(ea), ea["event_id"], b))
    conn.execute("update events set event_id = ? where seq = ?", (eb["event_id"], a))
    conn.commit()
    code, out = audit(url)
    assert code == 1 and f"DIVERGENCE chain: round 6: {TID}/r6/t1/b2: the stored hash" in out and f"(seq {a})" in out
    assert f"the hash stored here is that of {TID}/r6/t1/b1 (seq {b}), which the log has later" in out


def test_a_checkpoint_signed_with_another_key_is_named(club, tmp_path):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from producers.signing import public_hex
    from schemas.chain import checkpoint_message

    db, log, store = club
    lines = log.read_text().splitlines()
    i = next(n for n, line in enumerate(lines) if f'"{TID}/r4/checkpoint"' in line)
    cp = json.loads(lines[i])
    other = Ed25519PrivateKey.generate()
    cp["public_key"] = public_hex(other)
    cp["signature"] = other.sign(checkpoint_message(TID, 4, cp["head"], cp["standings_digest"], cp["pairing_digest"])).hex()
    lines[i] = _body(cp)
    forged = tmp_path / "forged.jsonl.gz"
    with gzip.open(forged, "wt") as fh:
        fh.write("\n".join(lines) + "\n")
    code, out = audit(str(forged))
    assert code == 1
    assert f"DIVERGENCE checkpoint: round 4: {TID}/r4/checkpoint: signed with key {cp['public_key'][:12]}..., not the " \
           f"chief arbiter's {store.state.created.chief_key[:12]}..." in out
    # the same forgery against the key the auditor trusts, and a file whose result was changed
    code, out = audit(str(forged), "--key", store.state.created.chief_key)
    assert code == 1 and "round 4" in out
    j = next(n for n, line in enumerate(lines) if f'"{TID}/r2/t5/b4"' in line)
    changed = json.loads(lines[j])
    changed["result"] = "1-0" if changed["result"] != "1-0" else "0-1"
    lines[i], lines[j] = log.read_text().splitlines()[i], _body(changed)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    code, out = audit(str(edited))
    assert code == 1 and f"DIVERGENCE checkpoint: round 2: {TID}/r2/checkpoint: signed chain head" in out
    assert f"DIVERGENCE checkpoint: round 2: {TID}/r2/checkpoint: signed standings digest" in out


def test_published_standings_with_a_changed_value_are_named(club, tmp_path):
    url, conn = _copy(club[0], tmp_path)
    body, = conn.execute("select body from standings_documents where round = 7").fetchone()
    doc = json.loads(body)
    row = doc["rows"][2]
    row["mp"] += 2
    conn.execute("update standings_documents set body = ? where round = 7", (_body(doc),))
    conn.commit()
    code, out = audit(url)
    assert code == 1
    assert f"DIVERGENCE standings: round 7: {row['team_id']}: mp: published {row['mp']}, the log gives {row['mp'] - 2}" in out


def test_the_audit_trail_lists_every_arbiter_action_with_its_reason(club):
    db, log, store = club
    result = CliRunner().invoke(app, ["audit", str(log)], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    text = " ".join(result.output.split())
    for action in ("late correction: table 1 board 2", "the scoresheet of board 2 was misread",
                   "board forfeit: table 2 board 3 -/+ (late-arrival)", "(handshake-refusal)",
                   "match forfeit: table 5 won by", "did not arrive", "T20 withdrawn from round 7",
                   "the team left the event after round 6", "late entry LTE from round 3", "T10 absent in round 5",
                   "travel: the team arrives for round 6", "round 11 closed"):
        assert action in text, action
    actions = trail(store.state)
    assert len([a for a in actions if a.what.startswith("round ") and a.what.endswith(" closed")]) == 11
    assert all(a.who in ("chief", "arbiter") for a in actions)


def test_the_audit_trail_is_in_the_trf_export(club, tmp_path):
    db, log, store = club
    out = tmp_path / "club.trf"
    assert CliRunner().invoke(app, ["export-trf", str(log), str(out)]).exit_code == 0
    lines = [line for line in out.read_text().splitlines() if line.startswith("### olympiad-events audit ")]
    assert len(lines) == len(trail(store.state))
    assert any("| chief | round 4 | late correction: table 1 board 2" in line and "misread" in line for line in lines)
    from producers.importers.trf import load_trf

    assert load_trf(out.read_text())  # the trail does not disturb a reader


def test_a_log_file_with_its_chain_file_names_the_changed_deleted_and_moved_event(club, tmp_path):
    db, log, store = club
    lines = log.read_text().splitlines()
    copy = tmp_path / "copy.events.jsonl"
    write_log(copy, store.events(), with_chain=True)
    assert (tmp_path / "copy.events.jsonl.chain").is_file()
    exported = tmp_path / "exported.events.jsonl"  # olympiad export writes the same chain from its own lines
    assert CliRunner().invoke(app, ["export", str(log), str(exported)]).exit_code == 0
    assert exported.read_text() == log.read_text()
    assert (tmp_path / "exported.events.jsonl.chain").read_text() == (tmp_path / "copy.events.jsonl.chain").read_text()

    def audit_with(edited: list[str]) -> str:
        copy.write_text("\n".join(edited) + "\n")
        code, out = audit(str(copy))
        assert code == (0 if edited == lines else 1), out
        return out

    assert f"chain: {len(lines)} of {len(lines)} records carry a stored chain hash, each checked" in audit_with(lines)
    at = {json.loads(line)["event_id"]: n for n, line in enumerate(lines)}
    victim = f"{TID}/r3/t2/b1"
    changed = json.loads(lines[at[victim]])
    changed["result"] = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[changed["result"]]
    out = audit_with(lines[:at[victim]] + [_body(changed)] + lines[at[victim] + 1:])
    assert (f"DIVERGENCE chain: round 3: {victim}: the stored hash" in out and f"(line {at[victim] + 1})" in out
            and "its text is not the text that was logged" in out)
    gone = at[f"{TID}/r5/t4/b2"]
    out = audit_with(lines[:gone] + lines[gone + 1:])
    assert f"DIVERGENCE chain: round 5: {TID}/r5/t4/b3: the stored hash" in out and "was deleted" in out
    a, b = at[f"{TID}/r6/t1/b1"], at[f"{TID}/r6/t1/b2"]
    swapped = list(lines)
    swapped[a], swapped[b] = lines[b], lines[a]
    out = audit_with(swapped)
    assert f"DIVERGENCE chain: round 6: {TID}/r6/t1/b2: the stored hash" in out and "swapped or moved" in out
