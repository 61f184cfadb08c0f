"""Event log files: one canonical JSON event per line (JSON Lines), gzip-compressed if ``.gz``.

This is the form auditors receive and the form the project ships for Samarkand 2026 Open.
Reading stops at the first bad line with ``EventSchemaError`` naming the line number, the
field and the rule: nothing of a bad log is applied. A file that cannot be read as a log (a
``.gz`` that is not gzip or is cut short, text that is not UTF-8) is refused the same way,
with the line where reading stopped: one message, one line number, never a traceback.
"""
from __future__ import annotations

import gzip
import re
import zlib
from pathlib import Path
from typing import Any, Iterable

from schemas.canonical import canonical_json
from schemas.events import EventSchemaError, parse_event


_JSON_POSITION = re.compile(r"line \d+ column (\d+) \(char \d+\)")  # json's position within the one line


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

    Raises ``EventSchemaError`` whose message starts with ``line N:`` for the first bad line
    (field ``(line)`` with rule ``JSON syntax``, ``UTF-8 text`` or ``gzip file`` for a line or a
    file that cannot be read; the field and the event's rule for an event that does not fit).
    """
    events = []
    n = 0
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as fh:
            for n, raw in enumerate(fh, start=1):
                if not raw.strip():
                    continue
                try:
                    line = raw.rstrip(b"\r\n").decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise EventSchemaError(f"line {n}: byte {exc.start + 1} is not UTF-8 ({exc.reason})",
                                           field="(line)", rule="UTF-8 text") from None
                try:
                    events.append(parse_event(line))
                except EventSchemaError as exc:
                    message = _JSON_POSITION.sub(r"column \1", exc.message)
                    raise EventSchemaError(f"line {n}: {message}", field=exc.field, rule=exc.rule) from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        what = "ends before its end-of-stream marker (truncated)" if isinstance(exc, EOFError) else f"is not a valid gzip file ({exc})"
        raise EventSchemaError(f"line {n + 1}: {path.name} {what}; {n} lines read", field="(file)", rule="gzip file") from None
    return events
