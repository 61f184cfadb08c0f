"""``RuleViolation``: how a tournament rule refuses an event or a command (the field, the rule).

Its own module, below the state (``processors.tournament``) and the event rules
(``processors.rules``), which both raise it: held by the state, it made the rules import the state
that calls them.
"""
from __future__ import annotations


class RuleViolation(ValueError):
    """An event or a command refused by a tournament rule.

    ``field`` is the offending field, ``rule`` a short name of the rule broken; the message
    says what was expected.
    """

    def __init__(self, message: str, *, field: str, rule: str):
        super().__init__(f"{field}: {message} [rule: {rule}]")
        self.field = field
        self.rule = rule
        self.event_id: str | None = None  # set by whoever knows which event broke the rule
