"""Routes of a round's tables: a table with its boards, a preview of a score, both line-ups, and
the writes of result entry (results, a correction, a whole match forfeited), each one command
through the one HTTP command path (``deps.WebDoor.send``)."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends

from olympiad.web.api_errors import READ_ERRORS, REFUSALS
from olympiad.web.deps import WebDoor, door, served, token
from olympiad.web.models import CorrectionIn, ForfeitIn, Match, Preview, PreviewIn, ResultsIn, Written
from processors.deciders.results import player_names
from processors.scoring import home_is_white
from projections.views.matches import match_view, preview_view
from projections.views.refs import paired_table, team_refs
from schemas.events import FORFEIT_CODES

router = APIRouter()
TABLE = "/api/tournaments/{tid}/rounds/{rnd}/tables/{table}"


@router.get(TABLE, response_model=Match, responses=READ_ERRORS, tags=["read"])
def match(rnd: int, table: int, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """One table of a round: teams, boards with colours and results, match score."""
    with web.backend.read() as snap:
        return match_view(snap.state, team_refs(snap.state), rnd, table)


@router.post(TABLE + "/preview", response_model=Preview, responses=REFUSALS, tags=["read"])
def preview(rnd: int, table: int, body: PreviewIn, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict:
    """The match score the table would have with these board results over the stored ones.
    Stores nothing (the entry page shows it while the arbiter types)."""
    with web.backend.read() as snap:
        return preview_view(snap.state, rnd, table, {b.board: b.result for b in body.boards})


@router.get(TABLE + "/lineups", tags=["read"], responses=REFUSALS)
def table_lineups(rnd: int, table: int, tid: str = Depends(served), web: WebDoor = Depends(door)) -> dict[str, Any]:
    """Both line-ups of a table, board by board: White's and Black's player names (the home
    team has White on boards 1 and 3, R-D4)."""
    with web.backend.read() as snap:
        state = snap.state
        t = paired_table(state, rnd, table)
        boards = []
        for b in range(1, state.profile.boards + 1):
            white, black = player_names(state, rnd, table, b)
            white_team, black_team = (t.home, t.away) if home_is_white(b) else (t.away, t.home)
            boards.append({"board": b, "white_team": white_team, "black_team": black_team, "white": white, "black": black})
    return {"round": rnd, "table": table, "boards": boards}


def _written(web: WebDoor, outcome: Any, rnd: int, table: int, actor: dict[str, Any]) -> Written:
    """The answer to an accepted write: its events and the table as it now stands."""
    with web.backend.read() as snap:
        now = match_view(snap.state, team_refs(snap.state), rnd, table)
    new = 0 if outcome.already_recorded else len(outcome.event_ids)
    return Written(accepted=new, event_ids=list(outcome.event_ids), terminal_id=actor["id"], match=now)


@router.post(TABLE + "/results", status_code=201, response_model=Written, responses=REFUSALS, tags=["write"])
def enter_results(rnd: int, table: int, body: ResultsIn, tid: str = Depends(served), bearer: str | None = Depends(token),
                  web: WebDoor = Depends(door)) -> Written:
    """Record board results of one table, all or none (``RecordResults``; a forfeit code
    +/-, -/+, -/- with its reason, default "other" with the note). Event ids are the server's:
    an identical retry is "already recorded"; a board that already has another result is
    refused (change it with a correction)."""
    who = web.actor(bearer, tid, table)
    boards = [{"board": e.board, "result": e.result, "note": e.reason or "",
               **({"forfeit": e.forfeit or "other"} if e.result in FORFEIT_CODES else {})} for e in body.boards]
    outcome = web.send({"command": "RecordResults", "tournament_id": tid, "actor": who, "round": rnd, "table": table,
                        "boards": boards})
    return _written(web, outcome, rnd, table, who)


@router.post(TABLE + "/corrections", status_code=201, response_model=Written, responses=REFUSALS, tags=["write"])
def correct_result(rnd: int, table: int, body: CorrectionIn, tid: str = Depends(served),
                   bearer: str | None = Depends(token), web: WebDoor = Depends(door)) -> Written:
    """The chief arbiter's correction of one board's current result (``CorrectResult``, with a
    reason); a terminal's token is refused (403)."""
    who = web.actor(bearer, tid, table)
    outcome = web.send({"command": "CorrectResult", "tournament_id": tid, "actor": who, "round": rnd, "table": table,
                        "board": body.board, "result": body.result, "reason": body.reason})
    return _written(web, outcome, rnd, table, who)


@router.post(TABLE + "/forfeit", status_code=201, response_model=Written, responses=REFUSALS, tags=["write"])
def forfeit_match(rnd: int, table: int, body: ForfeitIn, tid: str = Depends(served),
                  bearer: str | None = Depends(token), web: WebDoor = Depends(door)) -> Written:
    """Record a whole match forfeited (``RecordForfeit`` without a board): ``winner`` gets every
    board by default (a team not at the table is refused, field ``winner``), or nobody (null:
    both teams forfeit, R-D8)."""
    who = web.actor(bearer, tid, table)
    with web.backend.read() as snap:
        t = paired_table(snap.state, rnd, table)  # an unknown round or table: 404
    who_loses = {"forfeiting": [t.home, t.away]} if body.winner is None else {"winner": body.winner}
    outcome = web.send({"command": "RecordForfeit", "tournament_id": tid, "actor": who, "round": rnd, "table": table,
                        **who_loses, "reason": body.forfeit or "absence", "note": body.reason})
    return _written(web, outcome, rnd, table, who)
