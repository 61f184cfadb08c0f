"""A table's boards and match score, a round's pairing, a preview of a table, the rounds' progress.

Match scores come from ``TournamentState.match`` (R-D2, R-D3) and ``processors.scoring.fold_match``,
colours from ``processors.scoring.home_is_white`` (R-D4). Points are decimal strings.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Mapping

from processors.rules import board_key
from processors.scoring import fold_match, home_is_white
from processors.tournament import RuleViolation, TournamentState
from projections.views.refs import NotFound, paired_table, team_refs
from projections.views.snapshot import Snapshot
from schemas.events import RESULT_CODES
from schemas.points import fmt_points


def rounds_view(snap: Snapshot) -> list[dict[str, Any]]:
    """Every paired round: tables, how many have all their boards, and whether it is complete
    (the standings digest of a round is in ``standings.standings_view``)."""
    state = snap.state
    out = []
    for rnd, pairing in sorted(state.rounds.items()):
        done = sum(1 for t in pairing.tables if state.match(rnd, t.table).complete)
        out.append({"round": rnd, "tables": len(pairing.tables), "tables_complete": done,
                    "complete": done == len(pairing.tables)})
    return out


def match_view(state: TournamentState, refs: Mapping[str, dict], rnd: int, table: int) -> dict[str, Any]:
    """One table of a round: both teams (``refs``: ``refs.team_refs``), GP per side, MP once
    complete, each board's result.

    Boards list White and Black as team ids (the home team has White on boards 1 and 3, R-D4),
    the result code (White-Black) and the id of the event that set it (None if not in yet).
    Raises ``NotFound`` for a round or table that does not exist.
    """
    t = paired_table(state, rnd, table)
    m = state.match(rnd, table)
    boards = []
    for b in range(1, state.profile.boards + 1):
        event_id, code = state.results.get((rnd, table, b), (None, None))
        white, black = (t.home, t.away) if home_is_white(b) else (t.away, t.home)
        boards.append({"board": b, "white": white, "black": black, "result": code, "event_id": event_id})
    return {
        "round": rnd, "table": table, "home": refs[t.home], "away": refs[t.away],
        "home_gp": fmt_points(m.home_gp), "away_gp": fmt_points(m.away_gp), "home_mp": m.home_mp,
        "away_mp": m.away_mp, "boards_in": m.boards_in, "complete": m.complete, "boards": boards,
    }


def pairings_view(snap: Snapshot, rnd: int) -> dict[str, Any]:
    """The pairing of round ``rnd`` with live match scores, the bye, the absent teams and the teams
    not yet entered (late entries that play from a later round: not absent, not in the tournament yet)."""
    state = snap.state
    if rnd not in state.rounds:
        raise NotFound(f"round {rnd} has not been paired (paired: {sorted(state.rounds) or 'none'})")
    refs = team_refs(state)
    pairing = state.rounds[rnd]
    tables = [match_view(state, refs, rnd, t.table) for t in sorted(pairing.tables, key=lambda t: t.table)]
    return {"round": rnd, "complete": all(m["complete"] for m in tables), "tables": tables,
            "bye": refs[pairing.bye] if pairing.bye else None, "absent": [refs[a] for a in pairing.absent],
            "not_entered": [refs[t] for t in state.teams if state.entered.get(t, 1) > rnd]}


def preview_view(state: TournamentState, rnd: int, table: int, entered: Mapping[int, str]) -> dict[str, Any]:
    """The match score a table would have with ``entered`` ({board: code}) over its stored results,
    folded by ``processors.scoring.fold_match``. Nothing is stored. Raises ``NotFound`` for a round
    or table that does not exist, ``RuleViolation`` for a code that is not a result code (field
    ``result``) or a board the match does not have (field ``board``, R-D1: ``processors.rules.board_key``)."""
    t = paired_table(state, rnd, table)
    for board, code in entered.items():
        if code not in RESULT_CODES:
            raise RuleViolation(f"board {board}: {code!r} is not a result code; use one of {', '.join(RESULT_CODES)}",
                                field="result", rule="result codes")
        board_key(state, SimpleNamespace(round=rnd, table=table, board=board))
    codes = {**state.board_codes(rnd, table), **entered}
    m = fold_match(codes, state.profile.boards, state.profile.match_points)
    return {"round": rnd, "table": table, "home": t.home, "away": t.away, "home_gp": fmt_points(m.home_gp),
            "away_gp": fmt_points(m.away_gp), "home_mp": m.home_mp, "away_mp": m.away_mp,
            "boards_in": m.boards_in, "complete": m.complete}


def round_status(state: TournamentState, rnd: int) -> dict[str, Any]:
    """What a table of round ``rnd`` is: ``official`` (the round is closed, ``RoundClosed``),
    ``complete`` (every match decided, not closed) or ``provisional`` (``decided`` of ``tables``
    matches decided); ``label`` says it in words ("provisional: 3 of 103 matches decided")."""
    tables = state.rounds[rnd].tables if rnd in state.rounds else ()
    decided = sum(1 for t in tables if state.match(rnd, t.table).complete)
    if rnd in state.closed:
        status, label = "official", "official (round closed)"
    elif tables and decided == len(tables):
        status, label = "complete", "complete (not closed yet)"
    else:
        status, label = "provisional", f"provisional: {decided} of {len(tables)} matches decided"
    return {"round": rnd, "status": status, "decided": decided, "tables": len(tables), "label": label}
