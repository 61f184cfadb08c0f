"""The proposed-pairing read model: once the last match of a round is complete, the proposal for
the next round exists (issue 3); the arbiter publishes it, possibly edited, as ``RoundPaired``.
"""
from __future__ import annotations

from processors.tournament import TournamentState
from projections.history import build_history
from projections.pairing.engine import propose_pairing
from schemas.events import PairingProposed


def next_round_proposal(state: TournamentState) -> PairingProposed | None:
    """The ``PairingProposed`` event for the next round of ``state``, or None while there is none:
    the last paired round is not complete yet, or the profile's last round has been paired.

    Before round 1 the proposal exists as soon as two teams are registered. Teams listed absent
    or withdrawn are left out (``propose_pairing``); raises ``NoLegalPairing`` when the next round
    cannot be paired.
    """
    last = max(state.rounds, default=0)
    if last >= state.profile.rounds or (last and not state.round_complete(last)) or len(state.teams) < 2:
        return None
    pairing = propose_pairing(build_history(state, last), state.profile, last + 1)
    return pairing.to_event(state.tournament_id or "")
