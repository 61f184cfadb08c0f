"""A broken pairing rule (``Violation``) and the first rule every pairing checker applies: each
team to pair is paired exactly once (``paired_once``).

Its own module, below both checkers (``projections.pairing.check`` and ``.swiss_team.check``):
the Olympiad checker dispatches to the Swiss Team one, which reports in this type; held by the
first, it made the two import each other.
"""
from __future__ import annotations

from dataclasses import dataclass

from schemas.events import Table


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``rule`` (e.g. "R-P1 repeat opponent"), the ``teams`` concerned, ``text``."""

    rule: str
    teams: tuple[str, ...]
    text: str

    def render(self) -> str:
        """``[rule] text``."""
        return f"[{self.rule}] {self.text}"


def paired_once(tables: list[Table], bye: str | None, to_pair: set[str], order: list[str], rnd: int) -> list[Violation]:
    """Every team of ``to_pair`` is paired exactly once (at a table or with the bye) and no other
    team is; ``order`` lists ``to_pair`` in the order the violations are reported."""
    out: list[Violation] = []
    seen: dict[str, int] = {}
    for t in tables:
        for team in (t.home, t.away):
            seen[team] = seen.get(team, 0) + 1
    if bye is not None:
        seen[bye] = seen.get(bye, 0) + 1
    for team, n in sorted(seen.items()):
        if team not in to_pair:
            out.append(Violation("paired once", (team,), f"{team} is paired but is not to be paired in round {rnd} (absent, withdrawn or unknown)"))
        elif n > 1:
            out.append(Violation("paired once", (team,), f"{team} is paired {n} times"))
    for team in order:
        if team not in seen:
            out.append(Violation("paired once", (team,), f"{team} is not paired"))
    return out
