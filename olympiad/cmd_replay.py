"""``olympiad replay`` and ``olympiad export``: fold an event source into standings; write event logs."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from olympiad.cli import app
from olympiad.render import standings_table
from processors.tournament import RuleViolation
from projections.eventlog import write_log
from producers.sources import load_source
from projections.store import EventStore
from sqlalchemy.exc import SQLAlchemyError

from schemas.events import EventSchemaError

console = Console()
err = Console(stderr=True)


def refuse(exc: Exception) -> None:
    """Print a refusal (field, rule, offending event) on stderr and exit with status 2."""
    where = f"event {exc.event_id}: " if getattr(exc, "event_id", None) else ""
    err.print(f"[bold red]refused[/]: {escape(where + str(exc))}", highlight=False, soft_wrap=True)
    raise typer.Exit(code=2)


def load_or_refuse(source: str) -> list:
    """Events of ``source``; a missing source or a bad log is refused with exit status 2."""
    try:
        return load_source(source)
    except (FileNotFoundError, EventSchemaError, ValueError) as exc:
        refuse(exc)
        raise  # unreachable: refuse exits


@app.command()
def replay(
    source: str = typer.Argument(..., help="a shipped log name (samarkand-2026-open), a data folder or an event log"),
    through_round: Optional[int] = typer.Option(None, "--through-round", "-r", min=1, help="standings after this round"),
    as_json: bool = typer.Option(False, "--json", help="print the canonical standings JSON instead of the table"),
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy URL of the event store (default: in-memory SQLite)"),
) -> None:
    """Replay SOURCE through the embedded event store and print the standings and their SHA-256 digest."""
    events = load_or_refuse(source)
    try:
        store = EventStore(db or "sqlite://")
        store.append(events)
    except RuleViolation as exc:
        refuse(exc)
    except SQLAlchemyError as exc:
        refuse(ValueError(f"--db {db}: {exc.__class__.__name__}: {exc}"))
    result = store.project()
    if not result.rounds:
        refuse(ValueError("the source has no paired round"))
    last = max(result.rounds)
    rnd = through_round or last
    if rnd not in result.rounds:
        # The asked round's standings are those of the log prefix before round rnd+1 was paired.
        from projections.replay import replay as replay_events

        try:
            result = replay_events(store.events(), through_round=rnd)
        except ValueError as exc:
            refuse(exc)
    standings = result.rounds[rnd]
    if as_json:
        sys.stdout.write(standings.canonical + "\n")
        return
    state = result.state
    title = f"{state.created.name}: standings after round {rnd}" + ("" if standings.complete else " (provisional)")
    console.print(standings_table(standings, state.profile.tiebreaks, title))
    console.print(f"profile {state.profile.name}; {len(events)} events; standings sha256 {standings.digest}", soft_wrap=True, highlight=False)


@app.command()
def export(
    source: str = typer.Argument(..., help="a data folder or an event log"),
    out: Path = typer.Argument(..., help="event log to write (.jsonl or .jsonl.gz)"),
) -> None:
    """Convert SOURCE into an event log file (canonical JSON Lines; gzip if OUT ends in .gz)."""
    events = load_or_refuse(source)
    n = write_log(out, events)
    console.print(f"wrote {n} events to {out}")
