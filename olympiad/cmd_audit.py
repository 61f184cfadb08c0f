"""``olympiad audit``: reproduce every round of a tournament's log and compare with what was
published; check the hash chain and the signed checkpoints; the arbiter's actions."""
from __future__ import annotations

from typing import Optional

import typer

from olympiad.cli import app
from olympiad.output import refusal_text


@app.command()
def audit(
    source: str = typer.Argument(..., metavar="SOURCE", help="an event log file, a data folder, an event store's "
                                 "database URL, or kafka://HOST:PORT/TOURNAMENT"),
    tournament: Optional[str] = typer.Option(None, "--tournament", help="the tournament (a database that holds several)"),
    through_round: Optional[int] = typer.Option(None, "--through-round", min=1, help="audit rounds 1..N only"),
    key: Optional[str] = typer.Option(None, "--key", metavar="HEX", help="the chief arbiter's public key you trust "
                                      "(default: the one in the log)"),
    show_trail: bool = typer.Option(True, "--trail/--no-trail", help="print the audit trail of arbiter actions"),
) -> None:
    """Audit SOURCE: exit status 0 only when the log, the checkpoints and what was published all agree."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from producers.audit_sources import audit_source
    from projections.audit import audit as run_audit
    from schemas.events import EventSchemaError
    from schemas.refusals import exception_text

    console = Console(highlight=False, soft_wrap=True)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        tid, records, published = audit_source(source, tournament)
        if through_round is not None:
            published.standings = {r: d for r, d in published.standings.items() if r <= through_round}
            published.pairings = {r: d for r, d in published.pairings.items() if r <= through_round}
            published.proposals = {r: d for r, d in published.proposals.items() if r <= through_round}
        report = run_audit(tid, records, published, key)
    except (FileNotFoundError, ValueError, EventSchemaError) as exc:
        err.print(f"[bold red]refused[/]: {escape(refusal_text(exc))}")
        raise typer.Exit(code=2) from None
    except Exception as exc:  # a source that cannot be read (a broker, a database): say so, no traceback
        err.print(f"[bold red]refused[/]: {source}: {escape(exception_text(exc))}")
        raise typer.Exit(code=2) from None
    if show_trail and report.trail:
        table = Table(title=f"{tid}: audit trail ({len(report.trail)} arbiter actions)", title_justify="left")
        for column in ("when", "who", "round", "action", "reason"):
            table.add_column(column)
        for a in report.trail:
            table.add_row(a.when, a.who, str(a.round or ""), a.what, a.reason)
        console.print(table)
    console.print(f"{tid}: {report.events} events, rounds {report.rounds[0] if report.rounds else '-'}"
                  f"-{report.rounds[-1] if report.rounds else '-'} reproduced, {report.checkpoints} signed checkpoint(s), "
                  + (f"{len(published.standings)} published standings, {len(published.pairings)} published pairings, "
                     f"{len(published.proposals)} published proposals" if published.standings or published.pairings
                     or published.proposals else "nothing published beside the log to compare with"))
    if report.hashed:
        console.print(f"chain: {report.hashed} of {len(records)} records carry a stored chain hash, each checked")
    if report.ok:
        console.print("audit: everything agrees")
        return
    for d in report.divergences:
        console.print(f"DIVERGENCE {escape(d.text())}")
    raise typer.Exit(code=1)
