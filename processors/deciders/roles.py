"""Who may issue which command (FIDE Olympiad practice: the chief arbiter decides, arbiters and
terminals enter results, captains submit their team's line-up).

The rule is ``processors.rules.check_role``: one function for a command (``handle`` calls it)
and for a raw event whose door knows its sender (``processors.rules.check_event`` with an actor,
as the command that yields the event).
"""
from __future__ import annotations

from processors.rules import ALLOWED, CHIEF_ONLY, check_role

__all__ = ["ALLOWED", "CHIEF_ONLY", "check_role"]
