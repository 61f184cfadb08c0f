"""The registry of pairing systems: which engine proposes, and which checker judges, a profile's rounds.

Every caller that pairs or checks a round goes through ``propose_pairing`` and ``check_pairing``
here (the deciders through ``projections.pairing.proposal.propose_round``, the event rules, the
read models, ``olympiad pair`` and ``check``, the simulator, the audit), so a profile is paired
by one system whichever door asks. ``SYSTEMS`` maps a system's name to its engine and checker;
``system_name`` reads it off the profile: FIDE C.04.6 (Swiss Team, 2026) when the profile sets
``swiss_team``, else FIDE D.02 (the Olympiad pairing rules, 2008 / 2022 variants by profile).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from projections.history import History
from projections.pairing.check import check_d02
from projections.pairing.engine import propose_d02
from projections.pairing.proposed import Pairing
from projections.pairing.swiss_team.check import check_swiss_team
from projections.pairing.swiss_team.engine import propose_swiss_team
from projections.pairing.violations import Violation
from schemas.events import Table
from schemas.profile import RuleProfile


@dataclass(frozen=True)
class PairingSystem:
    """One pairing system: its ``name``, the FIDE text it follows, its engine ``propose(history,
    profile, round, absent) -> Pairing`` and its checker ``check(history, profile, round, tables,
    bye, absent, colours) -> [Violation]``."""

    name: str
    text: str
    propose: Callable[[History, RuleProfile, int, Iterable[str]], Pairing]
    check: Callable[..., list[Violation]]


SYSTEMS: dict[str, PairingSystem] = {
    "fide-d02": PairingSystem("fide-d02", "FIDE D.02 Olympiad pairing rules (2008 / 2022, by profile)", propose_d02, check_d02),
    "fide-c04.6": PairingSystem("fide-c04.6", "FIDE C.04.6 Swiss Team Pairing System (2026)", propose_swiss_team,
                                check_swiss_team),
}


def system_name(profile: RuleProfile) -> str:
    """The name (a key of ``SYSTEMS``) of the pairing system of ``profile``: ``fide-c04.6`` when it
    sets ``swiss_team``, else ``fide-d02``."""
    return "fide-c04.6" if profile.swiss_team is not None else "fide-d02"


def propose_pairing(history: History, profile: RuleProfile, rnd: int, absent: Iterable[str] = ()) -> Pairing:
    """Pair round ``rnd`` from ``history`` (rounds 1..rnd-1, all complete) under ``profile``, by its
    system's engine. ``absent``: teams known not to play ``rnd`` (withdrawn teams are left out
    anyway). Raises ``ValueError`` for an unusable history, and
    ``projections.pairing.matching.NoLegalPairing`` naming the rule that cannot be met."""
    return SYSTEMS[system_name(profile)].propose(history, profile, rnd, absent)


def check_pairing(history: History, profile: RuleProfile, rnd: int, tables: Iterable[Table], bye: str | None = None,
                  absent: Iterable[str] = (), colours: str = "known") -> list[Violation]:
    """Every rule of ``profile``'s system the pairing of round ``rnd`` (``tables``, ``bye``, made
    without ``absent``) breaks, given the ``history`` of rounds 1..rnd-1; empty when it is legal.
    ``colours``: ``"known"``, ``"inferred"`` or ``"unknown"`` (``check.check_d02``). Raises
    ``ValueError`` for an unusable history."""
    return SYSTEMS[system_name(profile)].check(history, profile, rnd, list(tables), bye, absent, colours)
