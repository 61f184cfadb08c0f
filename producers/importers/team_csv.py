"""Teams from a CSV file: one row per nominated player, in board order within each team.

Columns (a header row names them; order free): ``team_id``, ``team`` (the team's name),
``federation``, ``board`` (nominated board order, 1-4, 5 the reserve), ``name`` (the player's),
and optionally ``fide_id``, ``title``, ``rating``, ``pairing_number``. Rows of one team may be
in any order; the teams keep the order of their first row.

``read_teams(text)`` returns the ``ImportTeams`` command's ``teams`` as plain dicts (the door
validates them); raises ``ValueError`` naming the line and the column.
"""
from __future__ import annotations

from typing import Any

from producers.importers.text_files import csv_rows

REQUIRED = ("team_id", "team", "board", "name")


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
        team["players"].append(player)
    for team in teams.values():
        team["players"].sort(key=lambda p: p["board_order"])
    return list(teams.values())


def _int(value: Any, line: int, column: str) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"line {line}: column {column}: {value!r} is not a whole number") from None
