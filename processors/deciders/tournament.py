"""Creating a tournament: its name, dates, venue, chief arbiter, rule profile and rounds."""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

import processors.deciders.identity as identity
from processors.tournament import RuleViolation, TournamentState
from schemas import event_ids, refusals
from schemas.events import TournamentCreated
from schemas.profile import PROFILES, RuleProfile, with_rounds


def create(state: TournamentState, c: Any) -> list[Any]:
    """``CreateTournament`` -> ``TournamentCreated`` with the profile in full.

    Refused: an unknown profile name; a profile its own schema refuses (a switch its pairing system
    does not honour, ``schemas.profile_switches``, naming the rule); a profile that keeps a
    built-in profile's name while changing its rules (a replay could not tell them apart); dates
    out of order.
    """
    profile = resolve_profile(c.profile)
    if c.rounds is not None:
        profile = with_rounds(profile, c.rounds)
    if c.starts and c.ends and c.ends < c.starts:
        raise RuleViolation(f"the tournament ends ({c.ends}) before it starts ({c.starts})", field="ends",
                            rule="dates in order")
    return [TournamentCreated(
        event_id=event_ids.created(c.tournament_id), **identity.stamp(c), name=c.name, profile=profile,
        starts=c.starts, ends=c.ends, venue=c.venue, chief_arbiter=c.chief_arbiter,
        nomination_deadline=c.nomination_deadline, chief_key=c.chief_key, source="created by the chief arbiter",
    )]


def resolve_profile(profile: RuleProfile | str) -> RuleProfile:
    """A built-in profile by name, or the whole profile given."""
    if isinstance(profile, str):
        if profile not in PROFILES:
            raise RuleViolation(f"unknown rule profile {profile!r}; known: {', '.join(sorted(PROFILES))}",
                                field="profile", rule="known profiles")
        return PROFILES[profile]
    try:  # a profile built with model_copy(update=...) was never validated: judge it whole at creation
        RuleProfile.model_validate(profile.model_dump())
    except ValidationError as exc:
        p = refusals.problem(exc, schema="schema RuleProfile")
        raise RuleViolation(p.message, field="profile", rule=p.rule) from None
    return profile  # one passing itself off as a built-in is refused by the event rule (processors.rules)
