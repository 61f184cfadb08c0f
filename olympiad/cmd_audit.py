"""``olympiad audit``: reproduce every round of a tournament's log and compare with what was
published; check the hash chain and the signed checkpoints, against the anchors kept outside the
log (a pinned key, published checkpoints); the arbiter's actions. Exit status: 0 everything agrees
with an anchor; 1 a divergence; 2 a source that cannot be read; 3 consistent but not anchored."""
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
    key: Optional[str] = typer.Option(None, "--key", metavar="HEX", help="pin the chief arbiter's public key you trust "
                                      "(else the one in the log, and the audit is not anchored)"),
    against: Optional[str] = typer.Option(None, "--against", metavar="URL|FILE", help="the published checkpoints to "
                                          "check the log against: the scoreboard's URL or its /api/tournaments/T/checkpoints, "
                                          "a saved copy (JSON), a TRF export, or kafka://HOST:PORT (the standings topic)"),
    show_trail: bool = typer.Option(True, "--trail/--no-trail", help="print the audit trail of arbiter actions"),
) -> None:
    """Audit SOURCE: exit status 0 only when the log, the checkpoints and what was published all
    agree and the audit is anchored outside the log (--key, --against); 3 when they agree but
    nothing anchors them (the last line says what was not checked); 1 for a divergence."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from producers.audit_sources import audit_source, read_anchors
    from projections.anchors import public_key
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
        anchors = read_anchors(against, tid) if against else None
        report = run_audit(tid, records, published, public_key(key, "--key") if key is not None else None, anchors)
    except (FileNotFoundError, ValueError, EventSchemaError) as exc:
        err.print(f"[bold red]refused[/]: {escape(refusal_text(exc))}")
        raise typer.Exit(code=2) from None
    except Exception as exc:  # a source that cannot be read (a broker, a database): say so, no traceback
        err.print(f"[bold red]refused[/]: {source}: {escape(exception_text(exc))}")
        raise typer.Exit(code=2) from None
    console.print(escape(report.compared_line()))
    for line in report.round_lines():
        console.print(line)
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
                     or published.proposals else "nothing published beside the log to compare with" if anchors is None
                     # the anchors (--against) were compared: say which part was not, not "nothing"
                     else f"no standings or pairings published beside the log; its checkpoints compared with {against}"))
    if report.hashed:
        console.print(f"chain: {report.hashed} of {len(records)} records carry a stored chain hash, each checked")
    for d in report.divergences:
        console.print(f"DIVERGENCE {escape(d.text())}")
    console.print(escape(report.verdict()))
    if report.exit_status:
        raise typer.Exit(code=report.exit_status)
