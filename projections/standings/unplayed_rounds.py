"""C.07 (2026) art. 16: unplayed rounds in the sum tie-breaks (BH, FB, ESB, their cuts and medians).

One ``RoundValue`` per round of a team: the opponent's score as the team's tie-breaks see it and the
team's own score in the round, on match points (MP) or game points (GP, half-points).

- Categories (16.2): ``16.2.1`` pairing-allocated bye; ``16.2.2`` forfeit win; ``16.2.3`` requested
  bye (here: a round the team was not paired, absent) followed by at least one round that is not
  voluntarily unplayed; ``16.2.4`` forfeit loss (a double forfeit is one for both); ``16.2.5`` requested
  byes followed only by voluntarily unplayed rounds, up to the round of the standings (a withdrawal).
  A voluntarily unplayed round (VUR, 16.1) is a requested bye or a forfeit loss.
- 16.3: a team's score as its opponents see it counts category 16.2.5 rounds as draws (1 MP, and
  half the boards in GP); every other round at the points awarded.
- 16.4: a team's own unplayed round is a match against a dummy whose score is the team's own score,
  capped (2026 only) at the scheduled opponent's adjusted score for a forfeit (16.4.1) and at draw
  points x rounds played so far for the others (16.4.2; "rounds" read as gacrux 1.11.65 reads them in
  intermediate standings). The profile's ``unplayed`` policy picks the edition: ``dummy-2026`` these
  caps, ``dummy-2023`` the uncapped dummy of C.07 2023/2024.
- ``/P`` (C.07 16.6, TRF-2026 ``/P``): a forfeit is a match against the scheduled opponent, not a VUR.

Under the Olympiad policies the same codes give today's Olympiad values (spec README "Standings as
published at Samarkand 2026" 5-7): ``zero-element`` values a round without an opponent at 0 and
opponents at their plain score, and a whole-match forfeit is a meeting when the profile says so
(``forfeited_match_in_tiebreaks``); ``virtual-opponent`` is the pre-2023 virtual opponent. Neither has
VURs (no 16.5 exception).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Literal

from projections.history import History, TeamRound
from schemas.points import HALF, ZERO
from schemas.profile import RuleProfile

Score = Literal["MP", "GP"]
_FORFEITS = ("forfeit-win", "forfeit-loss", "forfeit-draw")
_VUR_KINDS = ("absent", "not-entered", "forfeit-loss", "forfeit-draw")


@dataclass(frozen=True)
class RoundValue:
    """One round of a team in a sum tie-break: ``opponent`` (None: a dummy or virtual opponent),
    ``opponent_score`` (MP or GP, per the tie-break), the team's own ``own_mp``/``own_gp`` that round,
    and ``vur`` (a voluntarily unplayed round, for the C.07 16.5 cut exception)."""

    round: int
    opponent: str | None
    opponent_score: Decimal
    own_mp: Decimal
    own_gp: Decimal
    vur: bool

    def own(self, score: Score) -> Decimal:
        return self.own_mp if score == "MP" else self.own_gp


def awarded(tr: TeamRound, score: Score) -> Decimal:
    """The points ``tr`` awarded the team: MP or GP."""
    return Decimal(tr.mp) if score == "MP" else tr.gp


class UnplayedRounds:
    """Art. 16 values of every team of ``history`` under ``profile`` (built once per standings).

    ``fore``: C.07 8.3 Fore Buchholz, every match of the tournament's final round counted as a draw.
    """

    def __init__(self, history: History, profile: RuleProfile, fore: bool = False):
        self.history, self.profile = history, profile
        self.c07 = profile.unplayed in ("dummy-2023", "dummy-2026")
        self.fore = fore and history.through_round == profile.rounds
        self._adjusted: dict[tuple[str, Score], Decimal] = {}

    def draw(self, score: Score) -> Decimal:
        """A drawn match's points: the MP of a draw, or half the boards in GP."""
        return Decimal(self.profile.match_points.draw) if score == "MP" else HALF * self.profile.boards

    def _won(self, tr: TeamRound, score: Score) -> Decimal:
        """Points of round ``tr`` as the tie-breaks count them (8.3: a final-round match as a draw)."""
        if self.fore and tr.round == self.history.through_round and tr.opponent is not None:
            return self.draw(score)
        return awarded(tr, score)

    @cached_property
    def last_not_vur(self) -> dict[str, int]:
        """Per team, its last round that is not voluntarily unplayed (16.2.3 v 16.2.5)."""
        return {t: max((tr.round for tr in self.history.team_rounds(t) if tr.kind not in _VUR_KINDS), default=0)
                for t in self.history.teams}

    def category(self, tr: TeamRound) -> str:
        """C.07 16.2 category of round ``tr`` (``"played"`` for a match over the board or pending)."""
        if tr.kind in ("played", "pending"):
            return "played"
        return {"bye": "16.2.1", "forfeit-win": "16.2.2", "forfeit-loss": "16.2.4", "forfeit-draw": "16.2.4"}.get(
            tr.kind, "16.2.3" if tr.round < self.last_not_vur[tr.team] else "16.2.5")

    def total(self, team: str, score: Score) -> Decimal:
        """The team's own score (MP or GP) through the round of the standings."""
        return sum((self._won(tr, score) for tr in self.history.team_rounds(team)), ZERO)

    def adjusted(self, team: str, score: Score) -> Decimal:
        """16.3: the team's score as its opponents see it (16.2.5 rounds as draws); plain under the
        Olympiad policies (spec README Samarkand 5)."""
        rounds = self.history.team_rounds(team)
        if not self.c07:
            return sum((self._won(tr, score) for tr in rounds), ZERO)
        return sum((self.draw(score) if self.category(tr) == "16.2.5" else self._won(tr, score) for tr in rounds), ZERO)

    def adjusted_cached(self, team: str, score: Score) -> Decimal:
        """``adjusted``, computed once per team and score."""
        key = (team, score)
        if key not in self._adjusted:
            self._adjusted[key] = self.adjusted(team, score)
        return self._adjusted[key]

    def round_values(self, team: str, score: Score, played_forfeits: bool = False) -> list[RoundValue]:
        """The team's rounds 1..through_round as a sum tie-break on ``score`` sees them (module docstring)."""
        out = []
        own_before = {"MP": ZERO, "GP": ZERO}
        as_meeting = played_forfeits or (not self.c07 and self.profile.forfeited_match_in_tiebreaks)
        for tr in self.history.team_rounds(team):
            mp, gp = self._won(tr, "MP"), self._won(tr, "GP")
            meets = tr.opponent is not None and (tr.kind in ("played", "pending") or as_meeting or
                                                 (self.fore and tr.round == self.history.through_round))
            if meets:
                out.append(RoundValue(tr.round, tr.opponent, self.adjusted_cached(tr.opponent, score), mp, gp, False))
            else:
                out.append(RoundValue(tr.round, None, self._unplayed(tr, score, own_before[score]), mp, gp,
                                      self.c07 and tr.kind in _VUR_KINDS))
            own_before["MP"] += mp
            own_before["GP"] += gp
        return out

    def _unplayed(self, tr: TeamRound, score: Score, before: Decimal) -> Decimal:
        policy = self.profile.unplayed
        if policy == "zero-element":
            return ZERO
        if policy == "virtual-opponent":
            # pre-2023 C.07: Svon = score before the round + (win - points awarded) + a draw per later round
            win = Decimal(self.profile.match_points.win) if score == "MP" else Decimal(self.profile.boards)
            return before + (win - awarded(tr, score)) + self.draw(score) * (self.history.through_round - tr.round)
        own = self.total(tr.team, score)
        if policy == "dummy-2023":
            return own
        if tr.kind in _FORFEITS and tr.opponent is not None:
            return min(own, self.adjusted_cached(tr.opponent, score))  # 16.4.1
        return min(own, self.draw(score) * self.history.through_round)  # 16.4.2
