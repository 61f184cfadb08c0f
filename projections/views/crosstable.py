"""The crosstable: every team in standings order, and for each round its opponent (rank and
starting number), its colour on board 1 and its match score (``projections.history``)."""
from __future__ import annotations

from typing import Any

from projections.history import build_history
from projections.views.matches import round_status
from projections.views.refs import team_refs
from projections.views.snapshot import Snapshot
from schemas.points import fmt_points


def crosstable_view(snap: Snapshot) -> dict[str, Any]:
    """``{round, status, rounds, rows}``: rows in the order of the standings after the last
    paired round (``Snapshot.standings``; by starting number before any), each with rank, team,
    MP, GP and per round ``{round, kind, opponent (team ref), opponent_rank, colour, gp, opponent_gp, mp}``
    (``kind`` as ``projections.history.TeamRound``; a pending match has no MP yet)."""
    state = snap.state
    refs = team_refs(state)
    last = snap.last_round
    standings = snap.standings.get(last)
    if standings is not None:
        order = [(r["team_id"], r["rank"], r["mp"], r["gp"]) for r in standings.document["rows"]]
    else:
        order = [(tid, None, 0, "0") for tid in sorted(refs, key=lambda t: refs[t]["pairing_number"])]
    rank_of = {tid: rank for tid, rank, _, _ in order}
    history = build_history(state, last) if last else None
    rows = []
    for tid, rank, mp, gp in order:
        cells = []
        for tr in history.team_rounds(tid) if history else ():
            opp_gp = None
            if tr.table is not None:
                m = state.match(tr.round, tr.table)
                opp_gp = fmt_points(m.away_gp if state.tables[(tr.round, tr.table)].home == tid else m.home_gp)
            cells.append({"round": tr.round, "kind": tr.kind, "opponent": refs.get(tr.opponent) if tr.opponent else None,
                          "opponent_rank": rank_of.get(tr.opponent), "colour": tr.colour, "gp": fmt_points(tr.gp),
                          "opponent_gp": opp_gp, "mp": tr.mp if tr.kind != "pending" else None})
        rows.append({"rank": rank, **refs[tid], "mp": mp, "gp": gp, "rounds": cells})
    return {"round": last, "status": round_status(state, last) if last else None, "rounds": list(range(1, last + 1)),
            "rows": rows}
