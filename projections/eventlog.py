"""Event log files: one canonical JSON event per line (JSON Lines), gzip-compressed if ``.gz``.

This is the form auditors receive and the form the project ships for Samarkand 2026 Open.
Reading stops at the first bad line with ``EventSchemaError`` naming the line number, the
field and the rule: nothing of a bad log is applied.
"""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any, Iterable

from schemas.canonical import canonical_json
from schemas.events import EventSchemaError, parse_event


def _open(path: Path, mode: str):
    if path.suffix == ".gz":
        return gzip.open(path, mode + "t", encoding="utf-8", newline="\n")
    return path.open(mode, encoding="utf-8", newline="\n")


def write_log(path: Path, events: Iterable[Any]) -> int:
    """Write ``events`` to ``path`` (canonical JSON, one per line); returns the number written.

    Gzip output carries no file name or time stamp, so the same events give the same bytes.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [canonical_json(e) + "\n" for e in events]
    data = "".join(lines).encode("utf-8")
    if path.suffix == ".gz":
        with path.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(data)
    else:
        path.write_bytes(data)
    return len(lines)


def read_log(path: Path) -> list[Any]:
    """Parse every event of the log at ``path``, in order.

    Raises ``EventSchemaError`` whose message starts with ``line N:`` for the first bad line.
    """
    events = []
    with _open(path, "r") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                events.append(parse_event(line))
            except EventSchemaError as exc:
                raise EventSchemaError(f"line {n}: {exc.message}", field=exc.field, rule=exc.rule) from None
    return events
