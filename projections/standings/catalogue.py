"""The C.07 (2026) team tie-break catalogue: a profile's code -> its value for a team.

Codes and modifiers are parsed by ``schemas.tiebreak_codes`` (grammar, catalogue, articles); each
family is computed by its module: ``buchholz`` (BH, FB: art. 8.1, 8.3), ``sonneborn_berger`` (EMMSB,
EMGSB, EGMSB, EGGSB: 13.2), ``direct_encounter`` (EDE, EDET, EDEB, EDEBT, EDEBB: 6, 13.3),
``board_count`` (BC, TBR, BBE: 12), ``sssc`` (SSSC: 13.4), ``wins`` (WIN: 7.1); MPTS/GPTS (11.1) and
MPVGP (13.1) are the team's own totals. Unplayed rounds: ``unplayed_rounds`` (art. 16 per the
profile's ``unplayed`` policy). Values are ``Decimal`` (a tuple for TBR, BBE and the EDE family,
compared element by element); ``higher_is_better`` is False only for BC (12.1: lower is better).
"""
from __future__ import annotations

from decimal import Decimal
from functools import cached_property
from typing import Any

from projections.history import History
from projections.standings.board_count import board_count, board_game_points, bottom_board_elimination, top_board_results
from projections.standings.buchholz import c07_buchholz
from projections.standings.direct_encounter import extended_direct_encounter
from projections.standings.sonneborn_berger import extended_sonneborn_berger
from projections.standings.sssc import normalising_factor, score_strength_combination
from projections.standings.unplayed_rounds import UnplayedRounds
from projections.standings.wins import number_of_wins
from schemas.points import fmt_points
from schemas.profile import RuleProfile
from schemas.tiebreak_codes import TieBreakCode, parse_tiebreak

GROUP_TIEBREAKS = {"EDE", "EDET", "EDEB", "EDEBT", "EDEBB"}
"""Type A (C.07 art. 4.3): computed on the group of teams tied before them, not per team."""

RANKED_ON_THE_GROUP = GROUP_TIEBREAKS | {"BC"}
"""The codes the standings value on the tied group: type A, and BC, which compares only teams equal
on game points (``board_count_of_group``)."""

NOT_USABLE: tuple = ()
"""The value of a tie-break that does not apply to a tied group (BC among teams of different GP):
written blank, equal for every team of the group, so the next key decides."""

_EDE_BOARD_KEYS = {"EDE": (), "EDET": ("TBR",), "EDEB": ("BBE",), "EDEBT": ("BC", "TBR"), "EDEBB": ("BC", "BBE")}


def higher_is_better(code: TieBreakCode) -> bool:
    """False for BC (C.07 12.1: the lower board count ranks first), True for every other tie-break."""
    return code.acronym != "BC"


def value_text(value: Any) -> str:
    """A value as the standings document writes it: a decimal, or a tuple joined by ``/``."""
    return "/".join(fmt_points(v) for v in value) if isinstance(value, tuple) else fmt_points(value)


