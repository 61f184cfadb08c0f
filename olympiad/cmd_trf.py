"""``olympiad export-trf`` and ``olympiad import-trf``: FIDE TRF-2026 with team records.

Parse, call, render: the records are written by ``projections.trf.export_trf`` and read by
``producers.importers.trf``.
"""
from pathlib import Path
from typing import List, Optional

import typer

from olympiad.cli import app
from olympiad.output import err, load_or_refuse, refuse, say


@app.command("export-trf")
def export_trf_command(
    source: str = typer.Argument(..., help="a shipped log name (samarkand-2026-open), a data folder or an event log"),
    out: Path = typer.Argument(..., help="TRF file to write (lines ending in CR)"),
    through_round: Optional[int] = typer.Option(None, "--through-round", "-r", min=1, help="the tournament as it stood after this round"),
    city: str = typer.Option("", help="record 022"),
    federation: str = typer.Option("", help="record 032"),
    start_date: str = typer.Option("", help="record 042, YYYY-MM-DD (gacrux picks its C.07 rule set by it)"),
    end_date: str = typer.Option("", help="record 052, YYYY-MM-DD"),
    chief_arbiter: str = typer.Option("", help="record 102"),
    round_date: List[str] = typer.Option([], "--round-date", help="record 132, once per round in order"),
    encoding: str = typer.Option("latin-1", help="latin-1 (what gacrux reads without -b), cp1252 or utf-8; "
                                 "characters latin-1/cp1252 cannot hold are respelled and listed on stderr"),
) -> None:
    """Write SOURCE as a TRF-2026 file with its team records (310, 013, 300, 320, 330, 240, 162, 362, 192, 202/212, 250 when accelerated)."""
    from processors.tournament import RuleViolation
    from projections.trf import TrfHeader, render_trf

    events = load_or_refuse(source)
    header = TrfHeader(city=city, federation=federation, start_date=start_date, end_date=end_date,
                       chief_arbiter=chief_arbiter, round_dates=tuple(round_date))
    try:
        trf = render_trf(events, through_round, header=header, encoding=encoding)
    except (RuleViolation, ValueError) as exc:
        refuse(exc)
        raise
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(trf.data())
    if trf.respelled:
        listed = ", ".join(f"{ch} (U+{ord(ch):04X}) as {new}" for ch, new in sorted(trf.respelled.items()))
        err().print(f"warning: {trf.encoding} cannot hold {len(trf.respelled)} character(s), respelled in the records "
                    f"(exact text in the ### olympiad-events comments): {listed}", highlight=False, markup=False, soft_wrap=True)
    say(f"wrote {trf.text.count(chr(13))} records ({trf.encoding}) to {out}")


@app.command("import-trf")
def import_trf_command(
    file: Path = typer.Argument(..., help="a team TRF (TRF-2026 310 records or TRF16 013), from Swiss-Manager, Sharly Chess or export-trf"),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="event log to write (default: FILE with .events.jsonl)"),
    tournament_id: Optional[str] = typer.Option(None, "--tournament-id", help="overrides the file's tournament id"),
    encoding: Optional[str] = typer.Option(None, help="latin-1, cp1252 or utf-8 (default: detected; a UTF-8 BOM is dropped)"),
) -> None:
    """Read FILE into an event log: tournament, teams with rosters, pairings, board results, byes and forfeits."""
    from producers.importers.trf import load_file
    from projections.eventlog import write_log

    try:
        events = load_file(file, tournament_id, encoding=encoding)
    except (OSError, ValueError) as exc:
        refuse(exc)
        raise
    target = out or file.with_suffix(".events.jsonl")
    n = write_log(target, events)
    say(f"wrote {n} events to {target}")
