"""The doors' clock: when a command is issued (``issued_at``, the time its events carry).

``now()`` is the current UTC time to the second, or ``$OLYMPIAD_CLOCK`` (an ISO 8601 date-time)
for a reproducible run. The CLI stamps its commands with it; the web app takes it as its one
clock dependency (``olympiad.web.deps``), replaceable by any ``Clock`` (a test's fixed time).
"""
from __future__ import annotations

import os
from datetime import datetime, timezone
from typing import Callable

Clock = Callable[[], str]
"""A clock: a function returning the current time as an ISO 8601 date-time text."""


def now() -> str:
    """The command's ``issued_at``: ``$OLYMPIAD_CLOCK`` or the current UTC time (seconds)."""
    return os.environ.get("OLYMPIAD_CLOCK") or datetime.now(timezone.utc).replace(microsecond=0).isoformat()
