"""Per-team round records derived from the tournament state: the plain input of standings and pairing.

One ``TeamRound`` per team and round through the asked round. Kinds:
``played`` (a match with at least one board over the board), ``forfeit-win`` / ``forfeit-loss``
(a match forfeited on every board: R-D7, not a meeting, no colour), ``bye`` (pairing-allocated,
R-D9: the profile's bye award), ``absent`` (not paired, or withdrawn: 0 MP, 0 GP),
``not-entered`` (a late entry's rounds before it entered: not in the tournament yet, 0 MP, 0 GP;
C.04.2 late entries: "no points for unplayed rounds"), ``pending`` (paired, match not complete yet:
no MP).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable, Literal

from processors.scoring import MatchOutcome
from processors.tournament import TournamentState
from projections.memo import slot_memo
from projections.seeding import team_strength, tournament_pairing_numbers
from schemas.events import RoundPaired, Table
from schemas.points import ZERO
from schemas.profile import RuleProfile

Kind = Literal["played", "forfeit-win", "forfeit-loss", "forfeit-draw", "bye", "absent", "not-entered", "pending"]


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
    entered: int = 1  # the first round the team plays (a late entry: later)


@dataclass(frozen=True)
class History:
    """Teams and their rounds 1..``through_round``.

    ``rounds[r][team_id]`` is that team's ``TeamRound``; a team registered after round r has no
    entry for r... except ``absent``: every registered team has an entry for every round.
    A history is not changed once built: ``build_history`` shares its team table and the dicts
    of unchanged rounds between histories, and ``team_rounds`` keeps what it has looked up.
    ``tournament_id`` (None for a history assembled by hand) names the memo slots its standings
    lines use, so that tournaments with the same team ids do not evict each other's.
    """

    teams: dict[str, TeamInfo]
    rounds: dict[int, dict[str, TeamRound]]
    through_round: int
    withdrawn: dict[str, int]
    tournament_id: str | None = None
    # (round, table) -> (home team, {board: White-Black code}): the board results behind the board
    # tie-breaks of C.07 art. 12 (read from the state the history was built from; None by hand).
    board_results: Callable[[int, int], tuple[str, dict[int, str]]] | None = field(default=None, compare=False, repr=False)
    _by_team: dict[str, tuple[TeamRound, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def team_rounds(self, team: str) -> tuple[TeamRound, ...]:
        """The rounds of ``team`` in order 1..through_round (the same tuple on every call)."""
        held = self._by_team.get(team)
        if held is None:
            held = self._by_team[team] = tuple([self.rounds[r][team] for r in range(1, self.through_round + 1)])
        return held


def decided_only(history: History) -> History:
    """``history`` as far as its matches are decided: a team whose match of the last round is
    still ``pending`` has rounds 1..through_round-1 only, so an unplayed match changes none of
    its values (the provisional table of a round in progress: the last complete round plus the
    matches already decided). Teams and the other rounds are ``history``'s."""
    rnd = history.through_round
    out = History(history.teams, history.rounds, rnd, history.withdrawn, history.tournament_id)
    for team, tr in history.rounds.get(rnd, {}).items():
        if tr.kind == "pending":
            out._by_team[team] = history.team_rounds(team)[:-1]
    return out


# The projection worker rebuilds the history after every batch, and a batch changes a few tables
# of one round (a correction: of an earlier round). So the team table is memoised on the
# registrations, a round's records on its pairing, its match outcomes and the registrations, and
# the two records of a table on the table and its outcome (``projections.memo``; one slot per
# tournament, round and table). ``TournamentState.match`` returns the same outcome object until
# a board of its table changes, so most comparisons are of identities, and a team whose table did
# not change keeps its ``TeamRound`` objects: what makes the memo of the standings lines cheap.
# Bounds: some 90 tournaments of 11 rounds, 30 of 11 rounds of 103 tables.
_TEAMS = slot_memo(256)
_ROUNDS = slot_memo(1024)
_TABLES = slot_memo(32_768)


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
    tid = state.tournament_id
    registered = tuple(state.teams.values())
    teams = _TEAMS.get(tid, (profile, registered), lambda: _team_infos(state))
    rounds: dict[int, dict[str, TeamRound]] = {}
    for r in range(1, r_max + 1):
        pairing = state.rounds[r]
        outcomes = tuple([state.match(r, t.table) for t in pairing.tables])
        rounds[r] = _ROUNDS.get((tid, r), (profile, pairing, outcomes, registered),
                                lambda: _round_records(tid, pairing, outcomes, teams, profile))
    return History(teams, rounds, r_max, dict(state.withdrawn), tid,
                   lambda r, table: (state.tables[(r, table)].home, state.board_codes(r, table)))


def _team_infos(state: TournamentState) -> dict[str, TeamInfo]:
    """Every registered team with its pairing number and rating (R-I1), in registration order."""
    profile = state.profile
    numbers = tournament_pairing_numbers(state)
    return {
        tid: TeamInfo(tid, t.name, t.federation, numbers[tid], team_strength(t, profile.boards, profile.seeding_floor_rating)[0],
                      state.entered.get(tid, 1))
        for tid, t in state.teams.items()
    }


def _round_records(tid: str | None, pairing: RoundPaired, outcomes: tuple[MatchOutcome, ...],
                   teams: dict[str, TeamInfo], profile: RuleProfile) -> dict[str, TeamRound]:
    """Every team's ``TeamRound`` of one round, from its pairing and the outcome of each of its tables."""
    r = pairing.round
    per: dict[str, TeamRound] = {}
    for t, m in zip(pairing.tables, outcomes):
        per[t.home], per[t.away] = _TABLES.get((tid, r, t.table), (t, m, pairing.colours_known),
                                               lambda: _table_records(r, t, m, pairing.colours_known))
    if pairing.bye is not None:
        per[pairing.bye] = TeamRound(r, pairing.bye, None, profile.bye_award.gp, profile.bye_award.mp, "bye", None)
    for team, info in teams.items():
        if team not in per:
            per[team] = TeamRound(r, team, None, ZERO, 0, "not-entered" if info.entered > r else "absent", None)
    return per


def _table_records(r: int, t: Table, m: MatchOutcome, colours_known: bool) -> tuple[TeamRound, TeamRound]:
    """The home and the away team's ``TeamRound`` of one table of round ``r`` (colours only when
    the pairing gives them and the match was played over the board)."""
    colours_known = colours_known and m.played
    out = []
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
        out.append(TeamRound(r, team, opp, gp, mp or 0, kind, colour if colours_known else None, t.table))
    return out[0], out[1]
