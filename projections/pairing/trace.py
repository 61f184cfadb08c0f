"""The trace of a pairing: one line per decision, with the rule that made it.

A line reads ``[rule] text``; it also records the teams it concerns, so ``explain(team)`` can
answer "why did this team get this opponent and this colour" (score group, floater, exchange,
colour rule). Lines are plain text built from the decisions only, so the same history and
profile give the same trace byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TraceLine:
    """One decision: ``rule`` (e.g. "D.02 2022 art. 9.3", "spec R-W4"), the ``teams`` (team ids)
    it concerns, and the ``text`` saying what was decided and why."""

    rule: str
    teams: tuple[str, ...]
    text: str

    def render(self) -> str:
        """``[rule] text``."""
        return f"[{self.rule}] {self.text}"


class Trace:
    """An append-only list of ``TraceLine``s."""

    def __init__(self) -> None:
        self.lines: list[TraceLine] = []

    def add(self, rule: str, teams: tuple[str, ...] | list[str], text: str) -> None:
        """Record one decision."""
        self.lines.append(TraceLine(rule, tuple(teams), text))


def explain(lines: tuple[TraceLine, ...], team: str) -> list[str]:
    """The rendered lines that concern ``team`` (its group, float, opponent choice, colour, table)."""
    return [line.render() for line in lines if team in line.teams]
