"""Where the project's shipped data lives (``olympiad/data``: event logs, ``event.json`` copies,
the federation table) and where a source's ``event.json`` is found.

Its own module, below ``producers.sources`` and the importers, because both need it: held by
``sources``, which calls the importers, it made the importers import their caller.
"""
from __future__ import annotations

from pathlib import Path

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
