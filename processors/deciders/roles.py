"""Who may issue which command (FIDE Olympiad practice: the chief arbiter decides, arbiters and
terminals enter results, captains submit their team's line-up).

``check_role`` raises ``RuleViolation`` (field ``actor``) when the actor's role may not issue
the command; the door has authenticated the actor (a token, the broker's ACLs).
"""
from __future__ import annotations

from typing import Any

from processors.tournament import RuleViolation, TournamentState

CHIEF_ONLY = "the chief arbiter's command"
ALLOWED: dict[str, frozenset[str]] = {
    "RecordResult": frozenset({"chief", "arbiter", "terminal"}),
    "RecordResults": frozenset({"chief", "arbiter", "terminal"}),
    "RecordForfeit": frozenset({"chief", "arbiter"}),
    "SubmitLineup": frozenset({"chief", "arbiter", "captain"}),
    "AnnounceAbsence": frozenset({"chief", "captain"}),
}
"""Commands open to more than the chief arbiter, and the roles that may issue them."""


def check_role(state: TournamentState, command: Any) -> None:
    """Raise unless ``command.actor`` may issue ``command``: the chief arbiter may issue every
    command; a terminal only the results of its table in the current round; a captain only for
    its own team, and its line-up only for the round to pair (R-D1: each team submits its line-up
    for each round; a captain's token does not file later rounds ahead or change published ones)."""
    actor = command.actor
    if actor.role == "chief":
        return
    allowed = ALLOWED.get(command.command, frozenset({"chief"}))
    if actor.role not in allowed:
        who = " or ".join(sorted(allowed)) if len(allowed) > 1 else "chief arbiter"
        raise RuleViolation(f"{actor.role} {actor.id!r} may not {command.command}: only the {who} may",
                            field="actor", rule=CHIEF_ONLY if allowed == {"chief"} else f"{command.command} by {who}")
    if actor.role == "terminal":
        if actor.table is not None and command.table != actor.table:
            raise RuleViolation(f"terminal {actor.id!r} enters the results of table {actor.table}, not table {command.table}",
                                field="table", rule="a terminal enters its own table's results")
        if command.round != state.last_round:
            raise RuleViolation(f"terminal {actor.id!r} enters results of the current round {state.last_round}, "
                                f"not round {command.round}", field="round", rule="a terminal enters the current round")
    if actor.role == "captain" and command.team_id != actor.team:
        raise RuleViolation(f"captain {actor.id!r} of {actor.team!r} acts for its own team, not {command.team_id!r}",
                            field="team_id", rule="a captain acts for its own team")
    if actor.role == "captain" and command.command == "SubmitLineup" and command.round != state.last_round + 1:
        raise RuleViolation(f"captain {actor.id!r} submits the line-up of round {state.last_round + 1}, the round to "
                            f"pair, not round {command.round}", field="round", rule="a captain submits the next round's line-up")
