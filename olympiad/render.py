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


def prizes_text(view: Mapping[str, Any], title: str, shown: int | None = 10) -> str:
    """The board prize tables of ``projections.views.players.prizes_view`` as text under ``title``:
    per board its first ``shown`` lines (all when None): place (once for a shared place), player,
    title, rating, team, score/games, games played, Ra, p, Rp; the rule and the round's status last."""
    out = [title, f"after round {view['round']}, {view['status']['label']}" if view["round"] else "no round paired"]
    header = ["Rk", "Player", "Tit", "Rtg", "Team", "Pts", "Gms", "Ra", "p", "Rp"]
    for board in view["boards"]:
        rows, previous = [], None
        for r in board["rows"][:shown]:
            perf = r["performance"]
            rows.append(["" if r["rank"] == previous else str(r["rank"]), r["name"], r["title"], str(r["rating"] or ""),
                         r["team"]["name"], f"{r['score']}/{r['games']}", str(r["played"]), str(perf["average"]),
                         perf["percentage"], str(perf["rating"])])
            previous = r["rank"]
        widths = [max(len(x) for x in col) for col in zip(header, *rows)]
        left = {1, 2, 4}

        def fmt(cells: list[str]) -> str:
            return "  ".join(v.ljust(w) if i in left else v.rjust(w) for i, (v, w) in enumerate(zip(cells, widths))).rstrip()

        name = f"Board {board['board']}" + (" (reserve)" if board["reserve"] else "")
        more = len(board["rows"]) - len(rows)
        out += ["", f"{name}: {len(board['rows'])} players with at least {view['min_games']} games",
                fmt(header), *(fmt(c) for c in rows)] + ([f"... and {more} more (--json for all)"] if more > 0 else [])
    out += ["", f"rule: {view['rule']}"]
    return "\n".join(out)
