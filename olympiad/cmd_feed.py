"""``olympiad feed SOURCE --tournament T``: a live game feed's ingester (issue 29, ``docs/feeds.md``).

Parse, call, render: the sources and the ingester are ``producers.feeds``; each changed game goes
through the door of ``--db`` or ``--kafka`` as a ``ReportGame`` command, decided by
``processors.deciders.games``. A line names the sources (absolute paths or URLs); one line per
poll says what it did ("nothing new" when no game changed), one line on stderr per feed problem
(the game, what is wrong, the field and the rule) and per source that failed.
"""
from typing import List, Optional

import typer

from olympiad.cli import app
from olympiad.clock import now
from olympiad.doors import DB, KAFKA, console, door, err, escape


@app.command("feed")
def feed_command(
    source: List[str] = typer.Argument(..., help="a folder or file of PGN, a PGN URL (a lichess broadcast stream too), "
                                       "a DGT LiveChess Cloud round folder or URL; several are polled together"),
    tournament: str = typer.Option(..., "--tournament", "-t", help="the tournament id"),
    kind: str = typer.Option("auto", "--format", help="pgn, dgt or auto (DGT where there is an index.json)"),
    interval: float = typer.Option(5.0, "--interval", help="seconds between polls (at least 2)"),
    polls: Optional[int] = typer.Option(None, "--polls", min=1, help="stop after this many polls (default: run until ^C)"),
    boards: int = typer.Option(4, "--boards", min=1, max=20, help="boards per match, to number DGT's games"),
    rnd: Optional[int] = typer.Option(None, "--round", min=1, max=99, help="the round of a DGT source not named round-N (a PGN game's round is its Round tag, else the last published round)"),
    feed_id: str = typer.Option("feed", "--id", help="the feed's actor id (on an authenticated broker: principal feed-<id>)"),
    db: Optional[str] = DB,
    kafka: Optional[str] = KAFKA,
) -> None:
    """Poll SOURCE for the games of the tournament's current round and send each changed game."""
    from producers.feeds.ingester import FEED_ACTOR, MIN_INTERVAL, Ingester
    from producers.feeds.sources import open_source

    if kind not in ("auto", "pgn", "dgt"):
        err().print(f"[bold red]refused[/]: --format {escape(kind)}: pgn, dgt or auto")
        raise typer.Exit(code=2)
    letters = None
    if kafka:
        from deploy.topics import prefix
        from producers.feeds.dead_letters import KafkaDeadLetters

        letters = KafkaDeadLetters(kafka, prefix())
    d = door(db, kafka)
    ingester = Ingester(d.submit, tournament, [open_source(s, kind, boards, rnd) for s in source],
                        actor=FEED_ACTOR.model_copy(update={"id": feed_id}), now=now, dead_letters=letters,
                        submit_all=d.submit_all)  # a poll's games in one round trip

    names = ", ".join(f"{escape(src.name)} ({'PGN' if 'Pgn' in type(src).__name__ else 'DGT LiveChess'})" for src in ingester.sources)
    console().print(f"feed of {escape(tournament)}: polling {names} every {max(interval, MIN_INTERVAL):g} s")

    def said(report) -> None:
        if report.commands == 0 and not report.unanswered and not report.failed:
            console().print(f"{report.games} games: nothing new")
        elif report.commands or report.unanswered:
            line = (f"{report.games} games, {report.moves} new moves, {len(report.ended)} ended, {report.events} events, "
                    f"{report.problems} feed problems")
            console().print(escape(line + (f", {report.unanswered} without a verdict (sent again)" if report.unanswered else "")))
        for note in report.notes:  # one line each: the game, the field and the rule
            err().print(escape(note))
        for name, why in report.failed.items():
            err().print(f"[bold red]source failed[/]: {escape(name)}: {escape(why)} (backing off)")

    try:
        ingester.run(interval, polls=polls, on_poll=said)
    except KeyboardInterrupt:
        pass
    finally:
        if letters is not None:
            letters.close()
