"""JSON views of a backend ``Snapshot``: tournament, rounds, pairings with board results, team
pages, and which tie-break separates two teams. Plain dicts shaped as ``olympiad.web.models``.

Everything is read from the core: match scores from ``TournamentState.match`` (R-D2, R-D3),
colours from ``processors.scoring.home_is_white`` (R-D4), team rounds from
``projections.history``, standings values and breakdowns from the standings documents. Points are
decimal strings ("2.5"). Lookups of what does not exist raise ``NotFound`` with a message.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from processors.scoring import fold_match, home_is_white
from processors.tournament import TournamentState
from projections.history import build_history
from projections.scoreboard import scoreboard
from projections.seeding import tournament_pairing_numbers
from projections.standings.columns import standings_columns
from olympiad.web.backend import Snapshot
from schemas.events import RESULT_CODES
from schemas.points import fmt_points

# What each tie-break sums, and the breakdown field holding one round's term (spec R-T2, R-T4, R-D2).
TIEBREAK_DEFINITIONS = {
    "OSB": ("Olympiad Sonneborn-Berger: the sum over the rounds of the opponent's MP x the team's GP "
            "in that match", "osb_term"),
    "BH": ("Buchholz: the sum of the opponents' MP", "opponent_mp"),
    "GP": ("game points: the sum of the team's board points over all matches", "own_gp"),
}
CUT_TEXT = ", leaving out the round of the opponent with the fewest MP (cut-1)"


def team_refs(state: TournamentState) -> dict[str, dict[str, Any]]:
    """team id -> ``{team_id, name, federation, pairing_number}`` (pairing numbers per R-I1)."""
    numbers = tournament_pairing_numbers(state)
    return {tid: {"team_id": tid, "name": t.name, "federation": t.federation, "pairing_number": numbers[tid]}
            for tid, t in state.teams.items()}


def tournament_view(snap: Snapshot) -> dict[str, Any]:
    """The tournament: name, rule profile, tie-break order, rounds paired, the live round."""
    state = snap.state
    profile = state.profile
    return {
        "tournament_id": state.tournament_id, "name": state.created.name, "profile": profile.name,
        "tiebreaks": list(profile.tiebreaks), "columns": standings_columns(profile.tiebreaks), "boards": profile.boards, "rounds": profile.rounds,
        "paired_rounds": sorted(state.rounds), "current_round": snap.last_round, "teams": len(state.teams),
        "result_codes": list(RESULT_CODES),
    }


def rounds_view(snap: Snapshot) -> list[dict[str, Any]]:
    """Every paired round: tables, how many have all their boards, and whether it is complete
    (the standings digest of a round is in ``standings_view``)."""
    state = snap.state
    out = []
    for rnd, pairing in sorted(state.rounds.items()):
        done = sum(1 for t in pairing.tables if state.match(rnd, t.table).complete)
        out.append({"round": rnd, "tables": len(pairing.tables), "tables_complete": done,
                    "complete": done == len(pairing.tables)})
    return out


class NotFound(LookupError):
    """A round, table, team or standings that does not exist (HTTP 404)."""


def paired_table(state: TournamentState, rnd: int, table: int):
    """The ``Table`` (home, away) of round ``rnd``'s table ``table``; raises ``NotFound``."""
    if rnd not in state.rounds:
        raise NotFound(f"round {rnd} has not been paired (paired: {sorted(state.rounds) or 'none'})")
    try:
        return state.tables[(rnd, table)]
    except KeyError:
        raise NotFound(f"round {rnd} has no table {table} (tables 1..{len(state.rounds[rnd].tables)})") from None


