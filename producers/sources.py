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

from projections.eventlog import read_log

SHIPPED_DIR = Path(__file__).resolve().parent.parent / "olympiad" / "data"


def shipped_logs() -> dict[str, Path]:
    """Name -> path of every event log shipped in ``olympiad/data`` (``<name>.events.jsonl.gz``)."""
    return {p.name.split(".")[0]: p for p in sorted(SHIPPED_DIR.glob("*.events.jsonl.gz"))}


def facts_path(source: str) -> Path | None:
    """The ``event.json`` of ``source``: a data folder's own (else the project's copy for a folder
    of that name, ``olympiad/data/<folder name>.event.json``), or the copy beside a shipped or other
    event log (``<name>.event.json``); None if it has none."""
    shipped = shipped_logs()
    path = Path(source)
    if source in shipped:
        candidate = SHIPPED_DIR / f"{source}.event.json"
    elif path.is_dir():
        candidate = path / "event.json"
        if not candidate.is_file():
            candidate = SHIPPED_DIR / f"{path.resolve().name}.event.json"
    else:
        candidate = sidecar(path)
    return candidate if candidate.is_file() else None


def sidecar(log: Path) -> Path:
    """Where the copy of the ``event.json`` of the event log ``log`` lives: ``<name>.event.json``
    beside it, ``<name>`` being the file name up to its first dot."""
    return log.with_name(log.name.split(".")[0] + ".event.json")


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
