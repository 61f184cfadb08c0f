"""Terminal rendering of standings: plain aligned text in the chess-results layout.

Plain text, not a rich table: 206 lines are drawn in about 2 ms where rich takes some 180 ms, a
third of a whole ``olympiad replay`` (``bench/bench_cli.py``). The columns and their order are
``projections.standings.columns``'s, as on the web page and in the API.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from projections.standings.columns import cell, standings_columns
from projections.standings.decided_by import SHARED
from projections.views.ranking import ranked_rows

LEFT = {"name", "federation", "decided_by"}


def standings_text(rows: Iterable[Mapping[str, Any]], tiebreaks: tuple[str, ...], title: str, primary: str = "MP") -> str:
    """The standings ``rows`` (document rows, rank order) as a text table under ``title``; a
    shared place prints its rank once; the last column is "decided by", the key that puts a row
    below the one above (``projections.views.ranking.ranked_rows``, as on the web page; "=" a
    shared place); the last line names the order of the criteria."""
    columns = standings_columns(tiebreaks, primary)
    lines: list[list[str]] = []
    previous = None
    for row in ranked_rows(list(rows), tiebreaks, primary=primary):
        by = row["decided_by"]
        row["decided_by"] = "=" if by == SHARED else by or ""
        cells = [cell(row, c["key"]) for c in columns]
        if row["rank"] == previous:
            cells[0] = ""
        previous = row["rank"]
        lines.append(cells)
    header = [c["label"] for c in columns]
    widths = [max(len(x) for x in col) for col in zip(header, *lines)]

    def fmt(cells: list[str]) -> str:
        return "  ".join(v.ljust(w) if c["key"] in LEFT else v.rjust(w)
                         for v, w, c in zip(cells, widths, columns)).rstrip()

    body = [title, fmt(header), *(fmt(c) for c in lines)]
    body.append(f"order: {primary}, {', '.join(tiebreaks)}, pairing number")
    return "\n".join(body)
