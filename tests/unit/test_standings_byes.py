"""The pairing-allocated bye (PAB) in the standings views, counted by the MP it scores under the
profile: a display-only ``byes`` field on each served row (API standings and scoreboard, the
standings page), shown in the record column it counts as; the canonical standings document and
its digest do not change (Samarkand 2026: ``olympiad replay`` digest ead91415...)."""
from __future__ import annotations

import hashlib

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from producers.sources import load_source
from projections.standings.columns import cell
from projections.views.standings import counted_as
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022, SWISS_TEAM_2026, RuleProfile
from tests.web_app import embedded_app

TID = "samarkand-2026-open"
DIGEST = "ead914151892446a1f353a407cf91b571d7cf649e8cb7a430b3f8d01cdd094c8"


def test_what_a_bye_counts_as_by_its_match_points():
    """R-D9 / D.02 2022 art. 4.1 / C.04.6 art. 1.4: the PAB scores bye_award.mp; 1 MP = a drawn match
    under the Olympiad profiles and C.04.6 (2/1/0); a profile awarding a win's 2 MP shows a won match."""
    assert [counted_as(p) for p in (OLYMPIAD_2008, OLYMPIAD_2022, SWISS_TEAM_2026)] == ["drawn", "drawn", "drawn"]
    won = RuleProfile.model_validate({**OLYMPIAD_2022.model_dump(), "name": "bye-won", "bye_award": {"mp": 2, "gp": 2}})
    assert counted_as(won) == "won"
    row = {"record": {"won": 5, "drawn": 2, "lost": 3}, "byes": {"rounds": [3], "mp": 1, "counted_as": "drawn"}}
    assert [cell(row, k) for k in ("won", "drawn", "lost", "games")] == ["5", "2 +1 PAB", "3", "10"]


def test_served_rows_carry_the_bye_and_the_digest_stays():
    """Samarkand 2026 (olympiad-2022): KIR had the PAB in round 3, 1 MP, a drawn match; its won/drawn
    matches plus the bye give its MP. The served digest, and ``olympiad replay``'s, stay ead91415..."""
    web, _, _ = embedded_app(list(load_source(TID)))
    with TestClient(web) as client:
        view = client.get(f"/api/tournaments/{TID}/standings/11").json()
        board = client.get(f"/api/tournaments/{TID}/scoreboard").json()
        page = client.get(f"/?t={TID}").text
    assert view["digest"] == DIGEST
    rows = {r["team_id"]: r for r in view["rows"]}
    kir = rows["KIR"]
    assert kir["byes"] == {"rounds": [3], "mp": 1, "counted_as": "drawn"}
    assert 2 * kir["record"]["won"] + kir["record"]["drawn"] + kir["byes"]["mp"] == kir["mp"]
    assert rows["UZB"]["byes"] == {"rounds": [], "mp": 0, "counted_as": "drawn"}
    assert {r["team_id"]: r["byes"] for r in board["rows"]}["KIR"] == {"rounds": [3], "mp": 1, "counted_as": "drawn"}
    assert f'{kir["record"]["drawn"]} +1 PAB' in page
    # The canonical document (olympiad replay --json) has no byes and the same digest.
    replayed = CliRunner().invoke(cli, ["replay", TID, "--json"])
    assert replayed.exit_code == 0
    assert hashlib.sha256(replayed.stdout.rstrip("\n").encode()).hexdigest() == DIGEST
    assert "byes" not in replayed.stdout
