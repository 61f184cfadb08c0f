"""Issue 10, acceptance 1 (embedded half): a 31-team, 11-round tournament from an empty store
through the CLI alone; its log replays to the official standings of every round."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from olympiad.cli import app
from projections.eventlog import write_log
from projections.replay import replay
from projections.store import EventStore
from tests import tournament_script as script


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """(script, store, log path): the tournament played on a SQLite file through the CLI."""
    tmp = tmp_path_factory.mktemp("tournament")
    lines, store, _ = script.play_embedded(tmp)
    log = tmp / "club.events.jsonl.gz"
    write_log(log, store.events())
    return lines, store, log


def test_the_tournament_runs_from_nothing_to_the_final_standings(played):
    lines, store, log = played
    state = store.state
    assert len(state.teams) == 32 and state.last_round == 11 and sorted(state.closed) == list(range(1, 12))
    types = [e.type for e in store.events()]
    for kind, n in {"TournamentCreated": 1, "TeamRegistered": 32, "StartingRanksSet": 1, "RoundPaired": 11,
                    "PairingProposed": 11, "RoundClosed": 11, "MatchForfeited": 1, "BoardResultCorrected": 1,
                    "TeamWithdrawn": 1, "AbsenceAnnounced": 1, "CheckpointSigned": 11}.items():
        assert types.count(kind) == n, kind
    # Pairing numbers: the 31 teams by R-I1, the late entry takes 32 (nobody is renumbered).
    from projections.seeding import tournament_pairing_numbers

    numbers = tournament_pairing_numbers(state)
    assert numbers["LTE"] == 32 and sorted(numbers.values()) == list(range(1, 33))
    assert [numbers[t] for t in state.starting_ranks] == list(range(1, 32))
    # Who plays when: the late entry from round 3, T10 not in round 5, T20 not from round 7.
    paired = {r: {x for t in p.tables for x in (t.home, t.away)} | ({p.bye} if p.bye else set()) for r, p in state.rounds.items()}
    assert "LTE" not in paired[1] | paired[2] and all("LTE" in paired[r] for r in range(3, 12))
    assert "T10" not in paired[5] and "T10" in state.rounds[5].absent and "T10" in paired[6]
    assert "T20" in paired[6] and all("T20" not in paired[r] for r in range(7, 12))
    assert all(len(paired[r]) == {1: 31, 2: 31, 5: 31}.get(r, 32 if r < 7 else 31) for r in paired)
    # The forfeits: late arrival (round 2) and refused handshake (round 7) lose the board; the
    # absent team's match is lost 0-4.
    late = state.applied[f"{script.TID}/r2/t2/b3"]
    assert (late.forfeit, late.result) == ("late-arrival", "-/+")  # board 3: the home player has White
    shake = state.applied[f"{script.TID}/r7/t1/b4"]
    assert (shake.forfeit, shake.result) == ("handshake-refusal", "+/-")  # board 4: the home player has Black
    m = state.match(4, 5)
    assert (m.home_gp, m.away_gp, m.home_mp, m.away_mp) == (4, 0, 2, 0)
    # Line-ups: a team that fielded its reserve has its fifth player's name on board 4.
    fielded = [line for line in lines if line[0] == "lineup"]
    assert fielded, "some teams field their reserve"
    _, _, rnd, team, *_ = fielded[0]
    table = next(t for t in state.rounds[int(rnd)].tables if team in (t.home, t.away))
    board4 = state.applied[f"{script.TID}/r{rnd}/t{table.table}/b4"]
    assert f"Player {team[1:]}-5" in (board4.white, board4.black)


def test_the_log_replays_to_the_official_standings_of_every_round(played):
    lines, store, log = played
    result = replay(store.events())
    assert {r: s.digest for r, s in result.rounds.items()} == store.state.closed
    # The late correction of round 4 (logged after round 5 was published) leaves the official
    # standings after round 4 as they were, and counts from round 5 on.
    correction = next(e for e in store.events() if e.type == "BoardResultCorrected")
    assert correction.round == 4 and [e.event_id for e in store.events()].index(correction.event_id) > \
        [e.event_id for e in store.events()].index(f"{script.TID}/r5/pairing")
    done = subprocess.run([sys.executable, "-m", "olympiad", "replay", str(log), "--json"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    import hashlib

    assert hashlib.sha256(done.stdout.rstrip("\n").encode()).hexdigest() == store.state.closed[11]
    rows = json.loads(done.stdout)["rows"]
    assert len(rows) == 32 and rows[0]["rank"] == 1


def test_a_retry_of_any_command_is_already_recorded(played, tmp_path):
    """Every command of the run sent again changes nothing: the server derived each event id
    from the command's identity."""
    lines, store, log = played
    before = len(store.events())
    runner = CliRunner()
    env = {"OLYMPIAD_CLOCK": script.CLOCK, "OLYMPIAD_DB": str(store.engine.url)}
    for line in (lines[1], lines[5], next(x for x in lines if x[0] == "results"), next(x for x in lines if x[0] == "correct")):
        result = runner.invoke(app, line, env=env)
        assert result.exit_code == 0 and "already recorded" in result.output, (line, result.output)
    assert len(EventStore(str(store.engine.url)).events()) == before
