"""Issue 26 point 3 and issue 25 point 5b: late entries, withdrawals, absences and byes under every
rule profile, through every door that pairs a round.

The scenario, four rounds, run with the arbiter's commands (CLI, embedded store):
- T1..T4 registered (ratings 2400 .. 2100: pairing numbers 1..4 by R-I1); round 1 paired and played;
- after round 1: T5 enters late (``team add --from-round 2``, rating 2600): under the Olympiad
  profiles it takes pairing number 5, nobody is renumbered (``late_entry_numbers`` "stable"); under
  C.04.6 it takes number 1 and T1..T4 become 2..5 (C.04.2 late entries, "c04.2"): the same pairings
  below, the PAB of round 2 going to T4, the largest TPN (5) either way;
- after round 2: T1 withdraws (from round 3) and T3 announces its absence for round 3;
- round 4: T3 is back.
Every match is won 3-1 by the team with the lower pairing number. The expected pairings below are
worked by hand from the rules (``docs/profiles.md``, "Late entries, absences, withdrawals"):

olympiad-2008: R1 top half T1, T2 +2 imaginary MP (R-A1, A = 2): S1 v S2 in each group: T1-T2,
T3-T4 (R-C1: odd numbers White). R2: pairing scores T1 4, T3 2, T2 2, T4 0, T5 0; in the 2-group T3
(GP 3) before T2 (GP 1) (R-O3), in the 0-group T4 (GP 1) before the late entry T5 (no game: every
key 0, then pairing number; ``score_groups.ranked_as_entered``); the bye goes to the lowest-ranked
eligible team, T5 (R-B1: the 2008 rules do not bar a late entry). T1 floats and meets the top resident
T3 (R-F2), T2 floats to T4; colours: equal differences, no earlier difference, so the higher-ranked
team alternates (R-C2(4)): T3-T1, T2-T4. R3: T2 2 MP, T5 1, T4 0: bye T4 (lowest eligible),
T5-T2 (T2 alternates from White). R4: T2 has met T1, T4, T5: T2-T3 (equalisation: T3's difference
0 > T2's -1), T4-T5 (T5 +1 gets Black).
olympiad-2022: R1 1 v 3, 2 v 4 (R-X1); colours by table parity: T1-T3, T4-T2. R2: MP then number:
T1, T2, T3, T4, T5; the late entry may not have the bye (D.02 4.2.3), T4 gets it; T2-T1
(equalisation), T3-T5. R3: T5 late, T4 had the bye: the bye goes to T2; T5-T4 (equalisation).
R4: the only legal pairing T2-T5, T3-T4; alternation round by round: T3-T4 (round 1: T4 W, T3 B),
T5-T2 (round 2: T2 W, T5 B); table order D.02 11.1 (T4 and T2 on 3 MP, the sum decides).
swiss-team-2026 (and Type B, no colours): R1 the first identifier 1,2,3,4 (art. 3.6): T1-T3,
T4-T2 (TPN parity). R2: PAB to the lowest score, most matches played, largest TPN: T4 (the late
entry has played none); T2-T1 (lower CD White), T3-T5. R3: T5 cannot take the PAB (T2 and T4 have
met), T4 had one ([C2]): PAB T2; T5-T4. R4: T2-T5 and T3-T4 forced; T4-T3 (alternation on played
matches, art. 4.3.6 compressed: T4 last B, T3 last W), T5-T2 (no difference: the first-team T2
alternates from White).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app
from projections.store import EventStore
from tests.factories import stored
from tests.web_app import embedded_app

TID = "lt"
CHIEF = "chief-token-6f1d2c9a8b7e4d3c2b1a"
Expected = dict[int, tuple[list[str], str | None, tuple[str, ...]]]
SWISS_TEAM: Expected = {
    1: (["T1-T3", "T4-T2"], None, ()),
    2: (["T2-T1", "T3-T5"], "T4", ()),
    3: (["T5-T4"], "T2", ("T3",)),
    4: (["T4-T3", "T5-T2"], None, ()),
}
EXPECTED: dict[str, Expected] = {
    "olympiad-2008": {
        1: (["T1-T2", "T3-T4"], None, ()),
        2: (["T3-T1", "T2-T4"], "T5", ()),
        3: (["T5-T2"], "T4", ("T3",)),
        4: (["T2-T3", "T4-T5"], None, ()),
    },
    "olympiad-2022": {
        1: (["T1-T3", "T4-T2"], None, ()),
        2: (["T2-T1", "T3-T5"], "T4", ()),
        3: (["T5-T4"], "T2", ("T3",)),
        4: (["T3-T4", "T5-T2"], None, ()),
    },
    "swiss-team-2026": SWISS_TEAM,
    "swiss-team-2026-typeb": SWISS_TEAM,
    "swiss-team-2026-nocolour": SWISS_TEAM,
}


def codes(home_wins: bool) -> list[str]:
    """Board codes (White-Black, boards 1-4) of a 3-1 win; the home team has White on boards 1 and 3."""
    return ["1-0", "0-1", "1-0", "1-0"] if home_wins else ["0-1", "1-0", "0-1", "0-1"]


class Arbiter:
    """The ``olympiad`` command line on one SQLite event store (typer's runner, in process)."""

    def __init__(self, folder: Path):
        self.db = f"sqlite:///{folder / 'event.sqlite'}"
        self.runner = CliRunner()
        self.env = {"OLYMPIAD_DB": self.db, "COLUMNS": "200", "OLYMPIAD_CLOCK": "2026-12-05T10:00:00+00:00"}
        self.store = EventStore(self.db)

    def run(self, *argv: Any, status: int = 0) -> str:
        result = self.runner.invoke(app, [str(a) for a in argv], env=self.env)
        assert result.exit_code == status, (argv, result.output)
        return result.output

    def add(self, number: int, rating: int, *extra: Any) -> None:
        self.run("team", "add", TID, f"T{number}", "--name", f"Team {number}", "--federation", "ABC", *extra,
                 *[x for b in range(1, 6) for x in ("--player", f"Player {number}.{b};;;{rating - 10 * b}")])

    def create(self, profile: str, rounds: int) -> None:
        self.run("new", TID, "--name", "Late Cup", "--profile", profile, "--rounds", rounds, "--chief-arbiter", "A. Arbiter")
        for n in range(1, 5):
            self.add(n, 2500 - 100 * n)

    def engine_json(self, rnd: int) -> dict[str, Any]:
        """``olympiad pair <store> --round N --json``: the PairingProposed it prints."""
        return json.loads(self.run("pair", self.db, "--round", rnd, "--json"))

    def play(self, rnd: int) -> None:
        """Publish the proposal of ``rnd``, enter its results (the lower pairing number wins 3-1), close it."""
        self.run("round", "publish", TID, rnd)
        for t in self.store.refresh().rounds[rnd].tables:
            self.run("results", TID, rnd, t.table, *codes(int(t.home[1:]) < int(t.away[1:])))
        self.run("round", "close", TID, rnd)


def shown(pairing: Any) -> tuple[list[str], str | None, tuple[str, ...]]:
    """``(["home-away" per table in table order], bye, absent)`` of a pairing event or its JSON."""
    get = (lambda k: pairing[k]) if isinstance(pairing, dict) else (lambda k: getattr(pairing, k))
    tables = sorted(get("tables"), key=lambda t: t["table"] if isinstance(t, dict) else t.table)
    names = [f"{t['home']}-{t['away']}" if isinstance(t, dict) else f"{t.home}-{t.away}" for t in tables]
    return names, get("bye"), tuple(get("absent"))


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The scenario under one profile: the arbiter, and per round what ``olympiad pair`` printed
    before ``round pair`` and the proposal ``round pair`` recorded."""
    profile = request.param
    arbiter = Arbiter(tmp_path_factory.mktemp(profile))
    arbiter.create(profile, 4)
    engine, proposed = {}, {}
    for rnd in range(1, 5):
        if rnd == 2:
            arbiter.add(5, 2600, "--from-round", 2)
        if rnd == 3:
            arbiter.run("team", "withdraw", TID, "T1", "--reason", "the team left after round 2")
            arbiter.run("team", "absent", TID, "T3", 3, "--reason", "travel: back for round 4")
        engine[rnd] = arbiter.engine_json(rnd)
        arbiter.run("round", "pair", TID, rnd)
        proposed[rnd] = arbiter.store.refresh().proposals[rnd]
        arbiter.play(rnd)
    return {"profile": profile, "arbiter": arbiter, "engine": engine, "proposed": proposed}


def test_every_round_pairs_as_the_rules_give(played: dict[str, Any]) -> None:
    state = played["arbiter"].store.refresh()
    assert state.last_round == 4 and sorted(state.closed) == [1, 2, 3, 4]
    assert state.entered["T5"] == 2 and state.withdrawn == {"T1": 3}
    got = {rnd: shown(state.rounds[rnd]) for rnd in range(1, 5)}
    assert got == EXPECTED[played["profile"]]
    from projections.seeding import tournament_pairing_numbers

    # Olympiad profiles: stable numbers (T5 takes the next one); C.04.6: C.04.2 late entries, T5 (2600)
    # takes its place in the initial order, 1, and T1..T4 move down one (the round-1 pairing stands).
    if played["profile"].startswith("olympiad"):
        assert tournament_pairing_numbers(state) == {"T1": 1, "T2": 2, "T3": 3, "T4": 4, "T5": 5}
    else:
        assert tournament_pairing_numbers(state) == {"T5": 1, "T1": 2, "T2": 3, "T3": 4, "T4": 5}


def test_olympiad_pair_gives_the_proposal_of_round_pair(played: dict[str, Any]) -> None:
    """Issue 25 point 5b, every round of the scenario: the same tables, bye and absent teams."""
    for rnd, event in played["proposed"].items():
        assert shown(played["engine"][rnd]) == shown(event) == EXPECTED[played["profile"]][rnd]


def _events_before_pairing(store: EventStore, rnd: int) -> list[Any]:
    events = store.events()
    cut = next(i for i, e in enumerate(events) if e.type == "PairingProposed" and e.round == rnd)
    return events[:cut]


@pytest.mark.parametrize("rnd", [2, 3, 4])
def test_the_http_command_pairs_the_round(played: dict[str, Any], rnd: int) -> None:
    """``POST .../commands {"command": "PairRound"}`` on the store as it was when the round was to be
    paired: 201, and the pairing the CLI recorded (round 2: the late entry's first round; round 3:
    a withdrawal and an absence; round 4: the absent team back)."""
    web, store, _ = embedded_app(_events_before_pairing(played["arbiter"].store, rnd), chief=CHIEF)
    with TestClient(web) as client:
        answer = client.post(f"/api/tournaments/{TID}/commands", json={"command": "PairRound", "round": rnd},
                             headers={"Authorization": f"Bearer {CHIEF}"})
        assert answer.status_code == 201, answer.json()
        assert answer.json()["message"] == f"recorded: {TID}/r{rnd}/proposal/1"
        proposal = client.get(f"/api/tournaments/{TID}/rounds/{rnd}/proposal").json()
    assert shown(store.refresh().proposals[rnd]) == shown(proposal) == EXPECTED[played["profile"]][rnd]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_and_get(db: str, path: str) -> tuple[str, Any]:
    """Start ``olympiad serve --db DB`` (a subprocess), GET ``path`` once it answers, stop it:
    ``(what serve printed, the JSON answer)``. Fails if serve exits (its start-up failed)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "OLYMPIAD_CHIEF_TOKEN"}
    proc = subprocess.Popen([sys.executable, "-m", "olympiad", "serve", "--db", db, "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    answer = None
    try:
        for _ in range(240):
            assert proc.poll() is None, f"serve exited {proc.returncode}: {proc.communicate()[1][-2000:]}"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
                    answer = json.load(r)
                break
            except OSError:
                time.sleep(0.25)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert answer is not None, f"serve did not answer {path}"
    return out, answer


def test_serve_starts_on_the_store_of_the_late_entry(played: dict[str, Any], tmp_path: Path) -> None:
    """``olympiad serve --db`` on the store when round 2 (the late entry's first round) is to be
    paired starts, and serves the engine's proposal of round 2."""
    db = f"sqlite:///{tmp_path / 'served.sqlite'}"
    stored(_events_before_pairing(played["arbiter"].store, 2), db)
    out, proposal = serve_and_get(db, f"/api/tournaments/{TID}/rounds/2/proposal")
    assert shown(proposal) == EXPECTED[played["profile"]][2]
    assert "Late Cup (lt), last paired round 1" in out


@pytest.mark.parametrize("profile", sorted(EXPECTED))
def test_olympiad_pair_and_round_pair_agree_on_an_absence_and_a_late_entry(profile: str, tmp_path: Path) -> None:
    """Issue 25 point 5b: round 2 with T2 absent (announced) and T5 registered to play from round 3.
    ``olympiad pair`` leaves both out as ``round pair`` does: one table of T1, T3, T4 and a bye."""
    arbiter = Arbiter(tmp_path)
    arbiter.create(profile, 4)
    arbiter.run("round", "pair", TID, 1)
    arbiter.play(1)
    arbiter.add(5, 2600, "--from-round", 3)
    arbiter.run("team", "absent", TID, "T2", 2, "--reason", "travel")
    engine = arbiter.engine_json(2)
    arbiter.run("round", "pair", TID, 2)
    proposed = arbiter.store.refresh().proposals[2]
    assert shown(engine) == shown(proposed)
    tables, bye, absent = shown(proposed)
    assert absent == ("T2", "T5") and len(tables) == 1 and bye is not None
    assert {bye, *tables[0].split("-")} == {"T1", "T3", "T4"}


UNPAIRABLE = {
    "olympiad-2008": ("withdraw", "spec R-P1; 2008 Olympiad pairing rules (no rematch): the 2 teams to pair cannot all "
                                  "be paired"),
    "olympiad-2022": ("late-only", "spec R-B1, D.02 2022 art. 4: 1 team to pair and none may get the bye (each had a "
                                   "bye, a default win or entered late)"),
}


@pytest.mark.parametrize("profile", sorted(UNPAIRABLE))
def test_a_round_that_cannot_be_paired_is_refused_at_every_door(profile: str, tmp_path: Path) -> None:
    """Round 2 without a legal pairing: under 2008 T3 and T4 withdraw and T1, T2 met in round 1 (R-P1);
    under 2022 the four teams are absent and the only team left is a late entry, which may not
    have the bye (D.02 4.2.3). The CLI's ``round pair`` and ``olympiad pair`` refuse with exit
    status 2, HTTP with 422, each naming the rule; ``serve`` starts on the store."""
    case, reason = UNPAIRABLE[profile]
    arbiter = Arbiter(tmp_path)
    arbiter.create(profile, 4)
    arbiter.run("round", "pair", TID, 1)
    arbiter.play(1)
    if case == "withdraw":
        for team in ("T3", "T4"):
            arbiter.run("team", "withdraw", TID, team, "--reason", "left")
    else:
        for team in ("T1", "T2", "T3", "T4"):
            arbiter.run("team", "absent", TID, team, 2, "--reason", "travel")
        arbiter.add(5, 2000, "--from-round", 2)
    line = f"refused: round: no legal pairing of round 2: {reason} [rule: a legal pairing exists]"
    assert line in " ".join(arbiter.run("round", "pair", TID, 2, status=2).split())
    assert line in " ".join(arbiter.run("pair", arbiter.db, "--round", 2, status=2).split())
    events = arbiter.store.refresh() and arbiter.store.events()
    web, store, _ = embedded_app(events, chief=CHIEF)
    with TestClient(web) as client:
        answer = client.post(f"/api/tournaments/{TID}/commands", json={"command": "PairRound", "round": 2},
                             headers={"Authorization": f"Bearer {CHIEF}"})
        shown_proposal = client.get(f"/api/tournaments/{TID}/rounds/2/proposal")
    for r in (answer, shown_proposal):
        assert r.status_code == 422 and (r.json()["field"], r.json()["rule"]) == ("round", "a legal pairing exists"), r.json()
        assert reason in r.json()["detail"]
    assert len(store.refresh() and store.events()) == len(events)
    out, tournament = serve_and_get(arbiter.db, f"/api/tournaments/{TID}")
    assert tournament["tournament_id"] == TID and "last paired round 1" in out
