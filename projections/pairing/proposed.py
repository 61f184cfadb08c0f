"""The engine's answer: ``Pairing``, a proposed pairing of one round with its trace.

Its own module, below both engines (``projections.pairing.engine`` and ``.swiss_team.engine``):
the Olympiad engine dispatches to the Swiss Team one, which answers in this type; held by the
first, it made the two import each other.
"""
from __future__ import annotations

from dataclasses import dataclass

from projections.pairing.trace import TraceLine, explain
from schemas.events import PairingProposed, Table


@dataclass(frozen=True)
class Pairing:
    """A proposed pairing of ``round``: ``tables`` in publication order (``home`` has White on
    board 1), the ``bye`` (team id or None), the ``absent`` teams it was made without, and the
    trace (one ``TraceLine`` per decision)."""

    round: int
    profile: str
    tables: tuple[Table, ...]
    bye: str | None
    absent: tuple[str, ...]
    lines: tuple[TraceLine, ...]

    @property
    def trace(self) -> tuple[str, ...]:
        """The rendered trace lines."""
        return tuple(line.render() for line in self.lines)

    def explain(self, team: str) -> list[str]:
        """The trace lines about ``team``: its score group, float, opponent choice, colour, table."""
        return explain(self.lines, team)

    def pairs(self) -> set[frozenset[str]]:
        """The pairs as unordered team-id pairs."""
        return {frozenset((t.home, t.away)) for t in self.tables}

    def to_event(self, tournament_id: str, event_id: str, *, traced: bool = True, **stamp: object) -> PairingProposed:
        """The ``PairingProposed`` event of this proposal, ``event_id`` of the round's proposal series
        (``schemas.event_ids.proposal``; ``projections.pairing.proposal.proposal_event`` numbers it
        in a log). ``traced``: with the trace (a read model's), or without (the logged event);
        ``stamp``: ``occurred_at`` and ``actor`` of a decided one."""
        return PairingProposed(
            event_id=event_id,
            tournament_id=tournament_id,
            round=self.round,
            tables=self.tables,
            bye=self.bye,
            absent=self.absent,
            profile=self.profile,
            trace=self.trace if traced else (),
            **stamp,
        )
