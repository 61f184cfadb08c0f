"""Routes of the rounds: a round's pairing with live results, the engine's proposal and its
explanation, publication (chief arbiter), and what closing a round signs."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query

from olympiad.web.api_errors import READ_ERRORS, REFUSALS
from olympiad.web.deps import WebDoor, door, served, token
from olympiad.web.models import Pairings
from producers.signing import checkpoint_basis as basis_of
from projections.views.matches import pairings_view
from projections.views.pairing import pairing_explanation, proposal_view

router = APIRouter()


@router.get("/api/tournaments/{tid}/rounds/{rnd}/pairings", response_model=Pairings, responses=READ_ERRORS, tags=["read"])
def pairings(rnd: int, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """The pairing of a round with live board-by-board results and match scores."""
    with web.backend.read() as snap:
        return pairings_view(snap, rnd)


@router.get("/api/tournaments/{tid}/rounds/{rnd}/proposal", responses=REFUSALS, tags=["pairing"])
def proposal(rnd: int, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """The engine's proposed pairing of round ``rnd`` (``PairingProposed``, with its decision
    trace): it exists once the previous round is complete (issue 3)."""
    with web.backend.read() as snap:
        return proposal_view(snap.state, rnd)


@router.post("/api/tournaments/{tid}/rounds/{rnd}/pairing", status_code=201, responses=REFUSALS, tags=["pairing"])
def publish_pairing(rnd: int, tid: str = Depends(served), bearer: str | None = Depends(token),
                    web: WebDoor = Depends(door)) -> dict:
    """Pair round ``rnd`` and publish it: one ``PairRound`` with ``publish`` (the pending proposal,
    engine's or amended, if there is one, else the engine's); answers the ``RoundPaired``. Chief
    arbiter only."""
    outcome = web.send({"command": "PairRound", "tournament_id": tid, "actor": web.actor(bearer, tid), "round": rnd,
                        "publish": True})
    with web.backend.read() as snap:
        return snap.state.applied[outcome.event_ids[-1]].model_dump(mode="json")


@router.get("/api/tournaments/{tid}/rounds/{rnd}/explanation", tags=["read"], responses=REFUSALS)
def explanation(rnd: int, tid: str = Depends(served), team: str | None = Query(None, description="a team id: its lines only"),
                web: WebDoor = Depends(door)) -> dict[str, Any]:
    """The pairing engine's decision trace for round ``rnd`` (the next round to pair): score
    groups, floaters, opponents, colours, tables (``projections.views.pairing``)."""
    with web.backend.read() as snap:
        return pairing_explanation(snap.state, rnd, team)  # RuleViolation: 422 naming the field and the rule


@router.get("/api/tournaments/{tid}/rounds/{rnd}/checkpoint-basis", tags=["commands"], responses=REFUSALS)
def checkpoint_basis(rnd: int, tid: str = Depends(served), bearer: str | None = Depends(token),
                     web: WebDoor = Depends(door)) -> dict[str, Any]:
    """What closing round ``rnd`` signs (``producers.signing.checkpoint_basis``): the log's length
    and chain head as it stands, the previous checkpoint's hash, the round's standings and pairing
    digests; ``basis`` is null when there is nothing to sign (the round closed, not paired, a
    result missing, no key). A door holding the chief arbiter's key signs it into its
    ``CloseRound``. Chief arbiter only."""
    web.tokens.authorize_chief(bearer, tid)
    return {"basis": basis_of(rnd, *web.backend.log_head(tid))}
