"""Helpers shared by the importers: team ids and board result codes from a team's view."""
from __future__ import annotations

import re

from processors.scoring import home_is_white

# White's and Black's points on a board as sources print them -> result code.
_CODE = {("1", "0"): "1-0", ("0", "1"): "0-1", ("½", "½"): "1/2-1/2", ("+", "-"): "+/-", ("-", "+"): "-/+", ("-", "-"): "-/-"}


def team_id_for(federation: str, name: str) -> str:
    """A readable team id: the federation code, with the team's number for a second or third
    team of one federation ("Uzbekistan 2" -> ``UZB2``)."""
    m = re.search(r"\s(\d+)$", name.strip())
    return federation + (m.group(1) if m else "")


def board_code(home_score: str, away_score: str, board: int) -> str:
    """White-Black result code of a board from the home and away teams' points on it.

    ``home_score``/``away_score`` are "1", "0", "½", "+", "-". The home team is White on odd
    boards (R-D4). Raises ``ValueError`` for a pair that is not a chess result.
    """
    pair = (home_score, away_score)
    if pair not in _CODE:
        raise ValueError(f"board {board}: {home_score!r}-{away_score!r} is not a board result")
    white_black = pair if home_is_white(board) else (away_score, home_score)
    return _CODE[white_black]
