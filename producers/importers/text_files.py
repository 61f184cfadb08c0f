"""Reading a source's text files: one reader for every importer, whatever wrote the file.

Real rosters and results come from spreadsheets, federation databases and scrapers on every
system: UTF-8 with or without a byte order mark, Windows' cp1252 or ISO Latin-1, CR (old Mac),
LF or CRLF line ends, spaces after the last field. ``decode_text`` detects the encoding:

1. a UTF-16 byte order mark (a spreadsheet's "Unicode text"): UTF-16;
2. UTF-8 (a BOM dropped): a file that decodes as UTF-8 is UTF-8, since text in a single-byte
   encoding with a letter beyond ASCII almost never forms valid UTF-8 sequences;
3. else cp1252, which is Latin-1 with printable characters (’ “ ” – €) where Latin-1 has
   control characters; a byte cp1252 leaves undefined (0x81 0x8D 0x8F 0x90 0x9D) means Latin-1.

and ``read_text`` gives the text with every line ending in LF and without trailing spaces or
tabs (which JSON ignores and which are never part of a CSV value or a fixed-column record).
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

_LINE_END = re.compile(r"[ \t]*(\r\n|\r|\n)")
_TEXT_END = re.compile(r"[ \t]+\Z")


def decode_text(data: bytes) -> str:
    """The text of a file's bytes ``data``, its encoding detected (module docstring). Never raises:
    every byte sequence is Latin-1 text."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def clean_lines(text: str) -> str:
    """``text`` with CR and CRLF line ends made LF and trailing spaces and tabs of each line removed."""
    return _TEXT_END.sub("", _LINE_END.sub("\n", text))


def read_text(path: Path) -> str:
    """The text of the file at ``path``: ``decode_text`` then ``clean_lines``.
    Raises ``FileNotFoundError`` (``OSError``) for a file that cannot be read."""
    return clean_lines(decode_text(Path(path).read_bytes()))


def read_json(path: Path) -> Any:
    """The JSON value of the file at ``path`` (read by ``read_text``).
    Raises ``ValueError`` naming the file, line and column of a syntax error."""
    try:
        return json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def csv_rows(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """(column names, rows) of the CSV ``text`` with a header row: names and values trimmed, a
    missing value read as "" (a short row), a BOM before the header dropped."""
    reader = csv.reader(io.StringIO(clean_lines(text.lstrip("\ufeff")), newline=""))
    header = [name.strip() for name in next(reader, [])]
    rows = [{name: (row[i].strip() if i < len(row) else "") for i, name in enumerate(header)}
            for row in reader if any(cell.strip() for cell in row)]
    return header, rows


def read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of the CSV file at ``path`` (read by ``read_text``), as ``csv_rows``."""
    return csv_rows(read_text(path))[1]
