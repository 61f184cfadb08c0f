"""Helpers shared by the importers: team ids, board result codes from a team's view, the key two
sources' spellings of one name are matched by (``schemas.names.name_key``, which the read side
shares), and the note on titles that are not FIDE codes."""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Any, Iterable

from processors.scoring import home_is_white
from schemas.names import name_key
from schemas.titles import FIDE_TITLES

__all__ = ["board_code", "name_key", "registered_titles", "team_id_for", "title_note"]

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


def title_note(players: Iterable[tuple[str, str, str]], shown: int = 5) -> str | None:
    """One line naming the titles of ``players`` ((team, player name, title) triples) that are not
    FIDE title codes (``schemas.titles.FIDE_TITLES``), each with up to ``shown`` of its players,
    e.g. ``2 players carry a title that is not a FIDE title code (kept as given): NM (UZB: Doe,
    John; ...)``; None when every title is a FIDE code or empty. An unknown title is reported,
    never refused: it changes no pairing and no score."""
    unknown: dict[str, list[str]] = defaultdict(list)
    for team, name, title in players:
        if title and title.strip().upper() not in FIDE_TITLES:  # as schemas.titles.checked_title reads it
            unknown[title].append(f"{team}: {name}")
    if not unknown:
        return None
    count = sum(len(v) for v in unknown.values())
    parts = [f"{code} ({'; '.join(who[:shown])}{f'; and {len(who) - shown} more' if len(who) > shown else ''})"
             for code, who in sorted(unknown.items())]
    return (f"{count} player{'s' if count != 1 else ''} carr{'y' if count != 1 else 'ies'} a title that is not a "
            f"FIDE title code (kept as given): {', '.join(parts)}")


def registered_titles(events: Iterable[Any]) -> list[tuple[str, str, str]]:
    """(team id, player name, title) of every player of the ``TeamRegistered`` and
    ``RosterChanged`` events of ``events`` (what ``title_note`` reads)."""
    return [(e.team_id, p.name, p.title) for e in events if e.type in ("TeamRegistered", "RosterChanged")
            for p in e.players]
