"""Standings order and shared places.

Order (R-T1; spec README "Standings as published at Samarkand 2026" 4): the primary score (MP;
GP when a C.04.6 profile makes game points primary, art. 1.2), then the profile's tie-breaks in
their order (all descending but BC), then the pairing number ascending. Teams equal on the
primary score and on every tie-break share the place (competition ranking: 1, 2, 2, 4); the
pairing number only orders them inside it (R-T5, A11).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from projections.history import History
from projections.memo import slot_memo
from projections.standings.buchholz import buchholz
from projections.standings.catalogue import RANKED_ON_THE_GROUP, C07Context, higher_is_better, value_text
from projections.standings.cut import cut_index
from projections.standings.elements import Element, match_points_total, team_elements
from projections.standings.sonneborn_berger import olympiad_sonneborn_berger
from schemas.canonical import canonical_json
from schemas.points import ZERO, fmt_points
from schemas.profile import RuleProfile
from schemas.tiebreak_codes import OLYMPIAD_NAMES, parse_tiebreak


@dataclass(frozen=True)
class TeamLine:
    """What one team's standings line is computed from its rounds: ``gp`` (half-points),
    ``tiebreaks`` (each tie-break of the profile, in its order, to its value), the per-round
    ``elements`` they are summed from, ``cut`` (the index cut-1 removes) and ``record`` (won,
    drawn, lost matches). Memoised (``_team_line``), so shared by the standings of many batches:
    read-only, ``tiebreaks`` included."""

    gp: Decimal
    tiebreaks: Mapping[str, Decimal]
    elements: tuple[Element, ...] = field(repr=False)
    cut: int | None
    record: tuple[int, int, int]
    # The canonical JSON of this line's document row per (rank, pairing number, team, name,
    # federation, MP): ``StandingRow.canonical``, the row's text reused by every document it is in.
    _texts: dict[tuple[Any, ...], str] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def order(self) -> tuple[Decimal, ...]:
        """The tie-break values negated, in the profile's order: the line's part of the sort key."""
        return tuple(-v for v in self.tiebreaks.values())

    @cached_property
    def summary_parts(self) -> dict[str, Any]:
        """``json_parts`` without the per-opponent ``breakdown``: what a ``StandingsUpdated`` row
        carries (``projections.projector.standings_payload``), built once per line."""
        return {k: v for k, v in self.json_parts.items() if k != "breakdown"}

    @cached_property
    def tiebreaks_text(self) -> str:
        """The ``tiebreaks`` column of the ``standings`` read model (``projections.store.standings_rows``):
        the tie-break values as decimal strings, JSON with sorted keys, built once per line."""
        return json.dumps(self.json_parts["tiebreaks"], sort_keys=True)

    @cached_property
    def json_parts(self) -> dict[str, Any]:
        """The part of ``StandingRow.as_dict`` that depends on the line alone (points as decimal
        strings), built once per line: the standings documents of successive batches share it."""
        return {
            "gp": fmt_points(self.gp),
            "tiebreaks": {k: value_text(v) for k, v in self.tiebreaks.items()},
            "record": {"won": self.record[0], "drawn": self.record[1], "lost": self.record[2]},
            "breakdown": [
                {
                    "round": e.round,
                    "opponent": e.opponent,
                    "opponent_mp": e.opponent_mp,
                    "own_gp": fmt_points(e.own_gp),
                    "osb_term": fmt_points(e.osb_term),
                    "unplayed": e.unplayed,
                    "cut": i == self.cut,
                }
                for i, e in enumerate(self.elements)
            ],
        }


@dataclass(frozen=True)
class StandingRow:
    """One team's line after a round: its place, pairing number, name, federation and ``mp``
    (match points) and the ``line`` its GP, tie-breaks (``"OSB-C1"``, ``"BH-C1"``, ``"GP"`` ...),
    elements, cut and record come from (also read as ``row.gp``, ``row.tiebreaks`` ...)."""

    rank: int
    pairing_number: int
    team_id: str
    name: str
    federation: str
    mp: int
    line: TeamLine
    # Type A tie-breaks (the EDE family, C.07 art. 4.3): computed on the group the team was tied in.
    group_values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def gp(self) -> Decimal:
        return self.line.gp

    @property
    def tiebreaks(self) -> Mapping[str, Any]:
        return {**self.line.tiebreaks, **self.group_values} if self.group_values else self.line.tiebreaks

    @property
    def elements(self) -> tuple[Element, ...]:
        return self.line.elements

    @property
    def cut(self) -> int | None:
        return self.line.cut

    @property
    def record(self) -> tuple[int, int, int]:
        return self.line.record

    def as_dict(self, breakdown: bool = True) -> dict[str, Any]:
        """Plain, JSON-ready form (points as decimal strings) with the per-opponent breakdown
        (without it when ``breakdown`` is False: a ``StandingsUpdated`` row).

        Its ``tiebreaks``, ``record`` and ``breakdown`` are the line's (``TeamLine.json_parts``),
        shared with every other document of the line: read-only."""
        parts = self.line.json_parts if breakdown else self.line.summary_parts
        if self.group_values:
            parts = {**parts, "tiebreaks": {**parts["tiebreaks"], **{k: value_text(v) for k, v in self.group_values.items()}}}
        return {
            "rank": self.rank,
            "pairing_number": self.pairing_number,
            "team_id": self.team_id,
            "name": self.name,
            "federation": self.federation,
            "mp": self.mp,
            **parts,
        }


    def canonical(self) -> str:
        """``canonical_json(self.as_dict())``, held by the line for the row's other fields (a row whose
        rank and MP did not change since the last standings reuses the text; type A values, computed
        per tied group, are encoded each time)."""
        if self.group_values:
            return canonical_json(self.as_dict())
        key = (self.rank, self.pairing_number, self.team_id, self.name, self.federation, self.mp)
        texts = self.line._texts
        text = texts.get(key)
        if text is None:
            if len(texts) >= 16:  # a line lives for one round of one team: a few ranks at most
                texts.clear()
            text = texts[key] = canonical_json(self.as_dict())
        return text


def tiebreak_value(name: str, elements: list[Element], gp: Decimal, cut1: int | None) -> Decimal:
    """Value of tie-break ``name`` over a team's elements (GP is the team's total GP; ``cut1`` is
    ``cut_index(elements)``, the element every "-C1" tie-break leaves out)."""
    if name == "GP":
        return gp
    cut = cut1 if name.endswith("-C1") else None
    if name.startswith("OSB"):
        return olympiad_sonneborn_berger(elements, cut)
    if name.startswith("BH"):
        return Decimal(buchholz(elements, cut))
    raise ValueError(f"unknown tie-break {name!r}")


# A team's line depends only on its own rounds, its opponents' MP, its own MP and the round
# (``team_elements``), so a recomputation after one more result reuses the lines of every team it
# does not touch: the projection worker takes standings after every batch. One slot per
# tournament, profile, team and round (``projections.memo``; the tournament because copies of an
# event, or a league's divisions, share team ids and would evict each other's lines); ``build_history`` hands out the same ``TeamRound``
# objects for tables that did not change, so the inputs mostly compare by identity. Bound: some
# 7 tournaments of 206 teams through 11 rounds (a line with its JSON parts takes about 6 KB).
_LINES = slot_memo(16_384)


def _team_line(history: History, team: str, profile: RuleProfile, mp_total: dict[str, int]) -> TeamLine:
    """The line of ``team``: the memoised one while its inputs are unchanged, else ``_compute_line``."""
    rounds = history.team_rounds(team)
    inputs = (profile, rounds, tuple([mp_total[tr.opponent] if tr.opponent else None for tr in rounds]), mp_total[team])
    return _LINES.get((history.tournament_id, id(profile), team, history.through_round), inputs,
                      lambda: _compute_line(history, team, profile, mp_total))


def _compute_line(history: History, team: str, profile: RuleProfile, mp_total: dict[str, int],
                  c07: C07Context | None = None) -> TeamLine:
    """The line of ``team`` computed from its rounds (``mp_total``: every team's current MP). With a
    ``c07`` context, C.07 codes are valued by the catalogue (type A ones later, per tied group)."""
    rounds = history.team_rounds(team)
    gp = sum((tr.gp for tr in rounds), ZERO)
    elements = team_elements(history, team, profile, mp_total)
    cut1 = cut_index(elements)
    scale = profile.match_points
    played = [tr.mp for tr in rounds if tr.kind != "pending" and tr.opponent]
    values = {name: tiebreak_value(name, elements, gp, cut1) if name in OLYMPIAD_NAMES else c07.value(name, team)
              for name in profile.tiebreaks if name in OLYMPIAD_NAMES or parse_tiebreak(name).acronym not in RANKED_ON_THE_GROUP}
    return TeamLine(gp, MappingProxyType(values), tuple(elements), cut1,
                    (played.count(scale.win), played.count(scale.draw), played.count(scale.loss)))


def uses_catalogue(profile: RuleProfile) -> bool:
    """True when the profile names a C.07 code (not only the Olympiad names)."""
    return any(name not in OLYMPIAD_NAMES for name in profile.tiebreaks)


def _sort_key(value: Any, higher_first: bool) -> Any:
    if isinstance(value, tuple):
        return tuple(-v for v in value) if higher_first else value
    return -value if higher_first else value


def tiebreak_sort_key(name: str, value: Any) -> Any:
    """A tie-break value as an ascending sort key: negated where higher ranks first (every tie-break
    but BC, C.07 12.1), element by element for a tuple (TBR, BBE, the EDE family)."""
    return _sort_key(value, name in OLYMPIAD_NAMES or higher_is_better(parse_tiebreak(name)))


def _c07_standings(history: History, profile: RuleProfile, mp_total: dict[str, int]) -> list[StandingRow]:
    """Standings of a profile with C.07 codes: MP, then each tie-break in turn on the teams still tied
    (C.07 2026 art. 4.2), type A ones computed on that group; then the pairing number."""
    ctx = C07Context(history, profile)
    lines = {t: _compute_line(history, t, profile, mp_total, ctx) for t in history.teams}
    names = list(profile.tiebreaks)
    direction = {n: True if n in OLYMPIAD_NAMES else higher_is_better(parse_tiebreak(n)) for n in names}
    group_key = {n: n not in OLYMPIAD_NAMES and parse_tiebreak(n).acronym in RANKED_ON_THE_GROUP for n in names}
    grouped: dict[str, dict[str, Any]] = {t: {} for t in history.teams}
    ordered: list[str] = []

    def value(n: str, t: str) -> Any:
        return grouped[t].get(n, ()) if group_key[n] else lines[t].tiebreaks[n]  # () : never tied, never computed

    def rank(teams: list[str], k: int) -> None:
        if len(teams) == 1 or k == len(names):
            ordered.extend(sorted(teams, key=lambda t: history.teams[t].pairing_number))
            return
        n = names[k]
        if group_key[n]:
            for t, v in ctx.group_values(n, teams).items():
                grouped[t][n] = v
        teams = sorted(teams, key=lambda t: _sort_key(value(n, t), direction[n]))
        start = 0
        for i in range(1, len(teams) + 1):
            if i == len(teams) or value(n, teams[i]) != value(n, teams[start]):
                rank(teams[start:i], k + 1)
                start = i

    primary = primary_totals(profile, mp_total, {t: line.gp for t, line in lines.items()})
    by_primary = sorted((t for t, info in history.teams.items() if info.entered <= history.through_round), key=lambda t: -primary[t])
    start = 0
    for i in range(1, len(by_primary) + 1):
        if i == len(by_primary) or primary[by_primary[i]] != primary[by_primary[start]]:
            rank(by_primary[start:i], 0)
            start = i
    rows: list[StandingRow] = []
    for i, t in enumerate(ordered):
        info, full = history.teams[t], tuple(value(n, t) for n in names)
        shared = rows and primary[rows[-1].team_id] == primary[t] and tuple(value(n, rows[-1].team_id) for n in names) == full
        rows.append(StandingRow(rows[-1].rank if shared else i + 1, info.pairing_number, t, info.name, info.federation,
                                mp_total[t], lines[t], {n: value(n, t) for n in names if group_key[n]}))
    return rows


def primary_totals(profile: RuleProfile, mp_total: dict[str, int], gp_total: dict[str, Decimal]) -> dict[str, Decimal]:
    """Each team's primary score (C.04.6 art. 1.2; ``RuleProfile.primary_score``): its MP, or its GP
    (half-points) when game points are primary."""
    if profile.primary_score == "gp":
        return dict(gp_total)
    return {t: Decimal(v) for t, v in mp_total.items()}


def compute_standings(history: History, profile: RuleProfile) -> list[StandingRow]:
    """The standings after ``history.through_round``, in rank order: by the primary score (MP, or
    GP when the profile makes game points primary), the tie-breaks, then the pairing number.

    Withdrawn teams stay in the table with their results; a late entry appears once it has
    entered (from its first round). Raises ``ValueError`` for a tie-break name the engine does
    not know.
    """
    mp_total = {t: match_points_total(history, t) for t in history.teams}
    if uses_catalogue(profile):
        return _c07_standings(history, profile, mp_total)
    gp_primary = profile.primary_score == "gp"
    provisional = [(mp_total[team], _team_line(history, team, profile, mp_total), info) for team, info in history.teams.items()
                   if info.entered <= history.through_round]
    provisional.sort(key=lambda p: (-(p[1].gp if gp_primary else p[0]), p[1].order, p[2].pairing_number))
    rows: list[StandingRow] = []
    for i, (mp, line, info) in enumerate(provisional):
        shared = rows and (rows[-1].gp == line.gp if gp_primary else rows[-1].mp == mp) and rows[-1].line.order == line.order
        rows.append(StandingRow(rows[-1].rank if shared else i + 1, info.pairing_number, info.team_id, info.name,
                                info.federation, mp, line))
    return rows


def standings_document(rows: list[StandingRow], *, tournament_id: str, round: int, profile: str, complete: bool) -> dict[str, Any]:
    """The canonical standings document whose SHA-256 is the standings digest (its rows' inner
    parts are shared with other documents: read-only)."""
    return {
        "tournament_id": tournament_id,
        "round": round,
        "profile": profile,
        "complete": complete,
        "rows": [r.as_dict() for r in rows],
    }


def standings_canonical(rows: list[StandingRow], *, tournament_id: str, round: int, profile: str, complete: bool) -> str:
    """``canonical_json(standings_document(rows, ...))`` assembled from each row's held text
    (``StandingRow.canonical``): the same bytes (a canonical list is its items' texts joined by
    commas, an object its sorted keys'), without encoding the 206 rows of an Open again after each
    result; tests/unit/test_standings_payload.py compares both."""
    return (f'{{"complete":{"true" if complete else "false"},"profile":{canonical_json(profile)},'
            f'"round":{canonical_json(round)},"rows":[{",".join([r.canonical() for r in rows])}],'
            f'"tournament_id":{canonical_json(tournament_id)}}}')
