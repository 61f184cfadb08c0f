"""Routes of the teams: the registered teams, a team's page, a team file imported at once
(``ImportTeams``) and a captain's token."""
from __future__ import annotations

from fastapi import APIRouter, Depends

from olympiad.web.api_errors import READ_ERRORS, REFUSALS, ApiError
from olympiad.web.commands_api import CommandOutcome, answer
from olympiad.web.deps import WebDoor, door, served, token
from olympiad.web.models import CaptainIn, CaptainToken, ImportIn, TeamPage, TeamRef
from processors.rules import team_known
from producers.importers.common import title_note
from producers.importers.team_file import read_team_file
from projections.views.refs import team_refs
from projections.views.teams import team_view

router = APIRouter()


@router.get("/api/tournaments/{tid}/teams", response_model=list[TeamRef], responses=READ_ERRORS, tags=["read"])
def teams(tid: str = Depends(served), web: WebDoor = Depends(door)) -> list[dict]:
    """Every registered team by starting number."""
    with web.backend.read() as snap:
        return sorted(team_refs(snap.state).values(), key=lambda t: t["pairing_number"])


@router.get("/api/tournaments/{tid}/teams/{team_id}", response_model=TeamPage, responses=READ_ERRORS, tags=["read"])
def team(team_id: str, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """A team: players in board order and its history round by round (opponent, colour, boards,
    GP, MP, rank after the round)."""
    with web.backend.read() as snap:
        return team_view(snap, team_id)


@router.post("/api/tournaments/{tid}/teams/import", status_code=201, response_model=CommandOutcome,
             responses=REFUSALS, tags=["commands"])
def import_teams(body: ImportIn, tid: str = Depends(served), bearer: str | None = Depends(token),
                 web: WebDoor = Depends(door)) -> CommandOutcome:
    """Register every team of a CSV or TRF-2026 file at once (``ImportTeams``: all or none); the
    file is read by ``producers.importers.team_file.read_team_file``, as ``olympiad team import``.
    Titles that are not FIDE codes are kept, and named in the message (``title_note``)."""
    who = web.actor(bearer, tid)
    try:
        entries = read_team_file(body.text.encode("utf-8"), body.filename)
    except ValueError as exc:
        raise ApiError(422, f"{body.filename or 'the file'}: {exc}", field="text",
                       rule=getattr(exc, "rule", None) or "team file format") from None
    out = answer("ImportTeams", web.send({"command": "ImportTeams", "tournament_id": tid, "actor": who, "teams": entries}))
    note = title_note((t.get("team_id", ""), p.get("name", ""), p.get("title") or "") for t in entries for p in t["players"])
    return out.model_copy(update={"message": f"{out.message}; note: {note}"}) if note else out


@router.post("/api/tournaments/{tid}/captains", status_code=201, response_model=CaptainToken, responses=REFUSALS,
             tags=["terminals"])
def issue_captain(body: CaptainIn, tid: str = Depends(served), bearer: str | None = Depends(token),
                  web: WebDoor = Depends(door)) -> CaptainToken:
    """Issue a token for the captain of team ``team_id`` (the team's earlier captain token
    stops working). Chief arbiter only. With it the captain's page (``/captain``) submits that
    team's line-up for the round to pair; every other command is refused by the role rule
    (``processors.deciders.roles``: field ``actor``, ``team_id`` or ``round``)."""
    web.tokens.authorize_chief(bearer, tid)
    with web.backend.read() as snap:
        team_known(snap.state, body.team_id, "team_id")  # RuleViolation: 422 naming field and rule
    terminal_id, issued = web.tokens.issue_captain(tid, body.team_id, issued_at=web.clock())
    return CaptainToken(team_id=body.team_id, terminal_id=terminal_id, token=issued)
