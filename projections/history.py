"""Per-team round records derived from the tournament state: the plain input of standings and pairing.

One ``TeamRound`` per team and round through the asked round. Kinds:
``played`` (a match with at least one board over the board), ``forfeit-win`` / ``forfeit-loss``
(a match forfeited on every board: R-D7, not a meeting, no colour), ``bye`` (pairing-allocated,
R-D9: the profile's bye award), ``absent`` (not paired, or withdrawn: 0 MP, 0 GP),
``pending`` (paired, match not complete yet: no MP).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from processors.tournament import TournamentState
from projections.seeding import team_strength, tournament_pairing_numbers
from schemas.points import ZERO

Kind = Literal["played", "forfeit-win", "forfeit-loss", "forfeit-draw", "bye", "absent", "pending"]


@dataclass(frozen=True)
class TeamRound:
    """One team's round: opponent (team id or None), GP (half-points), MP, colour on board 1."""

    round: int
    team: str
    opponent: str | None
    gp: Decimal
    mp: int
    kind: Kind
    colour: Literal["W", "B"] | None
    table: int | None = None

    @property
    def met(self) -> bool:
        """True if this round is a meeting with ``opponent`` for rematch rules (R-P1, R-D7)."""
        return self.kind == "played"


@dataclass(frozen=True)
class TeamInfo:
    """A registered team with its pairing number (R-I1) and average rating of its top 4."""

    team_id: str
    name: str
    federation: str
    pairing_number: int
    rating: Decimal


@dataclass(frozen=True)
class History:
    """Teams and their rounds 1..``through_round``.

    ``rounds[r][team_id]`` is that team's ``TeamRound``; a team registered after round r has no
    entry for r... except ``absent``: every registered team has an entry for every round.
    """

    teams: dict[str, TeamInfo]
    rounds: dict[int, dict[str, TeamRound]]
    through_round: int
    withdrawn: dict[str, int]

    def team_rounds(self, team: str) -> list[TeamRound]:
        """The rounds of ``team`` in order 1..through_round."""
        return [self.rounds[r][team] for r in range(1, self.through_round + 1)]


def build_history(state: TournamentState, through_round: int | None = None) -> History:
    """Derive the ``History`` of ``state`` through ``through_round`` (default: last paired round).

    Scoring per ``processors.scoring.fold_match`` and the profile's bye award (R-D9).
    Raises ``ValueError`` if ``through_round`` has not been paired.
    """
    profile = state.profile
    last = max(state.rounds, default=0)
    r_max = last if through_round is None else through_round
    if r_max > last:
        raise ValueError(f"round {r_max} has not been paired (last paired round: {last})")
    numbers = tournament_pairing_numbers(state)
    teams = {
        tid: TeamInfo(tid, t.name, t.federation, numbers[tid], team_strength(t, profile.boards, profile.seeding_floor_rating)[0])
        for tid, t in state.teams.items()
    }
    rounds: dict[int, dict[str, TeamRound]] = {}
    for r in range(1, r_max + 1):
        pairing = state.rounds[r]
        per: dict[str, TeamRound] = {}
        for t in pairing.tables:
            m = state.match(r, t.table)
            colours_known = pairing.colours_known and m.played
            for team, opp, gp, mp, colour in (
                (t.home, t.away, m.home_gp, m.home_mp, "W"),
                (t.away, t.home, m.away_gp, m.away_mp, "B"),
            ):
                if not m.complete:
                    kind: Kind = "pending"
                elif m.played:
                    kind = "played"
                else:
                    kind = "forfeit-win" if gp > m.away_gp + m.home_gp - gp else (
                        "forfeit-loss" if gp < m.away_gp + m.home_gp - gp else "forfeit-draw")
                per[team] = TeamRound(r, team, opp, gp, mp or 0, kind, colour if colours_known else None, t.table)
        if pairing.bye is not None:
            per[pairing.bye] = TeamRound(r, pairing.bye, None, profile.bye_award.gp, profile.bye_award.mp, "bye", None)
        for team in teams:
            if team not in per:
                per[team] = TeamRound(r, team, None, ZERO, 0, "absent", None)
        rounds[r] = per
    return History(teams, rounds, r_max, dict(state.withdrawn))