def match_view(state: TournamentState, refs: Mapping[str, dict], rnd: int, table: int) -> dict[str, Any]:
    """One table of a round: both teams, GP per side, MP once complete, each board's result.

    Boards list White and Black as team ids (the home team has White on boards 1 and 3, R-D4),
    the result code (White-Black) and the id of the event that set it (None if not in yet).
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
    """The pairing of round ``rnd`` with live match scores, the bye and absent teams."""
    state = snap.state
    if rnd not in state.rounds:
        raise NotFound(f"round {rnd} has not been paired (paired: {sorted(state.rounds) or 'none'})")
    refs = team_refs(state)
    pairing = state.rounds[rnd]
    tables = [match_view(state, refs, rnd, t.table) for t in sorted(pairing.tables, key=lambda t: t.table)]
    return {"round": rnd, "complete": all(m["complete"] for m in tables), "tables": tables,
            "bye": refs[pairing.bye] if pairing.bye else None, "absent": [refs[a] for a in pairing.absent]}


def preview_view(state: TournamentState, rnd: int, table: int, entered: Mapping[int, str]) -> dict[str, Any]:
    """The match score a table would have with ``entered`` ({board: code}) over its stored results,
    folded by ``processors.scoring.fold_match``. Nothing is stored."""
    t = paired_table(state, rnd, table)
    codes = {**state.board_codes(rnd, table), **entered}
    m = fold_match(codes, state.profile.boards, state.profile.match_points)
    return {"round": rnd, "table": table, "home": t.home, "away": t.away, "home_gp": fmt_points(m.home_gp),
            "away_gp": fmt_points(m.away_gp), "home_mp": m.home_mp, "away_mp": m.away_mp,
            "boards_in": m.boards_in, "complete": m.complete}


def standings_view(snap: Snapshot, rnd: int) -> dict[str, Any]:
    """The standings after round ``rnd``: the canonical document (rows with every tie-break value
    and its per-opponent breakdown) plus its SHA-256 digest and the tie-break order."""
    st = _standings(snap, rnd)
    tiebreaks = snap.state.profile.tiebreaks
    return {**st.document, "digest": st.digest, "tiebreaks": list(tiebreaks), "columns": standings_columns(tiebreaks)}


def scoreboard_view(snap: Snapshot) -> dict[str, Any]:
    """The public scoreboard (``projections.scoreboard``): the last complete round's standings,
    or provisional ones with the decided matches of the round in progress, labelled; the columns
    in order; the rounds whose official standings are one click away."""
    board = scoreboard(snap.state, snap.standings)
    st = board.standings
    closed = sorted(r for r, s in snap.standings.items() if s.complete or r < snap.last_round)
    return {
        "round": board.round, "based_on": board.based_on, "decided": board.decided, "tables": board.tables,
        "provisional": board.provisional, "label": board.label, "digest": st.digest if st else None,
        "columns": standings_columns(snap.state.profile.tiebreaks), "closed_rounds": closed,
        "rows": [{k: r[k] for k in ("rank", "pairing_number", "team_id", "name", "federation", "mp", "gp", "tiebreaks",
                                    "record")} for r in st.document["rows"]] if st else [],
    }


def _standings(snap: Snapshot, rnd: int):
    try:
        return snap.standings[rnd]
    except KeyError:
        raise NotFound(f"no standings after round {rnd} (rounds with standings: {sorted(snap.standings) or 'none'})") from None


def team_view(snap: Snapshot, team_id: str) -> dict[str, Any]:
    """A team's page: its players and, round by round, opponent, colour, boards, GP, MP and its
    rank and MP in the standings after that round."""
    state = snap.state
    if team_id not in state.teams:
        raise NotFound(f"unknown team {team_id!r}")
    refs = team_refs(state)
    team = state.teams[team_id]
    history = build_history(state, snap.last_round)
    rounds = []
    for tr in history.team_rounds(team_id):
        boards = []
        if tr.table is not None:
            home = state.tables[(tr.round, tr.table)].home == team_id
            for b in range(1, state.profile.boards + 1):
                code = state.results.get((tr.round, tr.table, b), (None, None))[1]
                boards.append({"board": b, "colour": "W" if home_is_white(b) == home else "B", "result": code})
        row = next((r for r in snap.standings[tr.round].document["rows"] if r["team_id"] == team_id), None) \
            if tr.round in snap.standings else None
        rounds.append({
            "round": tr.round, "table": tr.table, "kind": tr.kind, "opponent": refs.get(tr.opponent),
            "colour": tr.colour, "gp": fmt_points(tr.gp), "mp": tr.mp if tr.kind != "pending" else None,
            "boards": boards, "rank_after": row["rank"] if row else None, "mp_after": row["mp"] if row else None,
        })
    return {
        **refs[team_id],
        "players": [p.model_dump(mode="json") for p in team.players],
        "withdrawn_from_round": state.withdrawn.get(team_id),
        "rounds": rounds,
    }


def _criteria(row: dict[str, Any], tiebreaks: list[str]) -> list[tuple[str, Decimal]]:
    """The ranking keys of a row in order (R-T1: MP, the profile's tie-breaks; R-T5: then SNo)."""
    return [("MP", Decimal(row["mp"]))] + [(tb, Decimal(row["tiebreaks"][tb])) for tb in tiebreaks] + \
        [("SNo", Decimal(row["pairing_number"]))]


def _terms(row: dict[str, Any], tiebreak: str) -> list[dict[str, Any]]:
    family = tiebreak.removesuffix("-C1")
    key = TIEBREAK_DEFINITIONS[family][1]
    cut = tiebreak.endswith("-C1")
    return [{"round": e["round"], "opponent": e["opponent"], "opponent_mp": e["opponent_mp"], "own_gp": e["own_gp"],
             "term": str(e[key]), "cut": cut and e["cut"], "unplayed": e["unplayed"]} for e in row["breakdown"]]


def compare_view(snap: Snapshot, rnd: int, a: str, b: str) -> dict[str, Any]:
    """Which criterion puts one of teams ``a`` and ``b`` ahead of the other after round ``rnd``, and why.

    The criteria are taken in the standings order (R-T1: MP, then the profile's tie-breaks, all
    higher first; R-T5: teams equal on all of them share the place and the lower starting number is
    listed first). ``steps`` lists each criterion up to the deciding one; ``terms`` gives both
    teams' per-round terms of the deciding tie-break (empty when MP or SNo decide). Raises
    ``NotFound`` for an unknown team or round, ``ValueError`` if ``a == b``.
    """
    st = _standings(snap, rnd)
    rows = {r["team_id"]: r for r in st.document["rows"]}
    for t in (a, b):
        if t not in rows:
            raise NotFound(f"unknown team {t!r}")
    if a == b:
        raise ValueError("pick two different teams")
    tiebreaks = list(snap.state.profile.tiebreaks)
    ra, rb = rows[a], rows[b]
    steps = []
    for (name, va), (_, vb) in zip(_criteria(ra, tiebreaks), _criteria(rb, tiebreaks)):
        steps.append({"criterion": name, "a": fmt_points(va), "b": fmt_points(vb), "equal": va == vb})
        if va != vb:
            break  # starting numbers always differ, so some criterion decides
    ahead, behind = (ra, rb) if (va < vb if name == "SNo" else va > vb) else (rb, ra)
    level = ", ".join(s["criterion"] for s in steps[:-1])
    if name == "MP":
        why = f"{ahead['name']} has more match points ({ahead['mp']} to {behind['mp']}): MP decide first (R-T1)."
    elif name == "SNo":
        why = (f"Equal on {level}, the teams share place {ahead['rank']} (R-T5); {ahead['name']} is listed "
               f"first only for its lower starting number ({ahead['pairing_number']} to {behind['pairing_number']}).")
    else:
        definition = TIEBREAK_DEFINITIONS[name.removesuffix("-C1")][0] + (CUT_TEXT if name.endswith("-C1") else "")
        why = (f"Level on {level}; {name} separates them: {ahead['name']} {ahead['tiebreaks'][name]} to "
               f"{behind['name']} {behind['tiebreaks'][name]}. {name} is {definition}.")
    terms = {} if name in ("MP", "SNo") else {a: _terms(ra, name), b: _terms(rb, name)}
    return {"round": rnd, "a": a, "b": b, "ahead": ahead["team_id"], "decided_by": name, "steps": steps,
            "explanation": why, "terms": terms}
