"""``olympiad serve``: the live web app (scoreboard, result entry, API, standings stream) on the
embedded store, or with ``--kafka`` on the live pipeline of ``olympiad live`` (``docs/web.md``)."""
import gc
import os
import socket
from pathlib import Path
from typing import Any, Optional

import typer

from olympiad.cli import app
from olympiad.doors import DEFAULT_DB
from olympiad.output import console, load_or_refuse, refuse, say
from olympiad.web.preload import through_round


@app.command()
def serve(
    db: Optional[str] = typer.Option(None, "--db", help="SQLAlchemy URL of the event store (default: $DATABASE_URL, "
                                     "else in-memory SQLite, lost at exit); postgresql://... uses psycopg2"),
    source: Optional[str] = typer.Option(None, "--source", help="events to load first: a shipped log name "
                                         "(samarkand-2026-open), a data folder or an event log"),
    rounds: Optional[int] = typer.Option(None, "--rounds", "-r", min=0, help="with --source: load rounds 1..N with "
                                         "their results and the pairing of round N+1, whose results are left to enter"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
    port: int = typer.Option(8000, "--port", help="TCP port"),
    chief_token_file: Optional[Path] = typer.Option(None, "--chief-token-file", envvar="OLYMPIAD_CHIEF_TOKEN_FILE",
                                                    help="a file holding the chief arbiter's token (else "
                                                    "$OLYMPIAD_CHIEF_TOKEN, else a new random one); never on the "
                                                    "command line, where every user of the machine sees it"),
    kafka: Optional[str] = typer.Option(None, "--kafka", metavar="BOOTSTRAP", help="serve the live pipeline on this "
                                        "Kafka cluster (processors and projection worker running; --db is then the "
                                        "worker's database) instead of the embedded store"),
    topic_prefix: Optional[str] = typer.Option(None, "--topic-prefix", envvar="OLYMPIAD_TOPIC_PREFIX",
                                               help="with --kafka: the pipeline's topic prefix"),
    tournament: Optional[str] = typer.Option(None, "--tournament", help="with --kafka: the tournament to serve "
                                             "(default: the first created on tournament-log)"),
    new: Optional[str] = typer.Option(None, "--new", metavar="NAME", help="start a new event on an empty store "
                                      "(--db, else $OLYMPIAD_DB, else sqlite:///olympiad.sqlite here: the arbiter "
                                      "commands' store): prints the chief arbiter's token and the arbiter page "
                                      "(/arbiter), where the tournament NAME is created"),
    profile: str = typer.Option("olympiad-2022", "--profile", help="with --new: the rule profile offered"),
    key_file: Optional[Path] = typer.Option(None, "--key", help="the chief arbiter's Ed25519 key file that signs each "
                                            "round closed on the arbiter page (with --new: made if missing; default "
                                            "$OLYMPIAD_KEY, else TOURNAMENT.chief.key here, as olympiad new)"),
) -> None:
    """Serve the scoreboard (/), the result-entry page (/entry), the API (/docs) and the standings stream.

    Prints the chief arbiter's token if it made a random one: with it, issue one token per terminal
    (POST /api/tournaments/{id}/terminals) scoped to its tables. A given token (file or environment)
    must hold at least 128 bits (``olympiad.web.auth.check_chief_token``).
    """
    chief_token = chief_token_from(chief_token_file)
    listener = listen(host, port)  # first: a busy port ends the command before anything is printed
    from producers.signing import ChiefKey

    signer = ChiefKey(key_file)
    if new is not None:
        serve_new(new, profile, db, host, port, chief_token, listener, signer)
        return
    events = None
    if source is not None:
        events = load_or_refuse(source)
        if rounds is not None:
            try:
                events = through_round(events, rounds)
            except ValueError as exc:
                refuse(exc)
    elif rounds is not None:
        refuse(ValueError("--rounds needs --source"))
    if kafka is None:
        backend, engine = embedded_backend(db, events, source)
    else:
        backend, engine = kafka_backend(kafka, topic_prefix, db, events, tournament)
    with backend.read() as snap:
        state = snap.state
    tid = state.tournament_id
    if tid is None:
        refuse(ValueError("no tournament to serve: give --source (or a --db or Kafka log that holds one)"))
    from olympiad.web.auth import TokenStore

    tokens = TokenStore(engine)
    token = tokens.set_chief_token(tid, chief_token)
    base = f"http://{host}:{port}"
    out = console()
    out.print(f"[bold]{state.created.name}[/] ({tid}), last paired round {max(state.rounds, default=0)}", highlight=False)
    out.print(f"chief arbiter token: {token}" if chief_token is None else
              f"chief arbiter token: as given ({'--chief-token-file' if chief_token_file else '$OLYMPIAD_CHIEF_TOKEN'})",
              highlight=False, soft_wrap=True)
    out.print(addresses(base, token if chief_token is None else None), highlight=False, soft_wrap=True)
    if state.created.chief_key is not None:
        path = signer.path_for(tid)
        out.print(f"closed rounds are signed with the chief arbiter's key {path}" if path.exists() else
                  f"closed rounds are not signed here: no key file {path} (--key FILE)", highlight=False, soft_wrap=True)
    from olympiad.web.app import create_app

    web = create_app(backend, tokens, chief_key=signer)
    run_server(web, host, port, listener)


def serve_new(name: str, profile: str, db: str | None, host: str, port: int, chief_token: str | None,
              listener: socket.socket, signer: Any) -> None:
    """``serve --new NAME --profile P``: an empty event store (``db``; refused if it already holds a
    tournament), the chief arbiter's token (``TokenStore`` under ``auth.NEW_EVENT`` until the
    tournament is created on the arbiter page, then the tournament's), the arbiter page's address.
    ``signer`` (``producers.signing.ChiefKey``): the chief arbiter's key recorded at the creation,
    which signs every round closed on the page; a given key file is made or read now."""
    from olympiad.web.app import create_app
    from olympiad.web.auth import NEW_EVENT, TokenStore
    from schemas.profile import get_profile

    try:
        get_profile(profile)  # the page offers the built-in profiles: refuse a typo before anything starts
    except KeyError as exc:
        refuse(ValueError(f"--profile: {exc.args[0]}"))

    db = db or os.environ.get("OLYMPIAD_DB") or DEFAULT_DB  # kept on disk, where `olympiad lineup ...` finds it
    backend, engine = embedded_backend(db, None, None)
    if backend.tournament_id is not None:
        refuse(ValueError(f"--new: the store {db} already holds the tournament {backend.tournament_id!r}; serve it "
                          f"with `olympiad serve --db {db}`, or give an empty --db"))
    if signer.path is not None:
        from producers.signing import load_or_create_key

        try:
            load_or_create_key(signer.path)  # a key file that cannot be read ends the command now, not at creation
        except (OSError, ValueError) as exc:
            refuse(ValueError(f"--key {signer.path}: {exc}"))
    token = TokenStore(engine).set_chief_token(NEW_EVENT, chief_token)
    base = f"http://{host}:{port}"
    out = console()
    out.print(f"new event [bold]{name}[/] (profile {profile}): create it on the arbiter page", highlight=False)
    out.print(f"event store  {db} (serve it again later: olympiad serve --db {db})", highlight=False, soft_wrap=True)
    key_where = signer.path or (os.environ.get("OLYMPIAD_KEY") or "<tournament id>.chief.key here")
    out.print(f"chief arbiter's key {key_where} (made if missing when the tournament is created; signs every closed "
              "round: keep it private and keep it)", highlight=False, soft_wrap=True)
    out.print(f"chief arbiter token: {token}" if chief_token is None else "chief arbiter token: as given",
              highlight=False, soft_wrap=True)
    out.print(addresses(base, token if chief_token is None else None), highlight=False, soft_wrap=True)
    web = create_app(backend, TokenStore(engine), chief_key=signer, new_event={"name": name, "profile": profile})
    run_server(web, host, port, listener)


def addresses(base: str, chief_token: str | None) -> str:
    """The pages' addresses under ``base``, the arbiter page's with the chief token in its fragment
    when this command made it (a given token is not echoed: it stays in its file)."""
    return (f"arbiter page {base}/arbiter#token={chief_token or '<chief arbiter token>'}\nscoreboard   {base}/\n"
            f"entry page   {base}/entry#token=<terminal token>\nAPI docs     {base}/docs")


GC_THRESHOLDS = (20_000, 20, 100)  # vs (700, 10, 10): young collections 30x rarer, full ones 300x


def run_server(web: Any, host: str, port: int, listener: socket.socket) -> None:
    """Serve ``web`` with uvicorn on ``listener`` until Ctrl-C / SIGTERM (open streams are ended first).
    uvicorn picks uvloop and httptools (dependencies) where they install: the lighter loop and
    parser for thousands of stream subscribers (``docs/web.md``, "Spectators at scale")."""
    import uvicorn

    from olympiad.web.broadcast import raise_open_files_limit

    raise_open_files_limit()  # one socket per stream subscriber

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:  # Ctrl-C / SIGTERM: end the streams, then stop
            web.state.close_streams()
            super().handle_exit(sig, frame)

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            # The tournament loaded and the app built live as long as the server: the cyclic garbage
            # collector need not walk them again (gc.freeze), and collects less often: with 5,000
            # stream subscribers its full collections, set off by the standings computations, took
            # 0.1-1.8 s each; with GC_THRESHOLDS the server's user CPU per update fell from 118 to
            # 64 ms (docs/web.md, "Spectators at scale").
            gc.collect()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)

    Server(uvicorn.Config(web, host=host, port=port, log_level=os.environ.get("OLYMPIAD_LOG_LEVEL", "warning"),
                          timeout_graceful_shutdown=5)).run(sockets=[listener])


