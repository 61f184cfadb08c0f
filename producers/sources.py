"""Where events come from: a shipped event log by name, a data folder (importer), or a log file.

``load_source("samarkand-2026-open")`` reads the event log shipped with the package, so replays
work on a machine without ``../shared``. A folder is recognised by its files and read by its
importer, a ``.trf`` file by the TRF importer; any other path is read as an event log (JSON Lines, optionally gzip).

Decided or imported (issue 25: one way in). A log the product wrote is *decided*: a shipped log,
an event store's rows, a log file whose hash chain file (``projections.eventlog.chain_path``)
holds every line; a loader replays it with ``evolve``, judging nothing again. Anything else a
user hands in (a data folder, a TRF file, a log file without a chain: foreign) is an *import*:
its facts enter a log only as an ``ImportFacts`` command decided by ``processors.deciders.handle``,
so they meet the event rules once. ``load_log`` gives either as a decided log; ``load_source``
gives what the source holds, as read.

The facts of a data set that its events do not carry for every tool (the arbiter-made tables the
pairing comparison leaves out) are in the data folder's ``event.json``; a log converted from a
folder keeps a copy beside it (``<name>.event.json``, written by ``olympiad export``), found by
``facts_path``. A shared data folder is read-only: for one without ``event.json`` the project
keeps the facts as ``olympiad/data/<folder name>.event.json`` (Chennai 2022's PGN gaps).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from processors.tournament import TournamentState
from producers.shipped import SHIPPED_DIR, facts_path, shipped_logs, sidecar
from projections.eventlog import chain_path, read_chained_log, read_log
from schemas import limits
from schemas.command_base import Actor
from schemas.refusals import exception_text

if TYPE_CHECKING:
    from schemas.commands import ImportFacts

__all__ = ["SHIPPED_DIR", "facts_path", "load_source", "shipped_logs", "sidecar"]  # where callers found them before producers.shipped

IMPORTER = Actor(role="importer", id="import")
"""Who imports a data set or a foreign file (the id each imported fact carries in the audit trail
unless the source named who did it)."""


@dataclass(frozen=True)
class Source:
    """What a source holds: ``events`` as read (the importer's translation for a data folder or a
    TRF file), ``decided`` True for a log the product wrote (replayed, never judged again), False
    for an import (``import_command``); ``name`` says where they came from."""

    name: str
    events: list[Any]
    decided: bool


def read_source(source: str) -> Source:
    """The events of ``source``: a shipped log name, a data folder, an event store's database URL
    (``sqlite:///olympiad.sqlite``, ``postgresql://...``; an SQLite store's file path is read as
    its URL) or an event log path (with a chain file beside it: decided, its chain checked line by
    line; without: foreign, an import).

    Raises ``FileNotFoundError`` naming what was tried, ``EventSchemaError`` for a bad log or a log
    whose chain does not hold (file and line named; rule ``the log's hash chain``) and ``ValueError``
    for data an importer cannot translate.
    """
    shipped = shipped_logs()
    if source in shipped:  # shipped with the code, written by it: its events are not validated again
        return Source(source, read_log(shipped[source], stored=True), True)
    if "://" in source:  # an event store's database (SQLAlchemy URL): its log
        from projections.store import EventStore

        return Source(source, EventStore(source).events(), True)
    path = Path(source)
    if _is_sqlite_file(path):  # the store's file given as a path: the store, not text to decode
        return read_source(f"sqlite:///{path.resolve()}")
    if path.is_dir() or (path.is_file() and path.suffix.lower() == ".trf"):
        try:
            return Source(source, _imported(path), False)
        except ValidationError as exc:  # an event the importer built from the data does not fit its schema
            raise ValueError(imported_refusal(path, exc)) from None
    if path.is_file():
        if chain_path(path).is_file():
            return Source(source, read_chained_log(path), True)
        return Source(source, read_log(path), False)
    raise FileNotFoundError(f"{source!r} is neither a shipped event log ({', '.join(shipped) or 'none'}), a data folder nor a file")


SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file (sqlite.org/fileformat.html, 1.3)."""


def _is_sqlite_file(path: Path) -> bool:
    """True if ``path`` is a file that starts as an SQLite database does."""
    if not path.is_file():
        return False
    with path.open("rb") as f:
        return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC


def load_source(source: str) -> list[Any]:
    """The events of ``source`` as read (``read_source``): a decided log's events, or the facts an
    importer translated, not yet judged (``load_log`` judges them)."""
    return read_source(source).events


def load_log(source: str) -> list[Any]:
    """``source`` as a decided log, for a loader that replays with ``evolve``: a decided log's
    events as they are; an import's facts as ``handle(ImportFacts)`` yields them on an empty log
    (each judged by the event rules once, the importing actor stamped on facts without one).

    Raises what ``read_source`` raises, and ``RuleViolation`` (field, rule, the refused fact's
    ``event_id``) for a fact an event rule refuses; ``ValueError`` for a source with no event.
    """
    return as_log(read_source(source))


def as_log(source: Source) -> list[Any]:
    """``source``'s events as a decided log (``load_log``); raises as ``load_log``."""
    if source.decided:
        return source.events
    from processors.deciders import handle  # here: a decided log (a replay) needs no decider, nor chess

    return list(handle(TournamentState(), import_command(source)).events)


def import_command(source: Source, actor: Actor = IMPORTER) -> ImportFacts:
    """The ``ImportFacts`` command that brings ``source``'s events into a log, by ``actor``.
    Raises ``ValueError`` for a source with no event."""
    if not source.events:
        raise ValueError(f"{source.name}: no event to import")
    from schemas.commands import ImportFacts  # here: replaying a decided log builds no command model

    name = Path(source.name).name or source.name
    return ImportFacts(tournament_id=source.events[0].tournament_id, actor=actor, source=name[:limits.MAX_REASON],
                       facts=source.events)


def _imported(path: Path) -> list[Any]:
    """The events of the data folder or ``.trf`` file ``path``, read by its importer."""
    if path.is_dir():
        from producers.importers import samarkand  # here: a shipped log needs no importer

        if samarkand.is_samarkand_folder(path):
            return samarkand.load_events(path)
        from producers.importers import chennai

        if chennai.is_chennai_folder(path):
            return chennai.load_events(path)
        raise FileNotFoundError(f"{path}: not a known data folder (expected raw/rosters.json or matches.json)")
    from producers.importers.trf import load_file

    return load_file(path)


def imported_refusal(path: Path, exc: Any) -> str:
    """The product's line for a ``pydantic.ValidationError`` an importer met building an event from
    the data at ``path``: ``<path>: <model>: <field>: <message> [rule: ...]`` (``schemas.refusals``)."""
    return f"{path}: {exception_text(exc)}"
