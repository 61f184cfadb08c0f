"""Standings order and shared places.

Order (R-T1; spec README "Standings as published at Samarkand 2026" 4): MP, then the profile's
tie-breaks in their order (all descending), then the pairing number ascending. Teams equal on
MP and on every tie-break share the place (competition ranking: 1, 2, 2, 4); the pairing number
only orders them inside it (R-T5, A11).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from projections.history import History
from projections.standings.buchholz import buchholz
from projections.standings.cut import cut_index
from projections.standings.elements import Element, match_points_total, team_elements
from projections.standings.sonneborn_berger import olympiad_sonneborn_berger
from schemas.points import ZERO, fmt_points
from schemas.profile import RuleProfile


@dataclass(frozen=True)
class StandingRow:
    """One team's line after a round.

    ``mp`` in match points, ``gp`` in game points (half-points), ``tiebreaks`` maps each tie-break
    name of the profile (``"OSB-C1"``, ``"BH-C1"``, ``"GP"`` ...) to its value; ``elements`` is the
    per-round breakdown they are summed from and ``cut`` the index cut-1 removes.
    """

    rank: int
    pairing_number: int
    team_id: str
    name: str
    federation: str
    mp: int
    gp: Decimal
    tiebreaks: dict[str, Decimal]
    elements: tuple[Element, ...] = field(repr=False)
    cut: int | None = None
    record: tuple[int, int, int] = (0, 0, 0)

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready form (points as decimal strings) with the per-opponent breakdown."""
        return {
            "rank": self.rank,
            "pairing_number": self.pairing_number,
            "team_id": self.team_id,
            "name": self.name,
            "federation": self.federation,
            "mp": self.mp,
            "gp": fmt_points(self.gp),
            "tiebreaks": {k: fmt_points(v) for k, v in self.tiebreaks.items()},
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


@dataclass(frozen=True)
class _TeamLine:
    """What one team's standings line is computed from its rounds: GP, elements, cut, tie-breaks, record."""

    gp: Decimal
    elements: tuple[Element, ...]
    cut: int | None
    values: dict[str, Decimal]
    record: tuple[int, int, int]


# A team's line depends only on its own rounds, its opponents' MP, its own MP and the round
# (``team_elements``), so a recomputation after one more result reuses the lines of every team it
# does not touch: the projection worker takes standings after every batch. One memo per live
# profile object (held, so that its id is not reused); both are bounded.
_MEMO: dict[int, tuple[RuleProfile, dict[tuple, _TeamLine]]] = {}
_MEMO_PROFILES, _MEMO_LINES = 16, 200_000


def _team_line(history: History, team: str, profile: RuleProfile, mp_total: dict[str, int]) -> _TeamLine:
    rounds = tuple(history.team_rounds(team))
    key = (rounds, tuple(mp_total[tr.opponent] if tr.opponent else None for tr in rounds), mp_total[team],
           history.through_round)
    held = _MEMO.get(id(profile))
    if held is None or held[0] is not profile:
        if len(_MEMO) >= _MEMO_PROFILES:
            _MEMO.clear()
        held = _MEMO[id(profile)] = (profile, {})
    memo = held[1]
    line = memo.get(key)
    if line is None:
        gp = sum((tr.gp for tr in rounds), ZERO)
        elements = team_elements(history, team, profile, mp_total)
        cut1 = cut_index(elements)
        scale = profile.match_points
        played = [tr.mp for tr in rounds if tr.kind != "pending" and tr.opponent]
        line = _TeamLine(gp, tuple(elements), cut1,
                         {name: tiebreak_value(name, elements, gp, cut1) for name in profile.tiebreaks},
                         (played.count(scale.win), played.count(scale.draw), played.count(scale.loss)))
        if len(memo) >= _MEMO_LINES:
            memo.clear()
        memo[key] = line
    return line


def compute_standings(history: History, profile: RuleProfile) -> list[StandingRow]:
    """The standings after ``history.through_round``, in rank order.

    Withdrawn teams stay in the table with their results. Raises ``ValueError`` for a tie-break
    name the engine does not know.
    """
    mp_total = {t: match_points_total(history, t) for t in history.teams}
    provisional = []
    for team, info in history.teams.items():
        line = _team_line(history, team, profile, mp_total)
        key = (mp_total[team], tuple(line.values[n] for n in profile.tiebreaks))
        provisional.append((key, info, line.gp, dict(line.values), line.elements, line.record, line.cut))
    provisional.sort(key=lambda p: (-p[0][0], tuple(-v for v in p[0][1]), p[1].pairing_number))
    rows: list[StandingRow] = []
    for i, (key, info, gp, values, elements, record, cut1) in enumerate(provisional):
        rank = rows[-1].rank if rows and provisional[i - 1][0] == key else i + 1
        rows.append(
            StandingRow(rank, info.pairing_number, info.team_id, info.name, info.federation, key[0], gp, values,
                        elements, cut1, record)
        )
    return rows


def standings_document(rows: list[StandingRow], *, tournament_id: str, round: int, profile: str, complete: bool) -> dict[str, Any]:
    """The canonical standings document whose SHA-256 is the standings digest."""
    return {
        "tournament_id": tournament_id,
        "round": round,
        "profile": profile,
        "complete": complete,
        "rows": [r.as_dict() for r in rows],
    }
