"""The command line's door to the application layer: build a command, submit it, print the verdict.

``submit(command, db, kafka)`` sends a ``schemas.commands`` model through the embedded store
(``--db``, default ``$OLYMPIAD_DB`` else ``sqlite:///olympiad.sqlite`` in the current folder)
or the live pipeline (``--kafka BOOTSTRAP``), prints what was recorded or why it was refused,
and exits with status 2 on a refusal, 1 when no verdict came in time. Doors are kept per
process, so a sequence of commands run in one process (tests, ``olympiad run``) opens each once.

``issued_at`` is ``olympiad.clock.now``: now (UTC), or ``$OLYMPIAD_CLOCK`` (an ISO 8601 date-time)
for a reproducible run: the events carry it.
"""
from __future__ import annotations

import os
from typing import Any, Optional

import functools

import typer

from olympiad.broker_probe import BrokerUnavailable, require_broker
from olympiad.clock import now


@functools.cache
def console() -> Any:
    """The console the verdicts are printed on (made on first use: ``olympiad.cli`` starts light)."""
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


@functools.cache
def err() -> Any:
    """The console of refusals."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def escape(text: str) -> str:
    """``text`` with rich markup escaped."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


DEFAULT_DB = "sqlite:///olympiad.sqlite"
_DOORS: dict[tuple[str, str], Any] = {}

DB = typer.Option(None, "--db", metavar="URL", help="event store (SQLAlchemy URL; default $OLYMPIAD_DB, else "
                  "sqlite:///olympiad.sqlite)")
KAFKA = typer.Option(None, "--kafka", metavar="BOOTSTRAP", help="send to the live pipeline at this Kafka address "
                     "instead of the embedded store")
AS = typer.Option("chief", "--as", metavar="ROLE[:ID]", help="who issues the command: chief, arbiter, terminal[:ID] "
                  "or captain:TEAM")


def actor(who: str, table: int | None = None) -> dict[str, Any]:
    """The ``Actor`` of ``--as ROLE[:ID]`` (a captain's id is its team)."""
    role, _, ident = who.partition(":")
    out: dict[str, Any] = {"role": role, "id": ident or role}
    if role == "captain":
        out["team"] = ident or None
    return out


def door(db: str | None, kafka: str | None) -> Any:
    """The door of this process for ``db`` or ``kafka`` (opened on first use)."""
    if kafka:
        from deploy.topics import prefix

        key = ("kafka", f"{os.environ.get('KAFKA_SASL_USERNAME', '')}:{prefix()}@{kafka}")  # a door per principal
        if key not in _DOORS:
            from producers.doors import KafkaDoor

            try:
                require_broker(kafka)
            except BrokerUnavailable as exc:
                err().print(f"[bold red]refused[/]: {escape(str(exc))}; start one (deploy/kafka.sh start) or give "
                            "--kafka the address of a running broker")
                raise typer.Exit(code=2) from None
            _DOORS[key] = KafkaDoor(kafka, wait=float(os.environ.get("OLYMPIAD_WAIT", "10")))
        return _DOORS[key]
    url = db or os.environ.get("OLYMPIAD_DB") or DEFAULT_DB
    key = ("db", url)
    if key not in _DOORS:
        from producers.doors import EmbeddedDoor
        from projections.store import EventStore

        _DOORS[key] = EmbeddedDoor(EventStore(url))
    d = _DOORS[key]
    d.store.refresh()
    return d


def build(kind: str, fields: dict[str, Any]) -> Any:
    """The command ``kind`` with ``fields`` (plus ``issued_at``), or exit 2 naming the field and the rule."""
    from schemas.commands import parse_command
    from schemas.events import EventSchemaError

    try:
        return parse_command({"command": kind, "issued_at": now(), **fields})
    except EventSchemaError as exc:
        err().print(f"[bold red]refused[/]: {escape(str(exc))}")
        raise typer.Exit(code=2) from None


def decide(kind: str, fields: dict[str, Any], db: Optional[str], kafka: Optional[str]) -> Any:
    """Build and submit one command; the ``Outcome``, accepted or refused, printed by nobody
    (``report`` prints it). Exits 1 when no verdict came in time."""
    command = build(kind, fields)
    try:
        return door(db, kafka).submit(command)
    except TimeoutError as exc:
        err().print(f"[bold red]no verdict[/]: {escape(str(exc))}")
        raise typer.Exit(code=1) from None


def report(outcome: Any) -> Any:
    """Print ``outcome``: what was recorded, or why it was refused (then exit 2). Returns it when accepted."""
    if not outcome.accepted:
        err().print(f"[bold red]refused[/]: {escape(outcome.text().removeprefix('refused: '))}")
        raise typer.Exit(code=2)
    console().print(escape(outcome.text()))
    return outcome


def submit(kind: str, fields: dict[str, Any], db: Optional[str], kafka: Optional[str]) -> Any:
    """Build and submit one command; print the outcome. Returns the ``Outcome`` when accepted."""
    return report(decide(kind, fields, db, kafka))


def embedded_state(db: Optional[str], kafka: Optional[str]) -> Any:
    """The tournament state of the embedded store (None on the live pipeline: the read models
    are the worker's)."""
    return None if kafka else door(db, None).store.state
