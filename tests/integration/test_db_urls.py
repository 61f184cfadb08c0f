"""Issue 13: ``--db postgresql://...`` (the common URL form, no driver named) works: it is mapped to
the installed driver, psycopg2, by the one function every door uses (``projections.store.database_url``)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy.engine import make_url

from projections.replay import replay
from producers.sources import load_source


def test_replay_on_a_plain_postgresql_url(fresh_database) -> None:
    url = make_url(fresh_database())
    if url.get_backend_name() != "postgresql":
        pytest.fail("needs PostgreSQL: set DATABASE_URL or start deploy/postgres.sh")
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    assert plain.startswith("postgresql://")
    proc = subprocess.run([sys.executable, "-m", "olympiad", "replay", "samarkand-2026-open", "--db", plain],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"standings sha256 {replay(load_source('samarkand-2026-open')).rounds[11].digest}" in proc.stdout
