"""Exports: standings, pairings and player results as CSV that a spreadsheet opens with every
name intact, and no cell run as a formula.

Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return as a formula. Such a text cell is written with a
leading apostrophe (``'=HYPERLINK("x")``), which the spreadsheet shows as text. A number
(``-1``, ``2.5``) is written as it is. The file is UTF-8 with a byte order mark, so that a
spreadsheet reads "Cote d’Ivoire" as it is spelled.
"""
from __future__ import annotations

import csv
import io
import re
from typing import Any, Iterable, Sequence

from projections.views.matches import pairings_view
from projections.views.players import players_view
from projections.views.snapshot import Snapshot
from projections.views.standings import standings_view

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def safe_cell(value: Any) -> str:
    """The text of one CSV cell: None as empty, a number as it is, a text that a spreadsheet
    would run as a formula behind an apostrophe."""
    text = "" if value is None else str(value)
    if text.startswith(FORMULA_START) and not NUMBER.match(text):
        return "'" + text
    return text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A CSV document (RFC 4180 quoting, CRLF line ends, UTF-8 BOM) of ``header`` and ``rows``,
    every cell through ``safe_cell``."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(h) for h in header])
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return out.getvalue()


def standings_csv(snap: Snapshot, rnd: int) -> str:
    """The standings after round ``rnd`` (``standings_view``): rank, SNo, team, federation, MP,
    each tie-break of the profile. Raises ``NotFound`` for a round without standings."""
    view = standings_view(snap, rnd)
    tiebreaks = view["tiebreaks"]
    rows = [[r["rank"], r["pairing_number"], r["name"], r["federation"], r["mp"], *(r["tiebreaks"][t] for t in tiebreaks)]
            for r in view["rows"]]
    return csv_text(["rank", "sno", "team", "federation", "mp", *tiebreaks], rows)


def pairings_csv(snap: Snapshot, rnd: int) -> str:
    """The pairing of round ``rnd`` (``pairings_view``): table, home and away team, their GP, MP.
    Raises ``NotFound`` for a round not paired."""
    view = pairings_view(snap, rnd)
    rows = [[m["table"], m["home"]["pairing_number"], m["home"]["name"], m["home_gp"], m["away_gp"], m["away"]["name"],
             m["away"]["pairing_number"], m["home_mp"], m["away_mp"]] for m in view["tables"]]
    return csv_text(["table", "home_sno", "home", "home_gp", "away_gp", "away", "away_sno", "home_mp", "away_mp"], rows)


def players_csv(snap: Snapshot) -> str:
    """Every player's results (``players_view``): team, nominated board, name, title, rating,
    score, games, games played, rating performance."""
    rows = [[r["team"]["name"], r["nominated_board"], r["name"], r["title"], r["rating"], r["score"], r["games"], r["played"],
             r["performance"]["rating"] if r["performance"] else None] for r in players_view(snap)["rows"]]
    return csv_text(["team", "board", "player", "title", "rating", "score", "games", "played", "performance"], rows)
