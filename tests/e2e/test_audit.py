"""Issue 16: the audit of a tournament's log, untouched and tampered (a copy of the log file and
of the event store's database): every tampering is detected and named. Issue 27: anchored
outside the log (a pinned key, the published checkpoints, the chain file), a cut tail and a log
rewritten under another key are named too; a log with no anchor is consistent but not anchored
(exit status 3)."""
from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from projections.anchors import anchors_document
from projections.audit import trail
from projections.eventlog import write_log
from tests import tournament_script as script

TID = script.TID


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """The 31-team tournament on a SQLite store with its read models, and its log file:
    ``(command lines, db, log, store)``."""
    tmp = tmp_path_factory.mktemp("audit")
    lines, store, db = script.play_embedded(tmp)
    store.project()  # the read models a scoreboard reads: standings documents, matches, the proposal
    log = tmp / "club.events.jsonl"
    write_log(log, store.events())
    return lines, db, log, store


@pytest.fixture(scope="module")
def club(played):
    """``(db, log, store)`` of ``played``."""
    return played[1:]


@pytest.fixture(scope="module")
def published(club, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the anchors the scoreboard publishes (``/api/tournaments/{tid}/checkpoints``)."""
    path = tmp_path_factory.mktemp("anchors") / "checkpoints.json"
    path.write_text(json.dumps(anchors_document(club[2].state)))
    return path


@pytest.fixture(scope="module")
def rewritten(played, tmp_path_factory: pytest.TempPathFactory):
    """The same commands replayed in a new store with a new key and one result of round 11
    changed (``script.play_rewritten``): ``(db, log with its chain file, store)``."""
    tmp = tmp_path_factory.mktemp("rewritten")
    store, db = script.play_rewritten(played[0], tmp)
    store.project()
    log = tmp / "rewritten.events.jsonl"
    write_log(log, store.events(), with_chain=True)
    return db, log, store


def audit(*argv: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["audit", *argv, "--no-trail"], env={"COLUMNS": "300"})
    return result.exit_code, " ".join(result.output.split())


UNANCHORED = ("audit: consistent but not anchored (exit status 3); not checked: the chief arbiter's key (no --key) and the "
              "published checkpoints (no --against): a log cut after its last checkpoint, or rewritten whole and signed with "
              "another key, reads the same")
UNCHAINED = ("the log is unchained (no stored chain hash: a log file without its chain file LOG.chain): an event changed, "
             "deleted or moved is found by the signed checkpoints alone")


def test_the_untouched_log_and_store_agree_and_only_an_anchor_gives_exit_status_0(club, published):
    db, log, store = club
    # No anchor: consistent, but nothing outside the log says it is the log that was signed (issue 27).
    # The first line says what the log was compared with; then each round it replays.
    rounds = " ".join(f"round {r} reproduced" for r in range(1, 12))
    assert audit(str(log)) == (3, f"{TID}: log compared with nothing outside the log (no chain file, no --key, no --against) "
                               f"{rounds} {TID}: {len(store.events())} events, rounds 1-11 reproduced, 11 signed checkpoint(s), "
                               f"nothing published beside the log to compare with {UNANCHORED}; {UNCHAINED}")
    code, out = audit(f"sqlite:///{db}")
    hashed = len(store.events())
    assert code == 3 and out.startswith(f"{TID}: log compared with the chain hashes stored with {hashed} record(s), 11 published "
                                        f"standings, 11 published pairings {rounds} "), out
    assert "11 published standings, 11 published pairings" in out and out.endswith(UNANCHORED), out
    code, out = audit(str(log), "--against", str(published))
    assert code == 0, out
    assert f"no standings or pairings published beside the log; its checkpoints compared with {published}" in out, out
    assert out.startswith(f"{TID}: log compared with 11 published checkpoint(s) and the published key ({published}) {rounds} "), out
    assert out.endswith(f"audit: everything agrees, anchored to 11 published checkpoint(s) and the published key ({published}); "
                        f"not checked: {UNCHAINED}"), out
    code, out = audit(f"sqlite:///{db}", "--key", store.state.created.chief_key)
    assert code == 0 and out.endswith(f"audit: everything agrees, anchored to the pinned key {store.state.created.chief_key[:12]}...; "
                                      "not checked: the published checkpoints (no --against): a log cut after its last "
                                      "checkpoint reads the same"), out
    code, out = audit(f"sqlite:///{db}", "--against", str(published), "--key", store.state.created.chief_key)
    assert code == 0 and "audit: everything agrees, anchored to the pinned key" in out and "not checked" not in out, out
    assert out.startswith(f"{TID}: log compared with the chain hashes stored with {hashed} record(s), the pinned key "
                          f"{store.state.created.chief_key[:12]}..., 11 published checkpoint(s) and the published key"), out


def test_the_checkpoints_chain_and_sign_the_log_as_each_round_was_closed(club):
    from schemas.chain import last_checkpoint_hash

    db, log, store = club
    ids = [e.event_id for e in store.events()]
    cps = [store.state.checkpoints[r] for r in range(1, 12)]
    for n, cp in enumerate(cps):
        assert ids[cp.events] == f"{TID}/r{cp.round}/closed" and ids[cp.events + 1] == cp.event_id  # one decision
        assert cp.previous == last_checkpoint_hash(TID, cps[:n])


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
    cp["signature"] = other.sign(checkpoint_message(TID, 4, cp["head"], cp["standings_digest"], cp["pairing_digest"],
                                                    cp["events"], cp["previous"])).hex()
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
    assert "round 6 reproduced round 7: 1 divergence(s) round 8 reproduced" in out, out


def test_the_audit_trail_lists_every_arbiter_action_with_its_reason(club):
    db, log, store = club
    result = CliRunner().invoke(app, ["audit", str(log)], env={"COLUMNS": "400"})
    assert result.exit_code == 3  # consistent, not anchored
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
        assert code == (3 if edited == lines else 1), out
        return out

    untouched = audit_with(lines)
    assert untouched.startswith(f"{TID}: log compared with its chain file (LOG.chain) round 1 reproduced"), untouched
    assert f"chain: {len(lines)} of {len(lines)} records carry a stored chain hash, each checked" in untouched
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


# ------------------------------------------------------------------ issue 27: anchored outside the log
def _cut(club, tmp_path: Path, through: str) -> tuple[Path, int]:
    """A copy of the log file with its chain file, cut after the event ``through``; the number of events kept."""
    db, log, store = club
    copy = tmp_path / "cut.events.jsonl"
    write_log(copy, store.events(), with_chain=True)  # the chain file still lists every event
    lines = log.read_text().splitlines()
    keep = next(n for n, line in enumerate(lines, start=1) if json.loads(line)["event_id"] == through)
    copy.write_text("\n".join(lines[:keep]) + "\n")
    return copy, keep


@pytest.mark.parametrize("through", ["r11/t", "r10/checkpoint"])  # the last checkpoint cut; the whole last round cut
def test_a_cut_tail_of_a_log_file_is_named_with_its_chain_file_and_with_the_published_checkpoints(club, published, tmp_path,
                                                                                                   through):
    db, log, store = club
    ids = [e.event_id for e in store.events()]
    last = [i for i in ids if i.startswith(f"{TID}/r11/t")][-1] if through == "r11/t" else f"{TID}/{through}"
    copy, kept = _cut(club, tmp_path, last)
    code, out = audit(str(copy))  # the chain file lists the cut events
    assert code == 1 and (f"DIVERGENCE chain: the chain file: lists {len(ids)} events, the log ends at event {kept}: the events "
                          f"from {ids[kept]} on were cut from the log") in out, out
    assert out.endswith("audit: 1 divergence(s)")
    copy.with_name(copy.name + ".chain").unlink()
    assert audit(str(copy))[0] == 3  # cut after a checkpoint, no chain file, no anchor: nothing can tell
    code, out = audit(str(copy), "--against", str(published))
    assert code == 1, out
    cp11 = store.state.checkpoints[11]
    if through == "r10/checkpoint":
        assert (f"DIVERGENCE anchor: round 11: {TID}/r11/checkpoint: the log ends at event {kept}; the published checkpoint of "
                f"round 11 signed a head of {cp11.events} events: the log was cut") in out, out
    else:  # the log still has the events the checkpoint signed; the checkpoint itself is gone
        assert kept == cp11.events
        assert (f"DIVERGENCE anchor: round 11: the published checkpoint of round 11: not in the log: the log has no checkpoint "
                "of the round") in out, out


def test_a_cut_tail_of_the_database_is_named_with_the_published_checkpoints(club, published, tmp_path):
    url, conn = _copy(club[0], tmp_path)
    seq, _ = _row(conn, f"{TID}/r11/closed")
    first11, _ = _row(conn, f"{TID}/r11/t1/b1")
    conn.execute("delete from events where seq >= ?", (seq,))
    conn.commit()
    code, out = audit(url, "--against", str(published))
    assert code == 1 and f"DIVERGENCE anchor: round 11: the published checkpoint of round 11: not in the log" in out, out
    conn.execute("delete from events where seq >= ?", (first11,))
    conn.commit()
    code, out = audit(url, "--against", str(published))
    kept = conn.execute("select count(*) from events").fetchone()[0]
    assert code == 1 and (f"the log ends at event {kept}; the published checkpoint of round 11 signed a head of "
                          f"{club[2].state.checkpoints[11].events} events: the log was cut") in out, out


def test_a_log_rewritten_with_a_new_key_is_named_when_the_key_is_pinned_or_the_checkpoints_given(club, published, rewritten):
    db, log, store = club
    key, other = store.state.created.chief_key, rewritten[2].state.created.chief_key
    assert other != key and rewritten[2].state.closed[11] != store.state.closed[11]
    for source in (str(rewritten[1]), f"sqlite:///{rewritten[0]}"):
        code, out = audit(source)  # consistent in itself: only an anchor tells
        assert code == 3 and "DIVERGENCE" not in out and out.endswith(UNANCHORED), out
        code, out = audit(source, "--key", key)
        assert code == 1, out
        assert (f"DIVERGENCE key: TournamentCreated: the log's chief arbiter key {other[:12]}... is not the pinned key "
                f"{key[:12]}...: the log was signed by another key (rewritten?)") in out
        assert f"DIVERGENCE checkpoint: round 1: {TID}/r1/checkpoint: signed with key {other[:12]}..., not the chief arbiter's" in out
        code, out = audit(source, "--against", str(published))
        assert code == 1, out
        assert f"DIVERGENCE key: TournamentCreated: the log's chief arbiter key {other[:12]}... is not the key published" in out
        assert (f"DIVERGENCE anchor: round 11: the published checkpoint of round 11: the log's checkpoint of the round "
                f"({TID}/r11/checkpoint) is another one") in out


def test_the_trf_export_carries_the_anchors_an_audit_checks_against(club, rewritten, tmp_path):
    db, log, store = club
    trf = tmp_path / "club.trf"
    assert CliRunner().invoke(app, ["export-trf", str(log), str(trf)]).exit_code == 0
    lines = [line for line in trf.read_text(encoding="latin-1").splitlines() if line.startswith("### olympiad-events anchors ")]
    assert len(lines) == 1 and json.loads(lines[0].split(" ", 3)[3]) == anchors_document(store.state)
    code, out = audit(str(log), "--against", str(trf))
    assert code == 0 and f"anchored to 11 published checkpoint(s) and the published key ({trf})" in out, out
    assert audit(str(rewritten[1]), "--against", str(trf))[0] == 1


def test_a_key_that_cannot_be_one_is_refused_not_read_as_a_rewritten_log(club):
    db, log, store = club
    for typo in ("zz", store.state.created.chief_key[:4], store.state.created.chief_key + "0"):
        code, out = audit(str(log), "--key", typo)
        assert code == 2 and out == (f"refused: --key: {typo[:24]!r} is not a public key [rule: an Ed25519 public key is "
                                     "64 hex digits, as TournamentCreated.chief_key holds it]"), out
    code, out = audit(str(log), "--key", f" {store.state.created.chief_key.upper()} ")  # case and spaces forgiven
    assert code == 0, out


def test_new_prints_the_public_key_an_auditor_pins(tmp_path):
    from projections.store import EventStore

    db = f"sqlite:///{tmp_path / 'cup.sqlite'}"
    result = CliRunner().invoke(app, ["new", "key-cup", "--name", "Key Cup", "--db", db, "--key", str(tmp_path / "cup.key")])
    assert result.exit_code == 0, result.output
    key = EventStore(db).state.created.chief_key
    assert len(key) == 64 and f"chief arbiter's public key (publish it; olympiad audit --key): {key}" in result.output
