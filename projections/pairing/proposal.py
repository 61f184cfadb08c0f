"""The engine's pairing of one round of a tournament's log: the one function every door pairs with.

The arbiter's ``round pair`` and HTTP ``PairRound`` (``processors.deciders.rounds.pair``), the
proposal read model (``read_model.next_round_proposal``: the scoreboard, the arbiter page, the
projection worker), the explanation page, ``olympiad pair`` and the audit all call
``propose_round``, so that a round is paired from the same inputs whichever door asks: the
history of the rounds before it, the announced absences, the late entries' first rounds and the
withdrawals, as the log records them.
"""
from __future__ import annotations

from typing import Iterable

from processors.tournament import RuleViolation, TournamentState, same_fact
from projections.history import History, build_history
from projections.pairing.proposed import Pairing
from projections.pairing.systems import propose_pairing
from projections.pairing.matching import NoLegalPairing
from schemas import event_ids
from schemas.events import PairingProposed
from schemas.profile import RuleProfile


def propose_round(state: TournamentState, rnd: int, *, profile: RuleProfile | None = None,
                  history: History | None = None, absent: Iterable[str] = ()) -> Pairing:
    """The engine's ``Pairing`` of round ``rnd`` from ``state`` (the log up to the pairing of ``rnd``).

    Left out of the round, from the log: the teams ``state.not_playing(rnd)`` names (an
    ``AbsenceAnnounced`` for ``rnd``: not paired, 0 MP and 0 GP, FIDE C.04.1 F.5; a late entry
    whose ``TeamRegistered.from_round`` is after ``rnd``) and the teams withdrawn by ``rnd``
    (``TeamWithdrawn.from_round``, left out by the engine). ``absent``: more teams to leave out
    (``olympiad pair --absent``, a published round's own list). ``profile``: pair under another
    profile than the log's (``olympiad pair --profile``); ``history``: the history of rounds
    1..rnd-1 to pair from, when the caller has reconstructed what the log lacks (board-1 colours
    of an imported event); by default ``build_history(state, rnd - 1)``.

    Raises ``RuleViolation`` (field ``round``) when the round cannot be paired: rule "a legal
    pairing exists" (``NoLegalPairing``: the constraint that cannot be met, D.02 2022 art. 4.2 /
    6.1, C.04.6 [C1] [C2] [C3]) or "pair from complete rounds" (an unusable history: a round
    before ``rnd`` not paired or not complete, an absent team that is not registered).
    """
    profile = profile or state.profile
    left_out = set(state.not_playing(rnd)) | set(absent)
    try:
        if history is None:
            history = build_history(state, rnd - 1)
        return propose_pairing(history, profile, rnd, left_out)
    except NoLegalPairing as exc:
        raise RuleViolation(f"no legal pairing of round {rnd}: {exc}", field="round", rule="a legal pairing exists") from None
    except ValueError as exc:
        raise RuleViolation(f"round {rnd} cannot be paired: {exc}", field="round",
                            rule="pair from complete rounds") from None


def proposal_event(state: TournamentState, pairing: Pairing, *, traced: bool = True, **stamp: object) -> PairingProposed:
    """The one ``PairingProposed`` of ``pairing`` in ``state``'s log, whoever builds it (the
    ``PairRound`` decider, the proposal read model, ``olympiad pair``): its id is the next of the
    round's proposal series (``schemas.event_ids.proposal``: ``T/r<round>/proposal/<n>``), or the
    latest's when the log's latest proposal of the round says the same (a retry, the trace aside).
    ``traced``: with the engine's trace (a read model's), or without (the logged event); ``stamp``:
    ``occurred_at`` and ``actor`` of a decided one."""
    tid = state.tournament_id or ""
    logged = event_ids.next_in_series(state.applied, event_ids.proposal(tid, pairing.round),
                                      lambda eid: pairing.to_event(tid, eid, traced=False, **stamp), same_fact)
    return pairing.to_event(tid, logged.event_id, **stamp) if traced else logged