class C07Context:
    """What every C.07 value of one standings table is computed from: the history, the profile, and
    the art. 16 values (plain and Fore Buchholz), built once."""

    def __init__(self, history: History, profile: RuleProfile):
        self.history, self.profile = history, profile
        self.rounds = UnplayedRounds(history, profile)

    @cached_property
    def fore_rounds(self) -> UnplayedRounds:
        return UnplayedRounds(self.history, self.profile, fore=True)

    @cached_property
    def gp(self) -> dict[str, Decimal]:
        return {t: self.rounds.total(t, "GP") for t in self.history.teams}

    def per_board(self, team: str) -> list[Decimal]:
        return board_game_points(self.history, team, self.profile.boards)

    def board_key(self, name: str, team: str) -> tuple:
        """An art. 12 key of ``team`` as a tuple compared higher first (BC negated: lower is better)."""
        per_board = self.per_board(team)
        if name == "BC":
            return (-board_count(per_board),)
        return top_board_results(per_board) if name == "TBR" else bottom_board_elimination(per_board)

    def value(self, text: str, team: str) -> Any:
        """The value of the per-team tie-break ``text`` for ``team``. Raises ``ValueError`` for a bad code
        and for a type A code (``group_values``)."""
        code = parse_tiebreak(text)
        a = code.acronym
        if a in GROUP_TIEBREAKS:
            raise ValueError(f"tie-break {text!r} depends on the tied group: use group_values [rule: C.07 2026 art. 4.3]")
        primary = self.profile.primary_score.upper()
        if a == "MPTS":
            return self.rounds.total(team, "MP")
        if a == "GPTS":
            return self.gp[team]
        if a == "MPVGP":  # 13.1: the score that does not decide the competition (GP when MP is primary)
            return self.gp[team] if primary == "MP" else self.rounds.total(team, "MP")
        if a in ("BH", "FB"):  # 13 preamble: no selector = the primary score
            rounds = self.fore_rounds if a == "FB" else self.rounds
            return c07_buchholz(rounds.round_values(team, code.score or primary, code.played_forfeits), code.cut, code.median)
        if a in ("EMMSB", "EMGSB", "EGMSB", "EGGSB"):
            values = self.rounds.round_values(team, "MP" if a[1] == "M" else "GP", code.played_forfeits)
            return extended_sonneborn_berger(values, "MP" if a[2] == "M" else "GP", code.cut, code.median)
        if a == "BC":
            return board_count(self.per_board(team))
        if a in ("TBR", "BBE"):
            return self.board_key(a, team)
        if a == "SSSC":  # 13.4: the secondary score + Buchholz on the primary score / the factor
            rounds = self.fore_rounds if code.fore else self.rounds
            strength = c07_buchholz(rounds.round_values(team, primary, code.played_forfeits))
            secondary = self.gp[team] if primary == "MP" else self.rounds.total(team, "MP")
            return score_strength_combination(secondary, strength, normalising_factor(self.profile, code.factor))
        if a == "WIN":
            return number_of_wins(self.history, team, self.profile.match_points.win)
        raise ValueError(f"tie-break {text!r} has no computation [rule: C.07 2026 art. 5]")

    def board_count_of_group(self, group: list[str]) -> dict[str, Any]:
        """BC (C.07 2026 art. 12.1) for each team of ``group`` (teams tied before it) when they are all
        equal on game points, else ``NOT_USABLE`` for each. Art. 12's board tie-breaks separate teams
        tied on both MP and GP (13.3.2 applies art. 12 to "teams still tied on both MP and GP"): a
        board count sums board number x game points, so between teams of different GP it measures
        their totals, not where on the board order they were scored (the team with more GP gets the
        higher, i.e. the worse, BC). Teams of different GP are left tied by BC for the next key."""
        if len({self.gp[t] for t in group}) > 1:
            return {t: NOT_USABLE for t in group}
        return {t: board_count(self.per_board(t)) for t in group}

    def group_values(self, text: str, group: list[str]) -> dict[str, Any]:
        """The tie-break ``text`` valued on ``group`` (teams tied before it): the type A ones (EDE
        family) and BC (``board_count_of_group``)."""
        code = parse_tiebreak(text)
        if code.acronym == "BC":
            return self.board_count_of_group(group)
        p = self.profile
        keys = [lambda t, n=n: self.board_key(n, t) for n in _EDE_BOARD_KEYS[code.acronym]]
        mp, gp = ("MP", Decimal(p.match_points.win)), ("GP", Decimal(p.boards))
        if p.primary_score == "gp":  # 13.3.1: the primary score first
            return extended_direct_encounter(self.history, group, (gp, mp), code.played_forfeits, keys,
                                             {t: self.rounds.total(t, "MP") for t in group})
        return extended_direct_encounter(self.history, group, (mp, gp), code.played_forfeits, keys, self.gp)
