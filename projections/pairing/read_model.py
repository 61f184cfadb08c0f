"""The proposed-pairing read model: once the last match of a round is complete, the proposal for
the next round exists (issue 3); the arbiter publishes it, possibly edited, as ``RoundPaired``.
"""
from __future__ import annotations

from processors.tournament import TournamentState
from projections.history import build_history
from projections.memo import slot_memo
from projections.pairing.proposal import proposal_event, propose_round
from schemas.events import PairingProposed

# The proposal is asked for after every batch that changed the tournament (the projection
# worker, the embedded store, the web API), and stays the same until a result of rounds
# 1..last changes (a correction), a team registers or withdraws: memoised on the history it is
# paired from and the profile, one slot per tournament. A history built from unchanged rounds
# shares their records (``build_history``), so the comparison is one of identities.
_PROPOSALS = slot_memo(256)


def next_round_proposal(state: TournamentState) -> PairingProposed | None:
    """The ``PairingProposed`` event for the next round of ``state``, or None while there is none:
    a paired round is not complete yet (the last one, or an earlier one that a round was paired
    over while a board of it had no result: C.04 pairs on complete scores, so the proposal waits
    for that result), or the profile's last round has been paired.

    Before round 1 the proposal exists as soon as two teams are registered. Teams announced
    absent, withdrawn or not entered yet are left out (``proposal.propose_round``, the function
    ``round pair`` uses); raises ``RuleViolation`` (field ``round``, the rule) when the next round
    cannot be paired.
    """
    last = max(state.rounds, default=0)
    if last >= state.profile.rounds or len(state.teams) < 2:
        return None
    if not all(state.round_complete(r) for r in range(last, 0, -1)):  # the last round first: the usual wait
        return None
    history = build_history(state, last)
    tid = state.tournament_id or ""
    absent = state.not_playing(last + 1)  # announced absences, late entries not yet entered
    return _PROPOSALS.get(tid, (state.profile, history, absent),
                          lambda: proposal_event(state, propose_round(state, last + 1, history=history)))
