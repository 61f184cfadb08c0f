"""Teams from a CSV file: one row per nominated player, in board order within each team.

Columns (a header row names them; order free): ``team_id``, ``team`` (the team's name),
``federation``, ``board`` (nominated board order, 1-4, 5 the reserve), ``name`` (the player's),
and optionally ``fide_id``, ``title``, ``rating``, ``pairing_number``. Rows of one team may be
in any order; the teams keep the order of their first row.

``read_teams(text)`` returns the ``ImportTeams`` command's ``teams`` as plain dicts (the door
decides them); raises ``ValueError`` naming the line and the column. Each row is read through the
command's own models (``schemas.commands.TeamEntry``, ``schemas.events.Player``), so that a value
they refuse is refused here with its line and column, in the product's words (``schemas.refusals``).
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from producers.importers.text_files import csv_rows
from schemas.commands import TeamEntry
from schemas.events import Player
from schemas.refusals import problem

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
    for line, row in enumerate(rows, start=2):
        tid = (row.get("team_id") or "").strip()
        team = teams.setdefault(tid, {"team_id": tid, "name": (row.get("team") or "").strip(),
                                      "federation": (row.get("federation") or "").strip(), "players": []})
        number = (row.get("pairing_number") or "").strip()
        if number:
            team["pairing_number"] = _int(number, line, "pairing_number")
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
        team["players"].append(player)
    for team in teams.values():
        team["players"].sort(key=lambda p: p["board_order"])
    return list(teams.values())


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
