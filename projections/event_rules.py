"""The event rules that need the pure engines: a ``RoundClosed`` holds the standings' digest, a
``RoundPaired`` breaks an absolute pairing rule only with the chief arbiter's stated reason.

``processors.rules.check_event`` runs them for every event it judges (a command's events and a
raw event alike); they live here because the standings and the pairing checker sit above the
event rules in the layers, and ``projections`` registers them in ``processors.rules.ENGINE_RULES``
when it is imported. The command handlers (``processors.deciders.rounds``) call the same
functions.
"""
from __future__ import annotations

from typing import Any

from processors.rules import ENGINE_RULES
from processors.tournament import RuleViolation, TournamentState
from projections.history import build_history
from projections.replay import standings_after

ABSOLUTE = ("paired once", "R-P1", "R-B1")
"""Rules of the checker no pairing may break without the chief arbiter's stated reason: every
team paired once, no repeat opponent (D.02 2022 art. 6.1), the bye (art. 4.2). Colour limits and
floats are relative: the checker reports them and the amendment's reason covers them."""

OVERRIDDEN = "absolute rules overridden: "
"""How a ``RoundPaired`` note records the chief arbiter's reason for breaking an absolute rule."""
ABSOLUTE_RULE = "an absolute pairing rule is broken only with a reason"
"""The rule a pairing that breaks an absolute rule without such a reason is refused by."""


def standings_digest(state: TournamentState, rnd: int) -> str:
    """The digest of round ``rnd``'s standings (``projections.replay.standings_after``): what a
    ``RoundClosed`` makes official."""
    return standings_after(state, rnd).digest


def checker_report(state: TournamentState, rnd: int, tables: tuple, bye: str | None, absent: tuple[str, ...]) -> tuple[str, ...]:
    """The pairing checker's findings on a pairing of ``rnd`` (``projections.pairing.check``):
    one line ``"<rule>: <text>"`` per broken rule, empty when the pairing is legal."""
    from projections.pairing.systems import check_pairing

    found = check_pairing(build_history(state, rnd - 1), state.profile, rnd, tables, bye, absent)
    return tuple(f"{v.rule}: {v.text}" for v in found)


def absolute_override(report: tuple[str, ...], reason: str | None, field: str) -> None:
    """Raise (``field``) when the checker's ``report`` names an absolute rule (``ABSOLUTE``) and
    no ``reason`` is given (D.02 2022 art. 6.1: no team meets the same opponent twice, unless the
    chief arbiter decides so and says why)."""
    broken = [line for line in report if line.startswith(ABSOLUTE)]
    if broken and not reason:
        raise RuleViolation(f"the pairing breaks {len(broken)} absolute rule(s): {broken[0]}", field=field,
                            rule=ABSOLUTE_RULE)


def override_reason(note: str) -> str | None:
    """The override reason a ``RoundPaired`` note records (after ``OVERRIDDEN``), or None."""
    at = note.find(OVERRIDDEN)
    return note[at + len(OVERRIDDEN):].strip() or None if at >= 0 else None


def _round_paired(state: TournamentState, e: Any) -> None:
    absolute_override(checker_report(state, e.round, e.tables, e.bye, e.absent), override_reason(e.note), "note")


def _closed(state: TournamentState, e: Any) -> None:
    digest = standings_digest(state, e.round)
    if e.digest != digest:
        raise RuleViolation(f"digest {e.digest[:12]}... is not the digest of round {e.round}'s standings ({digest[:12]}...)",
                            field="digest", rule="a closed round holds its standings' digest")


ENGINE_RULES.update({"RoundPaired": _round_paired, "RoundClosed": _closed})
