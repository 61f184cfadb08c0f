"""Standings as they are shown: the official standings after a round, the public scoreboard and the
rows the standings stream carries, each row with the key that decides its place (``ranking``).

The columns are ``projections.standings.columns``'s, the scoreboard's choice of standings
``projections.scoreboard``'s; the page, the API, the stream and the CLI read these.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from projections.scoreboard import scoreboard
from projections.standings.columns import standings_columns
from projections.views.matches import round_status
from projections.views.ranking import ranked_rows, ranking_explanation
from projections.views.refs import NotFound
from projections.views.snapshot import Snapshot, StandingsDocument
from schemas.profile import RuleProfile

STREAM_FIELDS = ("rank", "pairing_number", "team_id", "name", "mp", "gp", "tiebreaks")
SCOREBOARD_FIELDS = ("rank", "pairing_number", "team_id", "name", "federation", "mp", "gp", "tiebreaks", "record")


def counted_as(profile: RuleProfile) -> str:
    """What the pairing-allocated bye (PAB) counts as in a team's record, by the MP it scores under
    ``profile`` (``bye_award.mp`` against ``match_points``; R-D9, D.02 2022 art. 4.1, C.04.6 art. 1.4):
    "won", "drawn" (1 MP under the Olympiad profiles: a drawn match), "lost", else "<n> MP"."""
    mp, scale = profile.bye_award.mp, profile.match_points
    return {scale.win: "won", scale.draw: "drawn", scale.loss: "lost"}.get(mp, f"{mp} MP")


def with_byes(rows: list[dict[str, Any]], state: Any, rnd: int) -> list[dict[str, Any]]:
    """``rows`` (new dicts, never a document's own) each with the display-only ``byes``:
    ``{"rounds": [r, ...], "mp": MP they scored, "counted_as": counted_as(profile)}``, the rounds
    1..``rnd`` in which the team had the PAB. The canonical document and its digest do not carry it,
    so a row's won/drawn/lost plus its byes add up to its MP where the document's record does not."""
    profile = state.profile
    rounds: dict[str, list[int]] = {}
    for r in range(1, rnd + 1):
        bye = state.rounds[r].bye if r in state.rounds else None
        if bye:
            rounds.setdefault(bye, []).append(r)
    label = counted_as(profile)
    return [{**row, "byes": {"rounds": rounds.get(row["team_id"], []), "mp": profile.bye_award.mp * len(rounds.get(row["team_id"], [])),
                             "counted_as": label}} for row in rows]


def official(snap: Snapshot, rnd: int) -> StandingsDocument:
    """The standings after round ``rnd`` (as they stood when the next round was paired); raises ``NotFound``."""
    try:
        return snap.standings[rnd]
    except KeyError:
        raise NotFound(f"no standings after round {rnd} (rounds with standings: {sorted(snap.standings) or 'none'})") from None


def standings_view(snap: Snapshot, rnd: int) -> dict[str, Any]:
    """The standings after round ``rnd``: the canonical document (rows with every tie-break value
    and its per-opponent breakdown) plus its SHA-256 digest and the tie-break order; each row also
    names the key that puts it below the row above (``decided_by``) and its PABs (``byes``, ``with_byes``),
    neither part of the digested document;
    ``title`` says what the table is: "Standings after round 7 (official (round closed))", "(complete
    (not closed yet))" or "(provisional: 3 of 103 matches decided)" (``matches.round_status``)."""
    st = official(snap, rnd)
    tiebreaks, primary = snap.state.profile.tiebreaks, snap.state.profile.primary_score.upper()
    status = round_status(snap.state, rnd)
    rows = with_byes(ranked_rows(st.document["rows"], tiebreaks, primary=primary), snap.state, rnd)
    return {**st.document, "rows": rows, "digest": st.digest,
            "tiebreaks": list(tiebreaks), "columns": standings_columns(tiebreaks, primary), "status": status,
            "title": f"Standings after round {rnd}, {status['label']}"}


def scoreboard_view(snap: Snapshot) -> dict[str, Any]:
    """The public scoreboard (``projections.scoreboard``): the last complete round's standings,
    or provisional ones with the decided matches of the round in progress, labelled; the columns
    in order; the rounds whose official standings are one click away."""
    board = scoreboard(snap.state, snap.standings)
    st = board.standings
    tiebreaks, primary = snap.state.profile.tiebreaks, snap.state.profile.primary_score.upper()
    closed = sorted(r for r, s in snap.standings.items() if s.complete or r < snap.last_round)
    return {
        "round": board.round, "based_on": board.based_on, "decided": board.decided, "tables": board.tables,
        "provisional": board.provisional, "label": board.label, "digest": st.digest if st else None,
        "columns": standings_columns(tiebreaks, primary), "closed_rounds": closed,
        "rows": with_byes(ranked_rows(st.document["rows"], tiebreaks, SCOREBOARD_FIELDS, primary), snap.state,
                          st.document["round"]) if st else [],
    }


def compact_rows(rows: Iterable[Mapping[str, Any]], tiebreaks: Sequence[str], primary: str = "MP") -> list[dict[str, Any]]:
    """Standings document rows (``document["rows"]``, or the rows of a ``StandingsUpdated``) as the
    standings stream carries them: ``STREAM_FIELDS`` and each row's ``decided_by`` (``primary``: "MP"
    or "GP", the profile's primary score). Raises ``KeyError`` for a row missing one."""
    return ranked_rows(list(rows), tiebreaks, STREAM_FIELDS, primary)


def compare_view(snap: Snapshot, rnd: int, a: str, b: str) -> dict[str, Any]:
    """Which key separates teams ``a`` and ``b`` in the standings after round ``rnd``, and why
    (``ranking.ranking_explanation``, with ``round``). Raises ``NotFound`` for an unknown team or
    round, ``ValueError`` if ``a == b``."""
    st = official(snap, rnd)
    return {"round": rnd, **ranking_explanation(st.document["rows"], snap.state.profile.tiebreaks, a, b,
                                                  snap.state.profile.primary_score.upper())}
