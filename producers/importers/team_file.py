"""A team file as the arbiter hands it over: CSV (``team_csv``) or TRF-2026 team records (``trf``).

One reader for every door (``olympiad team import``, the arbiter page's import), so that a file
is read the same way wherever it comes in.
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from producers.importers import team_csv, trf
from producers.importers.text_files import decode_text
from schemas.refusals import exception_text


def read_team_file(data: bytes, name: str = "") -> list[dict[str, Any]]:
    """The teams of ``data`` as the ``teams`` of an ``ImportTeams`` command (players as dicts).

    A file named ``*.trf``, or whose text starts with a TRF record (``012``, ``001``), is read
    as TRF-2026 (``trf.read_teams``: 001 with 310/013); anything else as CSV (``team_csv``).
    A CSV is decoded by ``text_files.decode_text`` (UTF-8 with or without BOM, UTF-16 with BOM,
    cp1252, Latin-1). Raises ``ValueError`` (``trf.TrfError`` for TRF, naming the line).
    """
    text = trf.read_text(data)
    if name.lower().endswith(".trf") or text.startswith(("012", "001")):
        try:
            return [{**t, "players": [p.model_dump() for p in t["players"]]} for t in trf.read_teams(text)]
        except ValidationError as exc:  # a player the TRF reader built does not fit: the product's words
            raise ValueError(exception_text(exc)) from None
    return team_csv.read_teams(decode_text(data))
