"""Terminal rendering of read models with rich (the chess-results layout)."""
from __future__ import annotations

from rich.table import Table

from projections.replay import RoundStandings
from schemas.points import fmt_points


def standings_table(standings: RoundStandings, tiebreaks: tuple[str, ...], title: str) -> Table:
    """A rich table: Rk, SNo, Team, MP, each tie-break, GP (GP last, as chess-results prints it)."""
    table = Table(title=title, title_justify="left")
    table.add_column("Rk", justify="right")
    table.add_column("SNo", justify="right")
    table.add_column("Team")
    table.add_column("MP", justify="right")
    shown = [tb for tb in tiebreaks if tb != "GP"]
    for tb in shown:
        table.add_column(tb, justify="right")
    table.add_column("GP", justify="right")
    previous = None
    for row in standings.rows:
        rank = "" if row.rank == previous else str(row.rank)  # a shared place prints once
        previous = row.rank
        table.add_row(rank, str(row.pairing_number), row.name, str(row.mp),
                      *(fmt_points(row.tiebreaks[tb]) for tb in shown), fmt_points(row.gp))
    return table
