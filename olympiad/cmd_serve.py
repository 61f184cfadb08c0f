"""``olympiad serve``: the live web app (scoreboard, result entry, API, standings stream) on the
embedded store, or with ``--kafka`` on the live pipeline of ``olympiad live`` (``docs/web.md``)."""
from __future__ import annotations

import os
from typing import Any, Optional

import typer
import uvicorn
from rich.console import Console
from sqlalchemy.engine import Engine

from olympiad.cli import app
from olympiad.cmd_replay import load_or_refuse, refuse
from processors.tournament import RuleViolation
from producers.publish import publish
from projections.store import EventStore
from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.embedded import EmbeddedBackend, store_engine
from olympiad.web.kafka_backend import KafkaBackend
from olympiad.web.preload import through_round

console = Console()


@app.command()
def serve(
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy URL of the event store (default: $DATABASE_URL, "
                                     "else in-memory SQLite, lost at exit)"),
    source: Optional[str] = typer.Option(None, "--source", help="events to load first: a shipped log name "
                                         "(samarkand-2026-open), a data folder or an event log"),
    rounds: Optional[int] = typer.Option(None, "--rounds", "-r", help="with --source: load rounds 1..N with their "
                                         "results and the pairing of round N+1, whose results are left to enter"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="TCP port"),
    chief_token: Optional[str] = typer.Option(None, "--chief-token", envvar="OLYMPIAD_CHIEF_TOKEN",
                                              help="the chief arbiter's token (default: a new random one)"),
    kafka: Optional[str] = typer.Option(None, "--kafka", metavar="BOOTSTRAP", help="serve the live pipeline on this "
                                        "Kafka cluster (processors and projection worker running; --db is then the "
                                        "worker's database) instead of the embedded store"),
    topic_prefix: Optional[str] = typer.Option(None, "--topic-prefix", envvar="OLYMPIAD_TOPIC_PREFIX",
                                               help="with --kafka: the pipeline's topic prefix"),
    tournament: Optional[str] = typer.Option(None, "--tournament", help="with --kafka: the tournament to serve "
                                             "(default: the first created on tournament-log)"),
    new: Optional[str] = typer.Option(None, "--new", metavar="NAME", help="start a new event on an empty store: "
                                      "prints the chief arbiter's token and the arbiter page (/arbiter), where the "
                                      "tournament NAME is created"),
    profile: str = typer.Option("olympiad-2022", "--profile", help="with --new: the rule profile offered"),
) -> None:
    """Serve the scoreboard (/), the result-entry page (/entry), the API (/docs) and the standings stream.

    Prints the chief arbiter's token: with it, issue one token per terminal (POST
    /api/tournaments/{id}/terminals) scoped to its tables.
    """
    if new is not None:
        serve_new(new, profile, db, host, port, chief_token)
        return
    events = None
    if source is not None:
        events = load_or_refuse(source)
        if rounds is not None:
            events = through_round(events, rounds)
    if kafka is None:
        backend, engine = embedded_backend(db, events, source)
    else:
        backend, engine = kafka_backend(kafka, topic_prefix, db, events, tournament)
    with backend.read() as snap:
        state = snap.state
    tid = state.tournament_id
    if tid is None:
        refuse(ValueError("no tournament to serve: give --source (or a --db or Kafka log that holds one)"))
    tokens = TokenStore(engine)
    token = tokens.set_chief_token(tid, chief_token)
    base = f"http://{host}:{port}"
    console.print(f"[bold]{state.created.name}[/] ({tid}), last paired round {max(state.rounds, default=0)}",
                  highlight=False)
    console.print(f"chief arbiter token: {token}", highlight=False, soft_wrap=True)
    console.print(f"scoreboard  {base}/\nentry page  {base}/entry#token=<terminal token>\nAPI docs    {base}/docs",
                  highlight=False, soft_wrap=True)
    run_server(create_app(backend, tokens), host, port)


def run_server(web: Any, host: str, port: int) -> None:
    """Serve ``web`` with uvicorn until Ctrl-C / SIGTERM (open streams are ended first)."""

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:  # Ctrl-C / SIGTERM: end the streams, then stop
            web.state.close_streams()
            super().handle_exit(sig, frame)

    Server(uvicorn.Config(web, host=host, port=port, log_level=os.environ.get("OLYMPIAD_LOG_LEVEL", "warning"),
                          timeout_graceful_shutdown=5)).run()


def serve_new(name: str, profile: str, db: str | None, host: str, port: int, chief_token: str | None) -> None:
    """``serve --new NAME --profile P``: an empty event store (``db``; refused if it already holds a
    tournament), the chief arbiter's token (``TokenStore`` under ``commands_api.NEW_EVENT`` until the
    tournament is created on the arbiter page, then the tournament's), the arbiter page's address."""
    from olympiad.web.commands_api import NEW_EVENT

    backend, engine = embedded_backend(db, None, None)
    if backend.tournament_id is not None:
        refuse(ValueError(f"--new: the store already holds the tournament {backend.tournament_id!r}; serve it "
                          "without --new, or give an empty --db"))
    token = TokenStore(engine).set_chief_token(NEW_EVENT, chief_token)
    base = f"http://{host}:{port}"
    console.print(f"new event [bold]{name}[/] (profile {profile}): create it on the arbiter page", highlight=False)
    console.print(f"chief arbiter token: {token}", highlight=False, soft_wrap=True)
    console.print(f"arbiter page {base}/arbiter#token={token}\nscoreboard   {base}/\nentry page   "
                  f"{base}/entry#token=<terminal token>\nAPI docs     {base}/docs", highlight=False, soft_wrap=True)
    web = create_app(backend, TokenStore(engine))
    web.state.new_event = {"name": name, "profile": profile}
    run_server(web, host, port)


def embedded_backend(db: str | None, events: list[Any] | None, source: str | None) -> tuple[EmbeddedBackend, Engine]:
    """The embedded backend on the event store at ``db``, ``events`` appended first; and its engine."""
    engine = store_engine(db)
    store = EventStore(engine=engine)
    if events is not None:
        try:
            result = store.append(events)
        except RuleViolation as exc:
            refuse(exc)
        console.print(f"loaded {result.appended} events from {source} ({result.duplicates} already stored)")
    return EmbeddedBackend(store), engine


def kafka_backend(bootstrap: str, topic_prefix: str | None, db: str | None, events: list[Any] | None,
                  tournament: str | None) -> tuple[KafkaBackend, Engine]:
    """The Kafka backend (``db``: the projection worker's database); ``events`` are first played
    into the pipeline round by round with ``producers.publish.publish`` (events already accepted
    are duplicates, so a restart publishes nothing new). Raises ``TimeoutError`` if the pipeline
    does not take them."""
    if events is not None:
        with console.status(f"publishing {len(events)} events through the pipeline"):
            publish(events, bootstrap=bootstrap, topic_prefix=topic_prefix).close()
        tournament = tournament or events[0].tournament_id
    backend = KafkaBackend(bootstrap, topic_prefix, db, tournament)
    return backend, backend.engine