def chief_token_from(path: Path | None) -> str | None:
    """The chief token of ``path`` (its text, trimmed), else of ``$OLYMPIAD_CHIEF_TOKEN``, else None
    (a random one will be made). A token weaker than ``olympiad.web.auth.check_chief_token``
    allows, or a file that cannot be read, is refused with exit status 2."""
    from olympiad.web.auth import check_chief_token

    try:
        token = path.read_text(encoding="utf-8").strip() if path is not None else os.environ.get("OLYMPIAD_CHIEF_TOKEN")
        if token is not None:
            check_chief_token(token)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        refuse(ValueError(f"chief token{f' file {path}' if path else ''}: {exc}"))
    return token


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` for the server to accept on; a port in use (or an
    address this machine does not have) is refused with exit status 2."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: TIME_WAIT is no obstacle
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        refuse(ValueError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; "
                          "is another server running there? Pick another port with --port"))
    sock.set_inheritable(True)
    return sock


def _engine_or_refuse(make: Any, db: str | None) -> Any:
    """``make()`` (an engine or a backend on ``db``); a URL whose driver is missing or whose
    database does not answer is refused with exit status 2."""
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        return make()
    except (ModuleNotFoundError, ArgumentError, SQLAlchemyError) as exc:
        from projections.store import database_url

        refuse(ValueError(f"--db {database_url(db)}: {exc.__class__.__name__}: {str(exc).splitlines()[0]} "
                          "(the installed drivers: SQLite, and PostgreSQL through psycopg2: postgresql://user@host:port/db)"))


def embedded_backend(db: str | None, events: list[Any] | None, source: str | None):
    """The embedded backend on the event store at ``db``, ``events`` imported first (one
    ``ImportFacts`` command by the importer, decided on the store: facts already stored are
    already recorded, the others judged by the event rules); and its engine."""
    from processors.tournament import RuleViolation
    from producers.doors import EmbeddedDoor
    from producers.sources import IMPORTER, Source, import_command
    from projections.store import EventStore
    from olympiad.web.embedded import EmbeddedBackend, store_engine

    engine = _engine_or_refuse(lambda: store_engine(db), db)
    store = _engine_or_refuse(lambda: EventStore(engine=engine), db)
    if events:
        command = import_command(Source(source or "events", events, True), IMPORTER)
        try:
            decision = _engine_or_refuse(lambda: EmbeddedDoor(store).decide(command), db)
        except RuleViolation as exc:
            refuse(exc)
        say(f"loaded {len(decision.events)} events from {source} ({len(decision.recorded)} already stored)")
    return EmbeddedBackend(store), engine


def kafka_backend(bootstrap: str, topic_prefix: str | None, db: str | None, events: list[Any] | None,
                  tournament: str | None):
    """The Kafka backend (``db``: the projection worker's database); ``events`` are first played
    into the pipeline round by round with ``producers.publish.publish`` (events already accepted
    are duplicates, so a restart publishes nothing new). Raises ``TimeoutError`` if the pipeline
    does not take them."""
    from producers.publish import publish
    from olympiad.web.kafka_backend import KafkaBackend

    if events is not None:
        with console().status(f"publishing {len(events)} events through the pipeline"):
            publish(events, bootstrap=bootstrap, topic_prefix=topic_prefix).close()
        tournament = tournament or events[0].tournament_id
    backend = _engine_or_refuse(lambda: KafkaBackend(bootstrap, topic_prefix, db, tournament), db)
    return backend, backend.engine
