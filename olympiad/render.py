"""Terminal rendering of read models with rich (the chess-results layout)."""
from __future__ import annotations

from rich.table import Table

from projections.replay import RoundStandings
from projections.standings.decided_by import SHARED, decided_by
from projections.standings.catalogue import value_text


def standings_table(standings: RoundStandings, tiebreaks: tuple[str, ...], title: str) -> Table:
    """A rich table as chess-results prints standings: Rk, SNo, Team, MP, then the tie-breaks in the
    profile's order (GP among them where the profile ranks by it, else GP last), then "decided by": the
    key that puts the row below the one above (``projections.standings.decided_by``; "=" a shared place)."""
    table = Table(title=title, title_justify="left", caption=f"order: MP, {', '.join(tiebreaks)}, pairing number")
    for name in ("Rk", "SNo"):
        table.add_column(name, justify="right")
    table.add_column("Team")
    columns = list(tiebreaks) + ([] if "GP" in tiebreaks else ["GP"])
    for name in ["MP", *columns]:
        table.add_column(name, justify="right")
    table.add_column("decided by")
    previous = None
    for row, by in zip(standings.rows, decided_by(standings.rows, tiebreaks)):
        rank = "" if row.rank == previous else str(row.rank)  # a shared place prints once
        previous = row.rank
        values = [value_text(row.gp if name == "GP" else row.tiebreaks[name]) for name in columns]
        table.add_row(rank, str(row.pairing_number), row.name, str(row.mp), *values, "=" if by == SHARED else by or "")
    return table
