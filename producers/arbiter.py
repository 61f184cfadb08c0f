"""Arbiter commands as event builders: the chief arbiter publishes a round's pairing.

The engine proposes (``PairingProposed``, issue 3); only the arbiter publishes, as ``RoundPaired``,
possibly after editing tables (a late arrival, an arbiter-made table). The builders are pure;
the embedded store, the terminal producer and the web API deliver the events.
"""
from __future__ import annotations

from schemas.events import PairingProposed, RoundPaired, Table


def round_paired(proposal: PairingProposed, *, event_id: str | None = None, tables: tuple[Table, ...] | None = None,
                 bye: str | None = ..., absent: tuple[str, ...] | None = None, note: str = "") -> RoundPaired:  # type: ignore[assignment]
    """The ``RoundPaired`` event that publishes ``proposal``, with the arbiter's edits if any.

    ``tables``/``bye``/``absent`` replace the proposal's (``bye=None`` removes the bye; leave it out
    to keep the proposal's). The event id defaults to ``<tournament>/r<round>/pairing``, so
    publishing the same round twice is refused by the one-pairing-per-round rule, not duplicated.
    """
    edited = tables is not None or bye is not ... or absent is not None
    return RoundPaired(
        event_id=event_id or f"{proposal.tournament_id}/r{proposal.round}/pairing",
        tournament_id=proposal.tournament_id,
        round=proposal.round,
        tables=proposal.tables if tables is None else tables,
        bye=proposal.bye if bye is ... else bye,
        absent=proposal.absent if absent is None else absent,
        note=note or ("edited by the arbiter from the engine's proposal" if edited else f"engine proposal ({proposal.profile})"),
    )
