"""The tournament aggregate: validates each event against what came before, then applies it.

Pure code over plain data. The embedded store, the faust processors and the replay all feed
events through ``TournamentState.apply``; an event that breaks a rule raises ``RuleViolation``
naming the field and the rule, and leaves the state unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processors.scoring import MatchOutcome, fold_match
from schemas.events import (
    BoardResultCorrected,
    BoardResultRecorded,
    MatchForfeited,
    RoundPaired,
    Table,
    TeamRegistered,
    TeamWithdrawn,
    TournamentCreated,
)
from schemas.profile import RuleProfile


class RuleViolation(ValueError):
    """An event refused by a tournament rule.

    ``field`` is the offending event field, ``rule`` a short name of the rule broken; the
    message says what was expected.
    """

    def __init__(self, message: str, *, field: str, rule: str):
        super().__init__(f"{field}: {message} [rule: {rule}]")
        self.field = field
        self.rule = rule
        self.event_id: str | None = None  # set by whoever knows which event broke the rule


BoardKey = tuple[int, int, int]  # (round, table, board)


@dataclass
class TournamentState:
    """Everything the rules need to judge the next event of one tournament.

    ``results[(round, table, board)] = (event_id, code)`` holds the current result of each
    board (corrections replace it); ``applied`` holds every event by its id: a second copy of an
    event is a no-op, a different event under a used id is refused.
    """

    tournament_id: str | None = None
    created: TournamentCreated | None = None
    teams: dict[str, TeamRegistered] = field(default_factory=dict)
    rounds: dict[int, RoundPaired] = field(default_factory=dict)
    tables: dict[tuple[int, int], Table] = field(default_factory=dict)
    results: dict[BoardKey, tuple[str, str]] = field(default_factory=dict)
    result_history: dict[str, BoardKey] = field(default_factory=dict)
    withdrawn: dict[str, int] = field(default_factory=dict)
    applied: dict[str, Any] = field(default_factory=dict)  # event id -> the event, to tell a copy from a reuse
    # Folded tables, dropped whenever one of their boards changes (standings read them per round).
    _matches: dict[tuple[int, int], MatchOutcome] = field(default_factory=dict, repr=False)

    @property
    def profile(self) -> RuleProfile:
        if self.created is None:
            raise RuleViolation("no TournamentCreated event yet", field="tournament_id", rule="tournament exists")
        return self.created.profile

    # ------------------------------------------------------------------ apply
    def apply(self, event: Any) -> bool:
        """Validate and apply one event. Returns False for a duplicate (already applied) event.

        Raises ``RuleViolation`` if the event breaks a rule; the state is then unchanged.
        """
        prior = self.applied.get(event.event_id)
        if prior is not None:
            if prior != event:
                raise RuleViolation(
                    f"event id {event.event_id!r} was already used for a different {prior.type}",
                    field="event_id", rule="an event id names one event",
                )
            return False
        handler = getattr(self, "_on_" + event.type, None)
        if handler is None:
            raise RuleViolation(f"{event.type} is derived, not an input event", field="type", rule="input events")
        if event.type != "TournamentCreated":
            self._check_tournament(event)
        handler(event)
        self.applied[event.event_id] = event
        return True

    def _check_tournament(self, event: Any) -> None:
        if self.created is None:
            raise RuleViolation(
                f"tournament {event.tournament_id!r} has not been created", field="tournament_id", rule="tournament exists"
            )
        if event.tournament_id != self.tournament_id:
            raise RuleViolation(
                f"event is for {event.tournament_id!r}, this log holds {self.tournament_id!r}",
                field="tournament_id",
                rule="one tournament per log",
            )

    def _on_TournamentCreated(self, e: TournamentCreated) -> None:
        if self.created is not None:
            raise RuleViolation("the tournament already exists", field="type", rule="created once")
        self.created = e
        self.tournament_id = e.tournament_id

    def _on_TeamRegistered(self, e: TeamRegistered) -> None:
        p = self.profile
        if e.team_id in self.teams:
            raise RuleViolation(f"team {e.team_id!r} is already registered", field="team_id", rule="unique team")
        orders = [pl.board_order for pl in e.players]
        if not p.boards <= len(orders) <= p.boards + p.reserves:
            raise RuleViolation(
                f"{len(orders)} players nominated; the profile needs {p.boards} to {p.boards + p.reserves}",
                field="players",
                rule="R-D1 team of 4 boards + 1 reserve",
            )
        if sorted(orders) != list(range(1, len(orders) + 1)):
            raise RuleViolation(f"board order {orders} is not 1..{len(orders)}", field="players.board_order", rule="R-D1 fixed board order")
        if e.pairing_number is not None and any(t.pairing_number == e.pairing_number for t in self.teams.values()):
            raise RuleViolation(f"pairing number {e.pairing_number} is taken", field="pairing_number", rule="unique pairing number")
        self.teams[e.team_id] = e

    def _on_RoundPaired(self, e: RoundPaired) -> None:
        p = self.profile
        if not 1 <= e.round <= p.rounds:
            raise RuleViolation(f"round {e.round} is outside 1..{p.rounds}", field="round", rule="rounds of the profile")
        if e.round in self.rounds:
            raise RuleViolation(f"round {e.round} is already paired", field="round", rule="one pairing per round")
        if e.round > 1 and e.round - 1 not in self.rounds:
            raise RuleViolation(f"round {e.round - 1} has not been paired yet", field="round", rule="rounds in order")
        seen: dict[str, str] = {}
        numbers: set[int] = set()

        def place(team: str, where: str, fld: str) -> None:
            if team not in self.teams:
                raise RuleViolation(f"unknown team {team!r}", field=fld, rule="registered teams only")
            if team in seen:
                raise RuleViolation(f"team {team!r} is in {seen[team]} and in {where}", field=fld, rule="a team is paired once per round")
            if team in self.withdrawn and self.withdrawn[team] <= e.round and not where.startswith("absent"):
                raise RuleViolation(f"team {team!r} withdrew before round {e.round}", field=fld, rule="withdrawn teams are not paired")
            seen[team] = where

        for i, t in enumerate(e.tables):
            if t.table in numbers:
                raise RuleViolation(f"table {t.table} appears twice", field=f"tables.{i}.table", rule="unique table numbers")
            numbers.add(t.table)
            place(t.home, f"table {t.table}", f"tables.{i}.home")
            place(t.away, f"table {t.table}", f"tables.{i}.away")
        if e.bye is not None:
            place(e.bye, "the bye", "bye")
        for i, team in enumerate(e.absent):
            place(team, "absent", f"absent.{i}")
        self.rounds[e.round] = e
        for t in e.tables:
            self.tables[(e.round, t.table)] = t

    def _board_key(self, e: Any) -> BoardKey:
        if e.round not in self.rounds:
            raise RuleViolation(f"round {e.round} has not been paired", field="round", rule="results only for paired rounds")
        if (e.round, e.table) not in self.tables:
            raise RuleViolation(
                f"round {e.round} has no table {e.table}", field="table", rule="results only for tables of the round's pairing"
            )
        boards = self.profile.boards
        if hasattr(e, "board") and not 1 <= e.board <= boards:
            raise RuleViolation(f"board {e.board} does not exist in a {boards}-board match", field="board", rule="R-D1 boards 1..4")
        return (e.round, e.table, getattr(e, "board", 0))

    def _on_BoardResultRecorded(self, e: BoardResultRecorded) -> None:
        key = self._board_key(e)
        if key in self.results:
            prior_id, prior = self.results[key]
            if prior == e.result:
                # The same fact entered twice (a second terminal, a retry with a new id): harmless.
                self.result_history[e.event_id] = key
                return
            raise RuleViolation(
                f"round {e.round} table {e.table} board {e.board} already has {prior} (event {prior_id}); "
                f"{e.result} needs a BoardResultCorrected with a reason",
                field="result",
                rule="one result per board; changes go through a correction",
            )
        self._set_result(key, e.event_id, e.result)
        self.result_history[e.event_id] = key

    def _set_result(self, key: BoardKey, event_id: str, code: str) -> None:
        self.results[key] = (event_id, code)
        self._matches.pop(key[:2], None)

    def _on_BoardResultCorrected(self, e: BoardResultCorrected) -> None:
        key = self._board_key(e)
        replaced = self.result_history.get(e.supersedes)
        # A MatchForfeited event stands for every board of its table (recorded as board 0).
        if replaced not in (key, (e.round, e.table, 0)):
            raise RuleViolation(
                f"event {e.supersedes!r} is not a result of round {e.round} table {e.table} board {e.board}",
                field="supersedes",
                rule="a correction names the result it replaces",
            )
        self._set_result(key, e.event_id, e.result)
        self.result_history[e.event_id] = key

    def _on_MatchForfeited(self, e: MatchForfeited) -> None:
        self._board_key(e)
        t = self.tables[(e.round, e.table)]
        if e.winner not in (t.home, t.away, None):
            raise RuleViolation(f"{e.winner!r} does not play at table {e.table}", field="winner", rule="winner is one of the two teams")
        keys = [(e.round, e.table, b) for b in range(1, self.profile.boards + 1)]
        if any(k in self.results for k in keys):
            raise RuleViolation("boards of this table already have results", field="table", rule="one result per board; changes go through a correction")
        for k in keys:
            board = k[2]
            if e.winner is None:
                code = "-/-"
            else:
                white_wins = (e.winner == t.home) == (board % 2 == 1)
                code = "+/-" if white_wins else "-/+"
            self._set_result(k, e.event_id, code)
        self.result_history[e.event_id] = (e.round, e.table, 0)

    def _on_TeamWithdrawn(self, e: TeamWithdrawn) -> None:
        if e.team_id not in self.teams:
            raise RuleViolation(f"unknown team {e.team_id!r}", field="team_id", rule="registered teams only")
        self.withdrawn[e.team_id] = e.from_round

    # ------------------------------------------------------------------ queries
    def match(self, rnd: int, table: int) -> MatchOutcome:
        """The folded state of one table (GP, MP once complete), per ``processors.scoring``."""
        cached = self._matches.get((rnd, table))
        if cached is None:
            cached = self._matches[(rnd, table)] = fold_match(self.board_codes(rnd, table), self.profile.boards, self.profile.match_points)
        return cached

    def board_codes(self, rnd: int, table: int) -> dict[int, str]:
        """``{board: result code}`` of the boards of one table that have a result."""
        return {b: self.results[(rnd, table, b)][1] for b in range(1, self.profile.boards + 1) if (rnd, table, b) in self.results}

    def round_complete(self, rnd: int) -> bool:
        """True when round ``rnd`` is paired and every table has all its boards."""
        if rnd not in self.rounds:
            return False
        return all(self.match(rnd, t.table).complete for t in self.rounds[rnd].tables)
