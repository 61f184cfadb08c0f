"""Issue 31, acceptance 1 through every door: a hundred what-ifs write nothing.

Samarkand 2026 Open after round 10 in an event store file (SQLite): what-ifs through the
application function, ``olympiad whatif sqlite:///...`` (the CLI, in-process) and ``GET
.../whatif`` (the web app over the same store; the scoreboard page calls that route:
``tests/e2e/test_whatif_browser.py``). The store's event count and the file's SHA-256 do not
change (the web app's own start rebuilds its read models: its baseline is taken once it runs);
every door answers what the application function answers; all 103 real scores give the replay's
round-11 digest through each of them.
"""
from __future__ import annotations

import hashlib
import json
import random

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.embedded import EmbeddedBackend
from olympiad.web.preload import through_round
from olympiad.whatif_text import state_and_official
from producers.sources import load_log
from projections.replay import replay
from projections.store import EventStore
from projections.views.whatif import whatif_answer
from schemas.points import fmt_points
from tests.factories import imported

pytestmark = pytest.mark.e2e

TID = "samarkand-2026-open"


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_hundred_what_ifs_through_every_door_write_nothing(tmp_path):
    events = load_log(TID)
    full = replay(events)
    path = tmp_path / "samarkand.sqlite"
    url = f"sqlite:///{path}"
    imported(EventStore(url), through_round(events, 10))
    count, digest = len(EventStore(url).events()), sha256(path)

    real = [f"11/{t.table}={fmt_points(full.state.match(11, t.table).home_gp)}-{fmt_points(full.state.match(11, t.table).away_gp)}"
            for t in full.state.rounds[11].tables]
    rng = random.Random(31)
    draws = [[f"11/{t}=2-2" for t in rng.sample(range(1, 104), rng.randint(1, 5))] for _ in range(97)]
    asks = [real, [], *draws, real]  # 100: everything, nothing, 97 handfuls of draws, everything again
    state, official = state_and_official(EventStore(url).events())
    want = {i: whatif_answer(state, official, asks[i]) for i in range(len(asks))}
    assert want[0]["standings"]["digest"] == full.rounds[11].digest
    assert want[1]["standings"]["digest"] == full.rounds[10].digest

    for i in range(0, 100, 3):  # the application function: 34
        assert whatif_answer(state, official, asks[i]) == want[i]
    runner = CliRunner()
    for i in range(1, 100, 3):  # the CLI on the store file: 33
        out = runner.invoke(cli, ["whatif", url, "--json", *(x for s in asks[i] for x in ("--set", s))])
        assert out.exit_code == 0, out.output
        assert json.loads(out.stdout) == want[i]
    assert (len(EventStore(url).events()), sha256(path)) == (count, digest)

    with TestClient(create_app(EmbeddedBackend(EventStore(url)), TokenStore(EventStore(url).engine))) as web:
        baseline = sha256(path)
        for i in range(2, 100, 3):  # the HTTP API: 33
            answer = web.get(f"/api/tournaments/{TID}/whatif", params=[("set", s) for s in asks[i]])
            assert answer.status_code == 200 and answer.json() == want[i]
        answer = web.get(f"/api/tournaments/{TID}/whatif", params=[("set", s) for s in real])
        assert answer.json()["standings"]["digest"] == full.rounds[11].digest
        refused = web.get(f"/api/tournaments/{TID}/whatif", params={"set": "11/1=3-2"})
        assert refused.status_code == 422 and refused.json()["rule"] == "a match score sums to the boards"
        assert sha256(path) == baseline
    assert len(EventStore(url).events()) == count
    out = runner.invoke(cli, ["whatif", url, "--set", "11/1=3-2"])
    assert out.exit_code == 2 and "[rule: a match score sums to the boards]" in " ".join(out.output.split())
