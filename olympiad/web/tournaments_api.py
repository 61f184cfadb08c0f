"""Routes of the tournament: what is served, its rounds' progress, the audit trail, the setup of
``serve --new`` and the arbiter's view (``projections.views``)."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Depends, Request

from olympiad.web.api_errors import READ_ERRORS, REFUSALS
from olympiad.web.deps import WebDoor, door, served
from olympiad.web.models import RoundInfo, Tournament
from projections.anchors import anchors_document
from projections.audit import trail
from projections.views.matches import rounds_view
from projections.views.tournament import arbiter_view, tournament_view
from schemas.profile import PROFILES

router = APIRouter()


@router.get("/api/tournaments", response_model=list[Tournament], tags=["read"])
def tournaments(web: WebDoor = Depends(door)) -> list[dict]:
    """The tournaments served (one per backend)."""
    with web.backend.read() as snap:
        return [tournament_view(snap)] if snap.state.created else []


@router.get("/api/tournaments/{tid}", response_model=Tournament, responses=READ_ERRORS, tags=["read"])
def tournament(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """A tournament: name, rule profile, tie-break order, paired rounds, the live round."""
    with web.backend.read() as snap:
        return tournament_view(snap)


@router.get("/api/tournaments/{tid}/rounds", response_model=list[RoundInfo], responses=READ_ERRORS, tags=["read"])
def rounds(tid: str = Depends(served), web: WebDoor = Depends(door)) -> list[dict]:
    """Every paired round with its progress."""
    with web.backend.read() as snap:
        return rounds_view(snap)


@router.get("/api/tournaments/{tid}/audit-trail", responses=READ_ERRORS, tags=["read"])
def audit_trail(tid: str = Depends(served), web: WebDoor = Depends(door)) -> list[dict]:
    """Every arbiter action of the log (``projections.audit.trail``): when, who, the round, what, the
    reason: amended pairings, overridden rules, corrections (late ones marked), forfeits,
    withdrawals, late entries, absences, closed rounds."""
    with web.backend.read() as snap:
        return [asdict(a) for a in trail(snap.state)]


@router.get("/api/tournaments/{tid}/checkpoints", responses=READ_ERRORS, tags=["read"])
def checkpoints(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """The tournament's anchors (``projections.anchors.anchors_document``): its chief arbiter's
    public key and every signed checkpoint (``CheckpointSigned``: the log's length and chain head
    as each round was closed, the round's digests, the hash of the checkpoint before it, the
    signature). Keep a copy: ``olympiad audit SOURCE --against URL|FILE`` checks a log against it."""
    with web.backend.read() as snap:
        return anchors_document(snap.state)


@router.get("/api/setup", tags=["commands"])
def setup(request: Request, web: WebDoor = Depends(door)) -> dict[str, Any]:
    """What ``olympiad serve --new`` was started with (``name``, ``profile``), the tournament
    served (``tournament_id``, None before it is created) and the built-in rule profiles
    (``profiles``: name, rounds, description; ``schemas.profile.PROFILES``) the page offers."""
    new = getattr(request.app.state, "new_event", None) or {}
    return {"name": new.get("name"), "profile": new.get("profile"), "tournament_id": web.backend.tournament_id,
            "profiles": [{"name": p.name, "rounds": p.rounds, "description": p.description} for p in PROFILES.values()]}


@router.get("/api/tournaments/{tid}/arbiter", tags=["read"], responses=REFUSALS)
def arbiter(tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """The tournament as the arbiter runs it (``projections.views.tournament.arbiter_view``): teams
    with their nominated players, pairing numbers and status, the nomination deadline, the round
    to prepare (its line-ups and the pending proposal with the checker's report), published and
    closed rounds."""
    with web.backend.read() as snap:
        return arbiter_view(snap.state)
