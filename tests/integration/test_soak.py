"""Issue 12, acceptance 4 (short version): the processors and the worker SIGKILLed 5 times at
random points while two rounds of Samarkand 2026 Open are published; the standings equal the
replay's, no result lost, none doubled. ``bench/soak.py`` runs the whole tournament with 50+ kills."""
from __future__ import annotations

import pytest

from bench.soak import events_through, soak
from producers.sources import load_source

pytestmark = pytest.mark.integration


def test_kills_lose_and_double_nothing(kafka_bootstrap, fresh_database):
    events = events_through(load_source("samarkand-2026-open"), 2)
    report = soak(events, 5, bootstrap=kafka_bootstrap, database_url=fresh_database(), gap=4.0, seed=7, most=5,
                  timeout=600)
    # On a loaded machine publishing may end before the last kill: most kills land while publishing.
    assert len(report.kills) == 5 and report.kills_while_publishing >= 3, report.lines()
    assert report.stored_digest == report.published_digest == report.expected_digest, report.lines()
    assert (report.lost, report.doubled) == (0, 0), report.lines()
