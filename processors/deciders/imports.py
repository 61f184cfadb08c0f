"""Imports: the facts of a data set or a file enter the log through the one decider of
``ImportFacts`` (issue 25: one way in for every write).

The importers (``producers.importers``: Samarkand, Chennai, TRF-2026, a log written elsewhere) only
translate what they read into facts; whether a fact may enter the log is decided here, by the
same event rules every command's events meet (``processors.rules.check_event``, run by
``processors.deciders.handle``): an event's id is the id of what it says, a forfeit says why,
a pairing follows a complete round and keeps the absolute rules unless its note names the
override, a closed round's digest is the log's, and the rest.
"""
from __future__ import annotations

from typing import Any

from processors.deciders.identity import same_fact
from processors.tournament import RuleViolation, TournamentState


def import_facts(state: TournamentState, c: Any) -> list[Any]:
    """``ImportFacts`` -> its facts, in order, each carrying the importing actor's id unless the
    source named who did it (the audit trail says who brought the fact into this log).

    A fact the import holds twice (the same fact, ``same_fact``: a redelivered line, a second
    terminal's identical entry) is one fact, yielded once.

    Raises ``RuleViolation`` (field ``facts.<i>.tournament_id``) for a fact of another tournament;
    every other rule is the event rules', judged by ``handle`` fact by fact, all or none.
    """
    facts: dict[str, Any] = {}
    out = []
    for i, fact in enumerate(c.facts):
        if fact.tournament_id != c.tournament_id:
            raise RuleViolation(f"fact {i} ({fact.event_id}) is of tournament {fact.tournament_id!r}; the import is of "
                                f"{c.tournament_id!r}", field=f"facts.{i}.tournament_id", rule="an import's facts are of its tournament")
        earlier = facts.get(fact.event_id)
        if earlier is not None and same_fact(earlier, fact):
            continue
        facts[fact.event_id] = fact
        out.append(fact if fact.actor else fact.model_copy(update={"actor": c.actor.id}))
    return out
