"""Routes of the terminal tokens: issue, list and revoke (chief arbiter only)."""
from __future__ import annotations

from fastapi import APIRouter, Depends

from olympiad.web.api_errors import REFUSALS, ApiError
from olympiad.web.deps import WebDoor, door, served, token
from olympiad.web.models import IssuedToken, TerminalIn, TerminalInfo
from projections.views.refs import NotFound

router = APIRouter()


@router.post("/api/tournaments/{tid}/terminals", status_code=201, response_model=IssuedToken, responses=REFUSALS,
             tags=["terminals"])
def issue_token(body: TerminalIn, tid: str = Depends(served), bearer: str | None = Depends(token),
                web: WebDoor = Depends(door)) -> IssuedToken:
    """Issue a token for a terminal, scoped to tables (or the whole tournament); the terminal's
    earlier token stops working. Chief arbiter only."""
    web.tokens.authorize_chief(bearer, tid)
    try:
        issued = web.tokens.issue(tid, body.terminal_id, body.tables, issued_at=web.clock())
    except ValueError as exc:
        raise ApiError(422, str(exc), field="terminal_id", rule="terminal tokens") from None
    return IssuedToken(terminal_id=body.terminal_id, tables=sorted(set(body.tables)) if body.tables else None,
                       token=issued)


@router.get("/api/tournaments/{tid}/terminals", response_model=list[TerminalInfo], responses=REFUSALS,
            tags=["terminals"])
def list_terminals(tid: str = Depends(served), bearer: str | None = Depends(token),
                   web: WebDoor = Depends(door)) -> list[dict]:
    """Every token issued (never the token itself). Chief arbiter only."""
    web.tokens.authorize_chief(bearer, tid)
    return [{"terminal_id": t.terminal_id, "tables": sorted(t.tables) if t.tables is not None else None,
             "chief": t.chief, "revoked": revoked, "issued_at": t.issued_at}
            for t, revoked in web.tokens.terminals(tid)]


@router.delete("/api/tournaments/{tid}/terminals/{terminal_id}", status_code=204, responses=REFUSALS,
               tags=["terminals"])
def revoke_token(terminal_id: str, tid: str = Depends(served), bearer: str | None = Depends(token),
                 web: WebDoor = Depends(door)) -> None:
    """Revoke a terminal's token. Chief arbiter only."""
    web.tokens.authorize_chief(bearer, tid)
    if not web.tokens.revoke(tid, terminal_id):
        raise NotFound(f"terminal {terminal_id!r} holds no live token")
