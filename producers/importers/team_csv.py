"""Teams from a CSV file: one row per nominated player, in board order within each team.

Columns (a header row names them; order free): ``team_id``, ``team`` (the team's name),
``federation``, ``board`` (nominated board order, 1-4, 5 the reserve), ``name`` (the player's),
and optionally ``fide_id``, ``title``, ``rating``, ``pairing_number``. Rows of one team may be
in any order; the teams keep the order of their first row.

``read_teams(text)`` returns the ``ImportTeams`` command's ``teams`` as plain dicts (the door
decides them); raises ``ValueError`` naming the line and the column, also for a row that gives
its team another name, federation or pairing number than the team's earlier rows. Each row is
read through the command's own models (``schemas.commands.TeamEntry``, ``schemas.events.Player``),
so that a value they refuse is refused here with its line and column, in the product's words
(``schemas.refusals``).
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from producers.importers.text_files import csv_rows
from schemas.commands import TeamEntry
from schemas.events import Player
from schemas.refusals import problem, shown

REQUIRED = ("team_id", "team", "board", "name")
COLUMN_OF = {"board_order": "board", "name": "name"}
"""The CSV column of a player's field, where its name differs (a team's ``name`` is the column ``team``)."""


class RowError(ValueError):
    """A row of the file refused: ``line`` (1 the header), ``column``, ``rule``; the text is
    ``line N, column C: <what is wrong> [rule: ...]``."""

    def __init__(self, line: int, column: str, message: str, rule: str):
        super().__init__(f"line {line}, column {column}: {message} [rule: {rule}]")
        self.line, self.column, self.field, self.rule = line, column, column, rule


def read_teams(text: str) -> list[dict[str, Any]]:
    """The teams of a CSV text, each ``{"team_id", "name", "federation", "players": [...]}``."""
    header, rows = csv_rows(text)
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise ValueError(f"line 1: the header misses the column(s) {', '.join(missing)} (needs {', '.join(REQUIRED)})")
    teams: dict[str, dict[str, Any]] = {}
    first_line: dict[str, int] = {}
    board_line: dict[tuple[str, int], int] = {}
    for line, row in enumerate(rows, start=2):
        tid = (row.get("team_id") or "").strip()
        team = teams.setdefault(tid, {"team_id": tid, "name": (row.get("team") or "").strip(),
                                      "federation": (row.get("federation") or "").strip(), "players": []})
        first_line.setdefault(tid, line)
        _same_team(team, {"name": (row.get("team") or "").strip(), "federation": (row.get("federation") or "").strip()},
                   line, first_line[tid])
        number = (row.get("pairing_number") or "").strip()
        if number:
            given = _int(number, line, "pairing_number")
            _same_team(team, {"pairing_number": given}, line, first_line[tid], skip_missing=True)
            team["pairing_number"] = given
        player: dict[str, Any] = {"board_order": _int(row.get("board"), line, "board"), "name": (row.get("name") or "").strip()}
        for column in ("fide_id", "title"):
            value = (row.get(column) or "").strip()
            if value:
                player[column] = value
        rating = (row.get("rating") or "").strip()
        if rating:
            player["rating"] = _int(rating, line, "rating")
        if len(team["players"]) == 0:
            _check(TeamEntry, {k: v for k, v in team.items() if k != "players"} | {"players": ()}, line,
                   {"name": "team"})
        _check(Player, player, line, COLUMN_OF)
        earlier = board_line.setdefault((tid, player["board_order"]), line)
        if earlier != line:
            raise RowError(line, "board", f"team {tid!r} has board {player['board_order']} already (line {earlier}): "
                           "a team listed twice, or two players on one board", ONE_ROW_PER_BOARD)
        team["players"].append(player)
    for team in teams.values():
        team["players"].sort(key=lambda p: p["board_order"])
    return list(teams.values())


TEAM_COLUMN = {"name": "team", "federation": "federation", "pairing_number": "pairing_number"}
ONE_ROW_PER_BOARD = "one row per nominated player: each board order once per team (R-D1 board order fixed at nomination)"
SAME_TEAM_RULE = "one registration per team: every row of a team gives its name, federation and pairing number alike"


def _same_team(team: dict[str, Any], given: dict[str, Any], line: int, first: int, skip_missing: bool = False) -> None:
    """Raise ``RowError`` (the column of the first field that differs) if a row of ``team`` gives
    another team name, federation or pairing number than its earlier rows (the first on line
    ``first``): a team is registered once, as one entry, so a later row cannot rename it.
    ``skip_missing``: a field the earlier rows did not give (a pairing number on a later row) is taken."""
    for key, value in given.items():
        if skip_missing and key not in team:
            continue
        if team[key] != value:
            raise RowError(line, TEAM_COLUMN[key], f"an earlier row of team {team['team_id']!r} (from line {first}) "
                           f"gives {shown(team[key])}; this row says {shown(value)}", SAME_TEAM_RULE)


def _check(model: Any, fields: dict[str, Any], line: int, columns: dict[str, str]) -> None:
    """Raise ``RowError`` for the first field of ``fields`` that ``model`` refuses, named by its column."""
    try:
        model.model_validate(fields)
    except ValidationError as exc:
        p = problem(exc, schema="team file columns")
        field = p.field.split(".", 1)[0].split("[", 1)[0]
        raise RowError(line, columns.get(field, field), p.message, p.rule) from None


def _int(value: Any, line: int, column: str) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise RowError(line, column, f"{str(value)[:40]!r} is not a whole number", "team file columns: whole numbers") from None
