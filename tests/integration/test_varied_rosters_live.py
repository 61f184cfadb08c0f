"""Issue 26, point 1: a data folder whose rosters carry Arena titles, Arabic and CJK names and curly
apostrophes (``tests.varied_data``: the Samarkand 2026 Open folder with five teams' players renamed
and retitled, derived into tmp_path) gives one standings digest everywhere: ``olympiad replay``
(tests/e2e/test_varied_rosters.py), the web app serving it, and the live pipeline on a real broker
with the worker's read models in PostgreSQL. Results are unchanged, so that digest is the shipped
data's; the names come back from every store in NFC.
"""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from olympiad.cmd_live import LivePipeline
from producers.publish import publish
from producers.sources import load_source
from projections.replay import replay
from projections.store import events_table
from tests.varied_data import SAMARKAND_DIGEST, varied_samarkand
from tests.web_app import embedded_app

pytestmark = pytest.mark.integration
TID = "samarkand-2026-open"
CHIEF = "chief-varied-rosters-7d1e4b"


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any], dict[int, str]]:
    """(folder, its events as ``olympiad replay`` loads them, standings digest per round)."""
    folder = tmp_path_factory.mktemp("varied") / "samarkand-varied"
    varied_samarkand(folder)
    events = load_source(str(folder))
    return folder, events, {r: s.digest for r, s in replay(events).rounds.items()}


def test_the_web_app_serves_the_replay_digest_and_the_names_in_nfc(varied) -> None:
    folder, events, digests = varied
    assert digests[11] == SAMARKAND_DIGEST
    with TestClient(embedded_app(events, CHIEF)[0]) as client:
        base = f"/api/tournaments/{TID}"
        assert client.get(f"{base}/scoreboard").json()["digest"] == SAMARKAND_DIGEST
        assert {r: client.get(f"{base}/standings/{r}").json()["digest"] for r in digests} == digests
        mine = next(e for e in events if e.type == "TeamRegistered" and e.players[0].name == "عبد الله، محمد")
        page = client.get(f"{base}/teams/{mine.team_id}").json()
        assert [(p["name"], p["title"]) for p in page["players"]] == [
            ("عبد الله، محمد", "ACM"), ("الأحمد، يوسف", "AFM"), ("بن علي، أمين", "AIM"), ("حسن، عمر", "AGM"),
            ("Ō’Connor, Seán", "NM")]


def test_the_live_pipeline_on_a_real_broker_gives_the_replay_digest_every_round(
        varied, kafka_bootstrap: str, fresh_database: Any) -> None:
    folder, events, digests = varied
    prefix = f"t{uuid.uuid4().hex[:10]}."
    url = fresh_database()
    with LivePipeline(kafka_bootstrap, prefix, url) as pipeline:
        follower = publish(events, bootstrap=kafka_bootstrap, topic_prefix=prefix, timeout=300)
        try:
            pipeline.check()
            assert not follower.refused, f"valid events refused: {list(follower.refused.values())[:3]}"
            published = {r: follower.latest(TID, r).body["digest"] for r in follower.rounds(TID)}
        finally:
            follower.close()
    assert published == digests
    assert published[11] == SAMARKAND_DIGEST
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        bodies = [b for (b,) in conn.execute(sa.select(events_table.c.body).where(
            events_table.c.event_id.like(f"{TID}/team/%")))]
    engine.dispose()
    stored = " ".join(bodies)
    for name in ("丁立人", "عبد الله، محمد", "O’Gorman, Tom", "Nguyễn Ngọc Trường Sơn", "आनंद, विश्वनाथन"):
        assert name in stored, name
    assert '"title":"ACM"' in stored and '"title":"AGM"' in stored and '"title":"NM"' in stored
