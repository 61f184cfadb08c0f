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
from schemas.chain import chain_next, chain_start
from schemas.events import EventSchemaError, parse_event, parse_stored_event


_JSON_POSITION = re.compile(r"line \d+ column (\d+) \(char \d+\)")  # json's position within the one line


def write_log(path: Path, events: Iterable[Any], with_chain: bool = False) -> int:
    """Write ``events`` to ``path`` (canonical JSON, one per line); returns the number written.
    ``with_chain``: also write their hash chain beside it (``chain_path``): one line per event, its
    id, the hash before it and the hash through it (``schemas.chain``, per tournament, through the
    text of its line), tab-separated. With it the audit of the log names a changed, a deleted or a
    moved event at the event, as on ``tournament-log``'s record headers.

    Gzip output carries no file name or time stamp, so the same events give the same bytes.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    events = list(events)
    bodies = [canonical_json(e) for e in events]
    data = "".join(b + "\n" for b in bodies).encode("utf-8")
    if path.suffix == ".gz":
        with path.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(data)
    else:
        path.write_bytes(data)
    if with_chain:
        _write_chain(path, events, bodies)
    return len(bodies)


def chain_path(path: Path) -> Path:
    """The chain file beside the event log ``path``: ``<its name>.chain``."""
    return path.with_name(path.name + ".chain")


def _write_chain(path: Path, events: list[Any], bodies: list[str]) -> None:
    heads: dict[str, str] = {}
    lines = []
    for event, body in zip(events, bodies):
        prev = heads.get(event.tournament_id) or chain_start(event.tournament_id)
        heads[event.tournament_id] = head = chain_next(prev, body)
        lines.append(f"{event.event_id}\t{prev}\t{head}\n")
    chain_path(path).write_text("".join(lines), encoding="utf-8")


def read_chain(path: Path) -> dict[str, tuple[str, str]]:
    """The chain file beside the log ``path`` (``write_log(..., with_chain=True)``): event id -> (the hash before it,
    the hash through it), the first line of each id; empty when there is no chain file. Raises
    ``ValueError`` naming the line for a line that is not three tab-separated fields."""
    chain = chain_path(path)
    if not chain.exists():
        return {}
    out: dict[str, tuple[str, str]] = {}
    for n, line in enumerate(chain.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split("\t")
        if len(fields) != 3:
            raise ValueError(f"{chain} line {n}: not 'event id, hash before, hash through' (tab-separated)")
        out.setdefault(fields[0], (fields[1], fields[2]))
    return out


def chain_ids(path: Path) -> list[str] | None:
    """The event ids the chain file beside the log ``path`` lists, in order; None when there is
    no chain file."""
    chain = chain_path(path)
    if not chain.exists():
        return None
    return [line.split("\t", 1)[0] for line in chain.read_text(encoding="utf-8").splitlines() if line]


CHAIN_RULE = "the log's hash chain"
"""The rule a log file whose chain file does not hold its lines is refused by."""


def read_chained_log(path: Path) -> list[Any]:
    """The events of the log ``path`` (``read_log``) after checking them against the chain file
    beside it (``chain_path``, written with the log by ``write_log(..., with_chain=True)``): line by
    line, the event's id, the hash before it and the hash through its text (``schemas.chain``, per
    tournament) must be the chain file's line. Such a log was written by the product from a
    decided log: a loader replays it (``TournamentState.evolve``), it is not judged again.

    Raises ``EventSchemaError`` (field ``(line)``, rule ``the log's hash chain``) naming the file
    and the first line that the chain does not hold (changed, deleted, moved or added), and what
    ``read_log`` and ``read_chain`` raise.
    """
    events = read_log(path)
    chain = chain_path(path)
    links = [line.split("\t") for line in chain.read_text(encoding="utf-8").splitlines()]
    heads: dict[str, str] = {}
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        lines = [(n, raw.rstrip(b"\r\n").decode("utf-8")) for n, raw in enumerate(fh, start=1) if raw.strip()]
    for k, ((n, body), event) in enumerate(zip(lines, events)):
        prev = heads.get(event.tournament_id) or chain_start(event.tournament_id)
        heads[event.tournament_id] = head = chain_next(prev, body)
        if k >= len(links) or links[k] != [event.event_id, prev, head]:
            raise EventSchemaError(f"{path} line {n}: event {event.event_id} is not the one {chain.name} line {k + 1} "
                                   "chains there (changed, moved or added after the log was written)",
                                   field="(line)", rule=CHAIN_RULE)
    if len(links) > len(events):
        raise EventSchemaError(f"{path} line {lines[-1][0] + 1 if lines else 1}: the log ends before {chain.name} does "
                               f"({len(links)} events chained, {len(events)} in the log: deleted or cut short)",
                               field="(line)", rule=CHAIN_RULE)
    return events


def read_log(path: Path, stored: bool = False) -> list[Any]:
    """Parse every event of the log at ``path``, in order.

    ``stored``: the log is one the product stored, whose events met their schemas when written
    (a shipped log, ``producers.sources.read_source``): each line is read by
    ``schemas.events.parse_stored_event``, the same events without validating their fields again;
    a line it does not recognise is refused as in any log. Default: every field validated
    (``parse_event``), as for any file a user hands in.

    Raises ``EventSchemaError`` whose message starts with ``line N:`` for the first bad line
    (field ``(line)`` with rule ``JSON syntax``, ``UTF-8 text`` or ``gzip file`` for a line or a
    file that cannot be read; the field and the event's rule for an event that does not fit).
    """
    parse = parse_stored_event if stored else parse_event
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
                    events.append(parse(line))
                except EventSchemaError as exc:
                    message = _JSON_POSITION.sub(r"column \1", exc.message)
                    raise EventSchemaError(f"line {n}: {message}", field=exc.field, rule=exc.rule) from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as exc:
        what = "ends before its end-of-stream marker (truncated)" if isinstance(exc, EOFError) else f"is not a valid gzip file ({exc})"
        raise EventSchemaError(f"line {n + 1}: {path.name} {what}; {n} lines read", field="(file)", rule="gzip file") from None
    return events
