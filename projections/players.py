"""Player results: who sat on each board, each player's games, score and rating performance.

A read model computed from the tournament state, live (a board counts once its result is in).

Who played a board of a team in a round:
1. the player the board's ``BoardResultRecorded`` names (White or Black, R-D4 colours), matched to
   the team's roster by ``schemas.names.name_key``; a name that is the start of exactly one roster
   name, or that one roster name starts (a source's shorter spelling: "Sai, Krishna" for
   "Sai, Krishna G V"), is that player; a name not on the roster is a player of the team all the
   same (no nominated board, no rating);
2. else (a board without names: a whole-match forfeit, a board a source did not hold) the player
   the team's submitted line-up puts there (``LineupSubmitted``, R-D1);
3. else nobody: the board's result counts for the team only.

A player's id is ``<team id>.<board order>`` (the nominated board: the roster's order, the
reserve being board 5), ``<team id>.x<n>`` for the n-th player seen who is not on the roster.

Points: 1 / ½ / 0 on the board, a forfeit won 1 and lost 0 (as the team's GP, R-D2). The rating
performance counts the games played over the board only (``projections.performance``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from processors.scoring import board_points, home_is_white
from processors.tournament import TournamentState
from projections.performance import Performance, rating_performance
from schemas.events import Player
from schemas.names import name_key
from schemas.points import ZERO


@dataclass(frozen=True)
class Game:
    """One board of a player: round, table, board, colour ("W"/"B"; None where the pairing does
    not know the colours, ``RoundPaired.colours_known``), the opposing team and
    player (id, or None when unknown), the opponent's rating (None: unrated or unknown), the
    board's result code (White-Black), the player's points and whether it was played over the board."""

    round: int
    table: int
    board: int
    colour: str | None
    opponent_team: str
    opponent: str | None
    opponent_rating: int | None
    code: str
    points: Decimal
    played: bool


@dataclass
class PlayerResult:
    """A player of a team and their games (round order). ``nominated_board``: the board order of
    the roster (None for a player not on it)."""

    player_id: str
    team_id: str
    name: str
    title: str
    fide_id: str | None
    rating: int | None
    nominated_board: int | None
    games: list[Game] = field(default_factory=list)

    @property
    def score(self) -> Decimal:
        """Points of every game, forfeits included (R-D2 board points)."""
        return sum((g.points for g in self.games), ZERO)

    @property
    def played(self) -> list[Game]:
        """The games played over the board."""
        return [g for g in self.games if g.played]

    @property
    def boards(self) -> list[int]:
        """The boards played on, each once, ascending."""
        return sorted({g.board for g in self.games})

    def performance(self, unrated_as: int | None = None) -> Performance | None:
        """The rating performance of the games played over the board (``projections.performance``;
        ``unrated_as``: the profile's ``unrated_opponent_rating``)."""
        return rating_performance(((g.opponent_rating, g.points) for g in self.played), unrated_as)


def player_id(team: str, player: Player) -> str:
    """The id of a rostered player: ``<team id>.<board order>``."""
    return f"{team}.{player.board_order}"


class _Seats:
    """Resolves the name on a board to a player of a team (module docstring, steps 1 and 2)."""

    def __init__(self, state: TournamentState, results: dict[str, PlayerResult]) -> None:
        self.state = state
        self.results = results
        self.by_key: dict[str, dict[str, str]] = {}
        self.extra: dict[str, int] = {}
        for team, reg in state.teams.items():
            keys = self.by_key[team] = {}
            for p in reg.players:
                pid = player_id(team, p)
                results[pid] = PlayerResult(pid, team, p.name, p.title, p.fide_id, p.rating, p.board_order)
                keys[name_key(p.name)] = pid

    def _by_name(self, team: str, name: str) -> str:
        keys = self.by_key[team]
        key = name_key(name)
        if key in keys:
            return keys[key]
        near = [pid for k, pid in keys.items() if k.startswith(key + " ") or key.startswith(k + " ")]
        if len(near) == 1:
            keys[key] = near[0]
            return near[0]
        self.extra[team] = self.extra.get(team, 0) + 1
        pid = f"{team}.x{self.extra[team]}"
        self.results[pid] = PlayerResult(pid, team, name, "", None, None, None)
        keys[key] = pid
        return pid

    def seat(self, rnd: int, team: str, board: int, name: str) -> str | None:
        """The id of ``team``'s player on ``board`` of round ``rnd`` (``name``: as recorded, "" if none)."""
        if name.strip():
            return self._by_name(team, name)
        line = self.state.lineups.get((rnd, team))
        if line is None or board > len(line):
            return None
        pid = f"{team}.{line[board - 1]}"
        return pid if pid in self.results else None


def recorded_names(state: TournamentState) -> dict[tuple[int, int, int], tuple[str, str]]:
    """(round, table, board) -> (White's, Black's name) as the first ``BoardResultRecorded`` of
    the board names them (a correction changes the result, not who played)."""
    names: dict[tuple[int, int, int], tuple[str, str]] = {}
    for event in state.applied.values():
        if event.type == "BoardResultRecorded":
            names.setdefault((event.round, event.table, event.board), (event.white, event.black))
    return names


def player_results(state: TournamentState, through_round: int | None = None) -> dict[str, PlayerResult]:
    """Every player's results through round ``through_round`` (default: every paired round):
    player id -> ``PlayerResult``, rostered players in registration and board order first, then
    the players seen who are not on a roster. A board without a result counts for nobody yet."""
    results: dict[str, PlayerResult] = {}
    seats = _Seats(state, results)
    names = recorded_names(state)
    last = through_round if through_round is not None else state.last_round
    for (rnd, table), t in sorted(state.tables.items()):
        if rnd > last:
            continue
        for board in range(1, state.profile.boards + 1):
            held = state.results.get((rnd, table, board))
            if held is None:
                continue
            code = held[1]
            white, black = names.get((rnd, table, board), ("", ""))
            home_name, away_name = (white, black) if home_is_white(board) else (black, white)
            home = seats.seat(rnd, t.home, board, home_name)
            away = seats.seat(rnd, t.away, board, away_name)
            home_pts, away_pts, played = board_points(code, board)
            known = state.rounds[rnd].colours_known
            home_colour = ("W" if home_is_white(board) else "B") if known else None
            away_colour = ("B" if home_colour == "W" else "W") if known else None
            for me, team, other, other_team, pts, colour in (
                    (home, t.home, away, t.away, home_pts, home_colour),
                    (away, t.away, home, t.home, away_pts, away_colour)):
                if me is None:
                    continue
                rating = results[other].rating if other is not None else None
                results[me].games.append(Game(rnd, table, board, colour, other_team, other, rating, code, pts, played))
    return results


def board_players(state: TournamentState, rnd: int, tables: list[int] | None = None) -> dict[int, list[dict[str, Any]]]:
    """Who sits on each board of the ``tables`` of round ``rnd`` (default: every table): table ->
    ``[{board, white, black}]`` with each side's player as ``{player_id, name, title, rating}``
    (None when unknown): the recorded names where a result is in, else the line-ups
    (``TournamentState.lineup``: the submitted one, or the first nominated players in board order,
    R-D1), as a match sheet lists them."""
    names = recorded_names(state)
    results: dict[str, PlayerResult] = {}
    seats = _Seats(state, results)
    out: dict[int, list[dict[str, Any]]] = {}
    for t in state.rounds[rnd].tables:
        if tables is not None and t.table not in tables:
            continue
        boards = out[t.table] = []
        for board in range(1, state.profile.boards + 1):
            white, black = names.get((rnd, t.table, board), ("", ""))
            recorded = (white, black) if home_is_white(board) else (black, white)
            sides = []
            for team, name in zip((t.home, t.away), recorded):
                pid = seats.seat(rnd, team, board, name)
                if pid is None:
                    line = state.lineup(rnd, team)
                    pid = f"{team}.{line[board - 1]}" if board <= len(line) else None
                p = results.get(pid) if pid else None
                sides.append(None if p is None else {"player_id": p.player_id, "name": p.name, "title": p.title,
                                                     "rating": p.rating})
            home, away = sides
            boards.append({"board": board, "white": home if home_is_white(board) else away,
                           "black": away if home_is_white(board) else home})
    return out
