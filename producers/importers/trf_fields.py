"""Reading a team TRF's records: the file split into its records by tag (any line end; a control
character refused at its column), fixed-column numbers and points, a schema model built from a
record, and ``TrfError``: the refusal naming the line, the record, the columns and the rule in the
product's words (never a library's text). Shared by ``producers.importers.trf`` (teams, players,
rounds) and ``producers.importers.trf_profile`` (the rule profile of the header records).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from projections.trf import records as rec
from projections.trf.export import COMMENT
from schemas import limits
from schemas.events import shown
from schemas.points import to_points
from schemas.titles import TITLE_RULE

# Control characters (Unicode Cc): in a fixed-column record they shift or hide the fields after them.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
# Records a file holds at most once (TRF-2026; gacrux refuses a second 320 or 352).
SINGLE = ("012", "022", "032", "042", "052", "102", "122", "142", "152", "162", "192", "202", "212", "320", "352", "362")
# The product's rule of a value a field cannot hold, by field name (a pydantic location's last part).
FIELD_RULES = {
    "name": f"names: 1 to {limits.MAX_NAME} characters, {limits.TEXT_RULE}",
    "title": TITLE_RULE,
    "rating": "ratings 0 to 3500", "fide_id": "FIDE ids: 1 to 10 digits",
    "federation": "federations: capital letters and digits, at most 10", "team_id": limits.TEAM_ID_RULE,
    "tournament_id": limits.TOURNAMENT_ID_RULE, "table": "table numbers 1 to 999", "round": "rounds 1 to 99",
    "board_order": "R-D1 at most 9 nominated players", "players": "R-D1 at most 9 nominated players",
    "venue": f"notes: at most {limits.MAX_REASON} characters", "chief_arbiter": f"notes: at most {limits.MAX_REASON} characters",
}


class TrfError(ValueError):
    """A TRF file that cannot be read: ``line`` (1-based, 0 for the whole file), ``record`` and the rule."""

    def __init__(self, message: str, *, line: int = 0, record: str = "", rule: str = "TRF-2026"):
        where = f"line {line}: record {record}: " if line else (f"record {record}: " if record else "")
        super().__init__(f"{where}{message}" + (f" [rule: {rule}]" if rule else ""))  # rule "": the message names it
        self.line, self.record, self.rule = line, record, rule


@dataclass
class TrfRecords:
    """The records of one file, by tag, with their line numbers; the product's comments with theirs."""

    records: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    comments: list[tuple[int, str]] = field(default_factory=list)


def split_records(text: str) -> TrfRecords:
    """Records by tag, on any line end (CR, LF, CRLF), trailing blanks dropped. A control character
    (an escape, a tab) in a record shifts or hides its columns: refused with its column."""
    out = TrfRecords()
    for n, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        line = line.rstrip(" ")
        if line.startswith("###") and not line.startswith(COMMENT + " "):
            continue
        bad = CONTROL.search(line)
        if bad is not None:
            raise TrfError(f"column {bad.start() + 1}: U+{ord(bad.group()):04X} is a control character", line=n,
                           record=line[:3] if not line.startswith("###") else "###", rule=limits.TEXT_RULE)
        if line.startswith(COMMENT + " "):
            out.comments.append((n, line[len(COMMENT) + 1:]))
        elif len(line.strip()) < 3:
            continue
        else:
            out.records.setdefault(line[:3], []).append((n, line))
    for tag in SINGLE:
        if len(out.records.get(tag, [])) > 1:
            (first, _), (n, _) = out.records[tag][:2]
            raise TrfError(f"a second {tag} record (the first is on line {first})", line=n, record=tag,
                           rule=f"TRF-2026 one {tag} record per file")
    return out


def int_field(line: str, cols: tuple[int, int], n: int, what: str) -> int:
    """The whole number in 1-based columns ``cols`` of record ``line`` (line ``n``), 0 when blank;
    raises ``TrfError`` naming the columns and ``what`` they hold for anything but digits."""
    text = rec.field(line, cols)
    if not text:
        return 0
    if not text.isdigit():
        raise TrfError(f"columns {cols[0]}-{cols[1]} ({what}) hold {text!r}, not a number", line=n, record=line[:3])
    return int(text)


def points_field(text: str, n: int, record: str, what: str) -> Decimal:
    """The point value ``text`` (``"11.5"``; blank is 0) of ``record`` on line ``n``; raises
    ``TrfError`` for anything but a whole multiple of 1/2."""
    try:
        return to_points(text.strip() or "0")
    except ValueError:
        raise TrfError(f"{what} {text.strip()!r} is not a point value", line=n, record=record, rule="points are whole multiples of 1/2") from None


def build(model: Any, n: int, record: str, columns: dict[str, tuple[int, int]], **values: Any) -> Any:
    """``model(**values)``; a value the schema refuses becomes a ``TrfError`` naming line ``n``, the
    record, the columns the field came from (``columns``) and the product's rule for that field."""
    try:
        return model(**values)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(p) for p in err["loc"]]
        name = next((p for p in reversed(loc) if not p.isdigit()), model.__name__)
        cols = columns.get(name)
        where = f"columns {cols[0]}-{cols[1]} ({name.replace('_', ' ')})" if cols else name.replace("_", " ")
        msg = err.get("msg", "")
        rule = msg.split("[rule: ", 1)[1].rstrip("]") if "[rule: " in msg else FIELD_RULES.get(name, f"{model.__name__} {name}")
        raise TrfError(f"{where}: {shown(err.get('input'))} is not accepted", line=n, record=record, rule=rule) from None
