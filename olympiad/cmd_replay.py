"""``olympiad replay`` and ``olympiad export``: fold an event source into standings; write event logs."""
import gc
import shutil
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from olympiad.cli import app
from olympiad.output import load_or_refuse, read_or_refuse, refuse, say

__all__ = ["load_or_refuse", "refuse"]  # what other command modules take from here


@app.command()
def replay(
    source: str = typer.Argument(..., metavar="SOURCE", help="a shipped log name (samarkand-2026-open), a data folder or an event log"),
    through_round: Optional[int] = typer.Option(None, "--through-round", "-r", min=1, help="standings after this round"),
    as_json: bool = typer.Option(False, "--json", help="print the canonical standings JSON instead of the table"),
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy URL of an event store to import the events into "
                                     "(one ImportFacts command, judged there) and project from (default: none, the events are folded in memory)"),
) -> None:
    """Replay SOURCE and print the standings (chess-results layout) and their SHA-256 digest."""
    # A replay is a process that reads a log and exits: every event, board and row it makes lives
    # until the end, so the cyclic collector would walk them again and again to free nothing
    # (about a sixth of a Samarkand replay's CPU time, bench/bench_cli.py). Memory is the log's.
    gc.disable()
    from processors.tournament import RuleViolation
    from projections.replay import standings_at

    try:
        if db is None:
            events = load_or_refuse(source)
            state, standings = standings_at(events, through_round)
        else:
            events, state, standings = _through_store(read_or_refuse(source), through_round, db)
    except (RuleViolation, ValueError) as exc:
        refuse(exc)
    # The interpreter collects three times as it exits, gc disabled or not: frozen, what the
    # replay made is not walked again (about 4% of a Samarkand replay's CPU time, docs/cli.md).
    gc.freeze()
    if as_json:
        sys.stdout.write(standings.canonical + "\n")
        return
    from olympiad.render import standings_text

    title = f"{state.created.name}: standings after round {standings.round}" + ("" if standings.complete else " (provisional)")
    sys.stdout.write(standings_text(standings.document["rows"], state.profile.tiebreaks, title,
                                    state.profile.primary_score.upper()) + "\n")
    sys.stdout.write(f"profile {state.profile.name}; {len(events)} events; standings sha256 {standings.digest}\n")


def _through_store(source: Any, through_round: int | None, db: str):
    """``(events, state, standings)`` after importing ``source`` (a ``producers.sources.Source``)
    into the event store at ``db`` (one ``ImportFacts`` command by the importer, decided there:
    its facts meet the event rules once, all or none) and projecting its read models; raises
    ``RuleViolation``, and ``ValueError`` for a database that cannot be used or a round never paired."""
    from sqlalchemy.exc import SQLAlchemyError

    from producers.doors import EmbeddedDoor
    from producers.sources import import_command
    from projections.replay import standings_at
    from projections.store import EventStore, database_url

    try:
        store = EventStore(database_url(db))
        EmbeddedDoor(store).decide(import_command(source))
        result = store.project()
    except SQLAlchemyError as exc:
        from schemas.refusals import exception_text

        raise ValueError(f"--db {db}: {exception_text(exc)}") from None
    events = store.events()
    rnd = through_round or max(result.rounds, default=0)
    if rnd in result.rounds:
        return events, result.state, result.rounds[rnd]
    return (events, *standings_at(events, rnd))


@app.command()
def export(
    source: str = typer.Argument(..., metavar="SOURCE", help="a data folder or an event log"),
    out: Path = typer.Argument(..., metavar="OUT", help="event log to write (.jsonl or .jsonl.gz)"),
) -> None:
    """Convert SOURCE into an event log file (canonical JSON Lines; gzip if OUT ends in .gz), with its
    hash chain (OUT.jsonl.gz.chain: its name + .chain) and a copy of its event.json beside it."""
    from projections.eventlog import chain_path, write_log
    from producers.sources import facts_path, sidecar

    events = load_or_refuse(source)
    n = write_log(out, events, with_chain=True)
    say(f"wrote {n} events to {out}")
    say(f"wrote their hash chain to {chain_path(out)}")
    facts = facts_path(source)
    if facts is not None:  # the facts the log does not carry (arbiter-made tables) travel with it
        shutil.copyfile(facts, sidecar(out))
        say(f"copied {facts} to {sidecar(out)}")
