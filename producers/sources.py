"""Where events come from: a shipped event log by name, a data folder (importer), or a log file.

``load_source("samarkand-2026-open")`` reads the event log shipped with the package, so replays
work on a machine without ``../shared``. A folder is recognised by its files and read by its
importer, a ``.trf`` file by the TRF importer; any other path is read as an event log (JSON Lines, optionally gzip).

The facts of a data set that its events do not carry for every tool (the arbiter-made tables the
pairing comparison leaves out) are in the data folder's ``event.json``; a log converted from a
folder keeps a copy beside it (``<name>.event.json``, written by ``olympiad export``), found by
``facts_path``. A shared data folder is read-only: for one without ``event.json`` the project
keeps the facts as ``olympiad/data/<folder name>.event.json`` (Chennai 2022's PGN gaps).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from producers.shipped import SHIPPED_DIR, facts_path, shipped_logs, sidecar
from projections.eventlog import read_log

__all__ = ["SHIPPED_DIR", "facts_path", "load_source", "shipped_logs", "sidecar"]  # where callers found them before producers.shipped


def load_source(source: str) -> list[Any]:
    """Events of ``source``: a shipped log name, a data folder, an event store's database URL
    (``sqlite:///olympiad.sqlite``, ``postgresql://...``) or an event log path.

    Raises ``FileNotFoundError`` naming what was tried, and ``EventSchemaError`` for a bad log.
    """
    shipped = shipped_logs()
    if source in shipped:
        return read_log(shipped[source])
    if "://" in source:  # an event store's database (SQLAlchemy URL): its log
        from projections.store import EventStore

        return EventStore(source).events()
    path = Path(source)
    if path.is_dir() or (path.is_file() and path.suffix.lower() == ".trf"):
        from pydantic import ValidationError

        try:
            return _imported(path)
        except ValidationError as exc:  # an event the importer built from the data does not fit its schema
            raise ValueError(imported_refusal(path, exc)) from None
    if path.is_file():
        return read_log(path)
    raise FileNotFoundError(f"{source!r} is neither a shipped event log ({', '.join(shipped) or 'none'}), a data folder nor a file")


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
    from schemas.refusals import exception_text

    return f"{path}: {exception_text(exc)}"
