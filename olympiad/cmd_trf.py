"""``olympiad export-trf`` and ``olympiad import-trf``: FIDE TRF-2026 with team records.

Parse, call, render: the records are written by ``projections.trf.export_trf`` and read by
``producers.importers.trf``.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from olympiad.cli import app
from olympiad.cmd_replay import load_or_refuse, refuse
from processors.tournament import RuleViolation
from projections.trf import TrfHeader, export_trf

console = Console()


@app.command("export-trf")
def export_trf_command(
    source: str = typer.Argument(..., help="a shipped log name (samarkand-2026-open), a data folder or an event log"),
    out: Path = typer.Argument(..., help="TRF file to write (UTF-8, lines ending in CR)"),
    through_round: Optional[int] = typer.Option(None, "--through-round", "-r", min=1, help="the tournament as it stood after this round"),
    city: str = typer.Option("", help="record 022"),
    federation: str = typer.Option("", help="record 032"),
    start_date: str = typer.Option("", help="record 042, YYYY-MM-DD (gacrux picks its C.07 rule set by it)"),
    end_date: str = typer.Option("", help="record 052, YYYY-MM-DD"),
    chief_arbiter: str = typer.Option("", help="record 102"),
    round_date: List[str] = typer.Option([], "--round-date", help="record 132, once per round in order"),
) -> None:
    """Write SOURCE as a TRF-2026 file with its team records (310, 013, 300, 320, 330, 240, 162, 362, 192, 202/212)."""
    events = load_or_refuse(source)
    header = TrfHeader(city=city, federation=federation, start_date=start_date, end_date=end_date,
                       chief_arbiter=chief_arbiter, round_dates=tuple(round_date))
    try:
        text = export_trf(events, through_round, header=header)
    except (RuleViolation, ValueError) as exc:
        refuse(exc)
        raise
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(text.encode("utf-8"))
    console.print(f"wrote {text.count(chr(13))} records to {out}", highlight=False)
