"""Which board a feed's game is (issue 29): through the teams' line-ups, FIDE id first, then name.

A game names its players (``schemas.game_commands.FeedGame``). Each player is found among the
nominated players of the registered teams (FIDE id first; else the name as spelt, without case or
spacing: ``schemas.names.name_key``; else the name without accents, punctuation or word order:
``schemas.names.loose_name_key``, which a roster's "Player 1.2" and "Player 2.1" share, so the
spelling as registered decides first); the round's table where the two teams meet is the match; the
board is the player's place in the team's line-up for the round (``LineupSubmitted``), else the
feed's board number, else the place in the default line-up (the first nominated players, R-D1).
The colours must agree: the home team has White on the odd boards (R-D4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from processors.tournament import RuleViolation, TournamentState
from schemas.game_events import FEED_PROBLEM_RULES
from schemas.names import loose_name_key, name_key

MAPPING_RULE = FEED_PROBLEM_RULES["unmapped-game"][1]


@dataclass(frozen=True)
class Seat:
    """A nominated player: the team and the board order (R-D1)."""

    team: str
    order: int


_Names = dict[str, Seat | None]
_INDEX: dict[tuple[int, ...], tuple[tuple[Any, ...], dict[str, Seat], _Names, _Names]] = {}


def _index(state: TournamentState) -> tuple[dict[str, Seat], _Names, _Names]:
    """(FIDE id -> seat, name key -> seat, loose name key -> seat; a name's seat is None when two
    nominated players share its key), cached
    per set of registrations (a registration or a roster change is a new object; the cache holds
    the objects it was built from, so their ids cannot be reused while it is kept)."""
    teams = tuple(state.teams.values())
    key = tuple(map(id, teams))
    cached = _INDEX.get(key)
    if cached is not None and all(a is b for a, b in zip(cached[0], teams)):
        return cached[1], cached[2], cached[3]
    by_id: dict[str, Seat] = {}
    by_name: _Names = {}
    by_loose: _Names = {}
    for team in teams:
        for p in team.players:
            seat = Seat(team.team_id, p.board_order)
            if p.fide_id:
                by_id[p.fide_id] = seat
            for names, k in ((by_name, name_key(p.name)), (by_loose, loose_name_key(p.name))):
                names[k] = seat if k not in names else None
    if len(_INDEX) > 8:
        _INDEX.clear()
    _INDEX[key] = (teams, by_id, by_name, by_loose)
    return by_id, by_name, by_loose


def seat_of(state: TournamentState, fide_id: str | None, name: str) -> Seat | None:
    """The nominated player a feed names: by FIDE id, else by the name as spelt, else by its loose
    key (module docstring); None if no team nominates it or two nominated players share the name."""
    by_id, by_name, by_loose = _index(state)
    if fide_id and fide_id in by_id:
        return by_id[fide_id]
    if not name:
        return None
    exact = name_key(name)
    return by_name[exact] if exact in by_name else by_loose.get(loose_name_key(name))


def _tried(name: str, fide_id: str | None) -> str:
    """A player as the feed names it, with what was looked up: ``'Carlsen, M' (FIDE id 1503014)``."""
    return f"{name or '?'!r} ({f'FIDE id {fide_id}' if fide_id else 'no FIDE id'})"


def map_game(state: TournamentState, game: Any) -> tuple[int, int, int]:
    """``(round, table, board)`` of ``game`` (a ``FeedGame``): its round (the feed's, else the last
    published), its players' teams' table, the board by the line-ups (module docstring).

    Raises ``RuleViolation`` (field ``game.<field>``, rule ``MAPPING_RULE``) naming what does not
    map: an unpublished round, a player no team nominates, teams that do not meet, boards that
    disagree, colours against R-D4.
    """
    rnd = game.round or state.last_round
    if rnd not in state.rounds:
        raise RuleViolation(f"round {rnd} is not published", field="game.round", rule=MAPPING_RULE)
    white = seat_of(state, game.white_fide_id, game.white)
    black = seat_of(state, game.black_fide_id, game.black)
    if white is None and black is None:
        raise RuleViolation(f"neither White {_tried(game.white, game.white_fide_id)} nor Black "
                            f"{_tried(game.black, game.black_fide_id)} is a nominated player of a team (looked up by FIDE "
                            "id, then by name)", field="game.white", rule=MAPPING_RULE)
    seats = [(side, s) for side, s in (("white", white), ("black", black)) if s is not None]
    teams = {s.team for _, s in seats}
    tables = [t for t in state.rounds[rnd].tables if teams <= {t.home, t.away}]
    if len(tables) != 1 or (white and black and white.team == black.team):
        shown = " and ".join(sorted(teams))
        raise RuleViolation(f"{shown} do not meet at a table of round {rnd}", field="game.white", rule=MAPPING_RULE)
    table = tables[0]
    hint = game.board if game.board is not None and game.board <= state.profile.boards else None  # a feed's global number: none
    boards = {}
    for side, seat in seats:
        submitted = state.lineups.get((rnd, seat.team))
        lineup = submitted or state.lineup(rnd, seat.team)
        if submitted and seat.order not in submitted:
            raise RuleViolation(f"{getattr(game, side)} is not in the line-up of {seat.team} for round {rnd}",
                                field=f"game.{side}", rule=MAPPING_RULE)
        if submitted or hint is None:
            if seat.order not in lineup:
                raise RuleViolation(f"{getattr(game, side)} is not in the line-up of {seat.team} for round {rnd} and "
                                    "the feed gives no board", field="game.board", rule=MAPPING_RULE)
            boards[side] = lineup.index(seat.order) + 1
        else:
            boards[side] = hint
    if len(set(boards.values())) != 1:
        raise RuleViolation(f"the line-ups put White on board {boards['white']} and Black on board {boards['black']}",
                            field="game.board", rule=MAPPING_RULE)
    board = next(iter(boards.values()))
    if not 1 <= board <= state.profile.boards:
        raise RuleViolation(f"board {board} does not exist in a {state.profile.boards}-board match", field="game.board",
                            rule=MAPPING_RULE)
    white_team = white.team if white else (table.away if black.team == table.home else table.home)
    if (white_team == table.home) != (board % 2 == 1):
        raise RuleViolation(f"{white_team} has Black on board {board} of table {table.table} (R-D4: the home team "
                            f"{table.home} has White on the odd boards)", field="game.white", rule=MAPPING_RULE)
    return rnd, table.table, board
