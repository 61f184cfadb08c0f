"""The ranking explained: the key that decides each place, and which key separates two teams.

Both read standings document rows (``StandingRow.as_dict`` form, rank order) and the profile's
tie-breaks, Olympiad names or C.07 (2026) codes alike. The order of the keys is the standings
order (R-T1; C.07 2026 art. 4.2): MP, then the profile's tie-breaks in turn; teams equal on all of
them share the place (R-T5), the starting number (SNo) only listing them. The key that separates
two rows is the first on which they differ (``projections.standings.decided_by``, values compared
as their canonical texts); which of the two is ahead is the order the ranking gave them, so a
tie-break ranked lower first (C.07 BC) or on the tied group (the EDE family) is explained as it ranked.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from projections.standings.decided_by import SHARED, decided_by_documents, first_difference
from projections.views.refs import NotFound
from schemas.tiebreak_codes import parse_tiebreak

# What each Olympiad tie-break sums, and the breakdown field holding one round's term (spec R-T2, R-T4, R-D2).
TIEBREAK_DEFINITIONS = {
    "OSB": ("Olympiad Sonneborn-Berger: the sum over the rounds of the opponent's MP x the team's GP "
            "in that match", "osb_term"),
    "BH": ("Buchholz: the sum of the opponents' MP", "opponent_mp"),
    "GP": ("game points: the sum of the team's board points over all matches", "own_gp"),
}
CUT_TEXT = ", leaving out the round of the opponent with the fewest MP (cut-1)"
STARTING_NUMBER = "SNo"


def ranked_rows(rows: Sequence[Mapping[str, Any]], tiebreaks: Sequence[str],
                fields: Sequence[str] | None = None, primary: str = "MP") -> list[dict[str, Any]]:
    """Standings document rows (rank order) each with ``decided_by``: the key that puts it below the
    row above (``projections.standings.decided_by``; ``SHARED`` for a shared place, None for the
    first row). ``fields``: the keys of each row kept (all when None); ``primary``: "MP" or "GP". Raises ``KeyError`` for a row
    without MP or one of ``tiebreaks``."""
    kept = [dict(r) if fields is None else {k: r[k] for k in fields} for r in rows]
    for row, by in zip(kept, decided_by_documents(rows, tiebreaks, primary)):
        row["decided_by"] = by
    return kept


def definition(tiebreak: str) -> str:
    """What tie-break ``tiebreak`` is, in a sentence's words: an Olympiad name's sum (with its cut),
    else the C.07 (2026) article of the code (``schemas.tiebreak_codes``), and how it ranks where
    that is not "higher first"."""
    family = tiebreak.removesuffix("-C1")
    if family in TIEBREAK_DEFINITIONS:
        return TIEBREAK_DEFINITIONS[family][0] + (CUT_TEXT if tiebreak.endswith("-C1") else "")
    code = parse_tiebreak(tiebreak)
    how = {"BC": ", the lower value ranked first"}.get(code.acronym, "")
    if code.acronym.startswith("EDE"):
        how = ", computed among the teams tied before it"
    return f"the tie-break of {code.article}{how}"


def _terms(row: Mapping[str, Any], tiebreak: str) -> list[dict[str, Any]]:
    """The per-round terms of an Olympiad tie-break from the row's breakdown (cut element marked)."""
    key = TIEBREAK_DEFINITIONS[tiebreak.removesuffix("-C1")][1]
    cut = tiebreak.endswith("-C1")
    return [{"round": e["round"], "opponent": e["opponent"], "opponent_mp": e["opponent_mp"], "own_gp": e["own_gp"],
             "term": str(e[key]), "cut": cut and e["cut"], "unplayed": e["unplayed"]} for e in row["breakdown"]]


def _values(row: Mapping[str, Any], tiebreaks: Sequence[str], primary: str) -> list[tuple[str, str]]:
    return [(primary, str(row[primary.lower()]))] + [(t, str(row["tiebreaks"][t])) for t in tiebreaks] + \
        [(STARTING_NUMBER, str(row["pairing_number"]))]


def ranking_explanation(rows: Sequence[Mapping[str, Any]], tiebreaks: Sequence[str], a: str, b: str,
                        primary: str = "MP") -> dict[str, Any]:
    """Which key puts one of teams ``a`` and ``b`` ahead of the other in the standings ``rows``, and why.

    Returns ``{a, b, ahead, decided_by, steps, explanation, terms}``: ``decided_by`` the first key on
    which the two differ (for neighbours the ``decided_by`` of the lower row), ``"SNo"`` when they
    share the place; ``steps`` each key up to it with both values and whether they are equal;
    ``terms`` both teams' per-round terms of the deciding tie-break where it is an Olympiad sum
    (OSB, BH, GP), else empty. Raises ``NotFound`` for a team not in ``rows``, ``ValueError`` if ``a == b``.
    """
    place = {r["team_id"]: i for i, r in enumerate(rows)}
    for t in (a, b):
        if t not in place:
            raise NotFound(f"unknown team {t!r}")
    if a == b:
        raise ValueError("pick two different teams")
    ahead, behind = sorted((rows[place[a]], rows[place[b]]), key=lambda r: place[r["team_id"]])
    key = first_difference(ahead, behind, tiebreaks, primary)
    name = STARTING_NUMBER if key == SHARED else key
    values = {a: _values(rows[place[a]], tiebreaks, primary), b: _values(rows[place[b]], tiebreaks, primary)}
    steps = []
    for (criterion, va), (_, vb) in zip(values[a], values[b]):
        steps.append({"criterion": criterion, "a": va, "b": vb, "equal": va == vb})
        if criterion == name:
            break
    level = ", ".join(s["criterion"] for s in steps[:-1])
    if name == "MP":
        why = f"{ahead['name']} has more match points ({ahead['mp']} to {behind['mp']}): MP decide first (R-T1)."
    elif name == "GP" and primary == "GP":
        why = f"{ahead['name']} has more game points ({ahead['gp']} to {behind['gp']}): GP, the primary score, decide first (C.04.6 art. 1.2)."
    elif name == STARTING_NUMBER:
        why = (f"Equal on {level}, the teams share place {ahead['rank']} (R-T5); {ahead['name']} is listed "
               f"first only for its lower starting number ({ahead['pairing_number']} to {behind['pairing_number']}).")
    else:
        why = (f"Level on {level}; {name} separates them: {ahead['name']} {ahead['tiebreaks'][name]} to "
               f"{behind['name']} {behind['tiebreaks'][name]}. {name} is {definition(name)}.")
    olympiad_sum = name.removesuffix("-C1") in TIEBREAK_DEFINITIONS
    terms = {a: _terms(rows[place[a]], name), b: _terms(rows[place[b]], name)} if olympiad_sum else {}
    return {"a": a, "b": b, "ahead": ahead["team_id"], "decided_by": name, "steps": steps, "explanation": why,
            "terms": terms}
