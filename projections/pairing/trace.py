"""The trace of a pairing: one line per decision, with the rule that made it.

A line reads ``[rule] text``; it also records the teams it concerns, so ``explain(team)`` can
answer "why did this team get this opponent and this colour" (score group, floater, exchange,
colour rule). Lines are plain text built from the decisions only, so the same history and
profile give the same trace byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass

from schemas.profile import D02_2022


@dataclass(frozen=True)
class Rule:
    """A pairing rule of the Olympiad engine: ``spec`` the rules digest's names (``"spec R-C2(1)"``),
    ``d02`` the articles of D.02 2022 that state it (``"art. 7.3"``; empty for a rule D.02 2022
    does not have, such as the 2008 fold). Cited as the profile's pairing system says it
    (``RuleProfile.pairing_source``): under D.02 2022 with its articles (``"spec R-C2(1), D.02
    2022 art. 7.3"``), under another source with that source's name (``"spec R-C2(1); 2008
    Olympiad pairing rules"``)."""

    spec: str
    d02: str = ""

    def cite(self, source: str) -> str:
        """The rule's reference under the rule source ``source``."""
        if source != D02_2022:
            return f"{self.spec}; {source}"
        if not self.d02:
            return self.spec
        return f"{self.spec}{'; ' if ',' in self.spec else ', '}{D02_2022} {self.d02}"


@dataclass(frozen=True)
class TraceLine:
    """One decision: ``rule`` (e.g. "spec R-X1, D.02 2022 art. 9.3", "spec R-W4"), the ``teams``
    (team ids) it concerns, and the ``text`` saying what was decided and why."""

    rule: str
    teams: tuple[str, ...]
    text: str

    def render(self) -> str:
        """``[rule] text``."""
        return f"[{self.rule}] {self.text}"


class Trace:
    """An append-only list of ``TraceLine``s; ``source`` is the rule source its ``Rule``s are
    cited from (the profile's ``pairing_source``)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: list[TraceLine] = []

    def cite(self, rule: Rule | str) -> str:
        """``rule``'s reference under this trace's source; a text is a reference already."""
        return rule.cite(self.source) if isinstance(rule, Rule) else rule

    def add(self, rule: Rule | str, teams: tuple[str, ...] | list[str], text: str) -> None:
        """Record one decision."""
        self.lines.append(TraceLine(self.cite(rule), tuple(teams), text))


def explain(lines: tuple[TraceLine, ...], team: str) -> list[str]:
    """The rendered lines that concern ``team`` (its group, float, opponent choice, colour, table)."""
    return [line.render() for line in lines if team in line.teams]


def teams(n: int) -> str:
    """``n`` teams in a trace line's words: "1 team", "3 teams"."""
    return f"{n} team{'' if n == 1 else 's'}"
