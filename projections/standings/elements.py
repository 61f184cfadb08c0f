"""Tie-break elements: one per round of a team, the opponent's MP and the team's GP in that round.

Both Olympiad Sonneborn-Berger and Buchholz are sums over these elements, so they share one
list and one cut. A round without a real opponent becomes an element by the profile's
``unplayed`` policy (spec olympiad-rules.md 6.3, spec README "Standings as published at
Samarkand 2026" 5-7):

- ``zero-element`` (Samarkand 2026 practice): one element worth 0 in OSB and in BH.
- ``virtual-opponent`` (pre-2023 FIDE C.07): a virtual opponent with
  Svon = own MP before the round + (win MP - MP awarded) + draw MP x rounds still to come.
- ``dummy-2023`` (C.07 2023/2024 art. 16): a dummy opponent with the team's own current MP.
- ``dummy-2026`` (C.07 2026): as 2023, capped at the scheduled opponent's MP for a forfeit,
  at draw MP x rounds for a bye or an absence.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from projections.history import History, TeamRound
from schemas.profile import RuleProfile

_OPPONENT_KINDS = {"played", "pending"}
_FORFEIT_KINDS = {"forfeit-win", "forfeit-loss", "forfeit-draw"}


@dataclass(frozen=True)
class Element:
    """One round's contribution: ``opponent_mp`` (MP) and ``own_gp`` (half-points).

    ``osb_term`` = opponent_mp x own_gp (the Olympiad SB term, GP units); ``opponent`` is None
    for a round without a real opponent, whose values come from the unplayed policy.
    """

    round: int
    opponent: str | None
    opponent_mp: int
    own_gp: Decimal
    unplayed: bool

    @cached_property
    def osb_term(self) -> Decimal:
        return self.opponent_mp * self.own_gp


def match_points_total(history: History, team: str) -> int:
    """A team's MP after ``history.through_round``: its plain total, bye included (R-D3, R-D9)."""
    return sum([tr.mp for tr in history.team_rounds(team)])


def _counts_as_opponent(tr: TeamRound, profile: RuleProfile) -> bool:
    if tr.kind in _OPPONENT_KINDS:
        return True
    return tr.kind in _FORFEIT_KINDS and profile.forfeited_match_in_tiebreaks


def team_elements(history: History, team: str, profile: RuleProfile, mp_total: dict[str, int]) -> list[Element]:
    """The tie-break elements of ``team`` for rounds 1..through_round, in round order.

    ``mp_total`` maps every team to its current MP (``match_points_total``); opponents are
    valued at their plain current MP (spec README Samarkand 5).
    """
    out: list[Element] = []
    mp_before = 0
    for tr in history.team_rounds(team):
        if _counts_as_opponent(tr, profile):
            out.append(Element(tr.round, tr.opponent, mp_total[tr.opponent], tr.gp, False))
        else:
            out.append(Element(tr.round, None, _unplayed_value(tr, profile, history, mp_before, mp_total, team), tr.gp, True))
        mp_before += tr.mp
    return out


def _unplayed_value(
    tr: TeamRound, profile: RuleProfile, history: History, mp_before: int, mp_total: dict[str, int], team: str
) -> int:
    scale = profile.match_points
    policy = profile.unplayed
    if policy == "zero-element":
        return 0
    if policy == "virtual-opponent":
        return mp_before + (scale.win - tr.mp) + scale.draw * (history.through_round - tr.round)
    own = mp_total[team]
    if policy == "dummy-2023":
        return own
    # dummy-2026: capped dummy
    if tr.kind in _FORFEIT_KINDS and tr.opponent is not None:
        return min(own, mp_total[tr.opponent])
    return min(own, scale.draw * history.through_round)
