"""The columns of a standings table, in the one order the CLI, the web page and the API use.

As chess-results prints an Olympiad's team ranking: Rk, SNo, Team, Fed, Games, + = - (won,
drawn, lost matches), MP, then the profile's tie-breaks in its order (R-T1; GP among them where
the profile ranks by it, else last). Cells are read from a standings document row
(``StandingRow.as_dict``; a stream row without ``record`` or ``federation`` leaves those blank).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

FIXED = (("rank", "Rk"), ("pairing_number", "SNo"), ("name", "Team"), ("federation", "Fed"), ("games", "Games"),
         ("won", "+"), ("drawn", "="), ("lost", "-"), ("mp", "MP"))


def standings_columns(tiebreaks: Sequence[str], primary: str = "MP") -> list[dict[str, str]]:
    """``[{"key", "label"}, ...]``: the fixed columns (the primary score first: with ``primary``
    "GP", C.04.6 art. 1.2, GP comes before MP), then each tie-break of ``tiebreaks`` (the profile's
    order), then GP if the profile does not rank by it, then "decided by" (the key that puts a row
    below the one above: ``projections.standings.decided_by``)."""
    fixed = list(FIXED)
    if primary == "GP":
        fixed.insert(len(fixed) - 1, ("gp", "GP"))
    extra = list(tiebreaks) + ([] if "GP" in tiebreaks or primary == "GP" else ["GP"])
    return ([{"key": k, "label": label} for k, label in fixed] + [{"key": t, "label": t} for t in extra]
            + [{"key": "decided_by", "label": "decided by"}])


def cell(row: Mapping[str, Any], key: str) -> str:
    """The text of column ``key`` in a document row: points as the document's decimal strings,
    ``games`` the matches played (won + drawn + lost); a served row's PABs (``byes``, display only:
    ``projections.views.standings.with_byes``) in the column of what they count as, by the MP they
    score under the profile: ``"2 +1 PAB"`` drawn under the Olympiad profiles."""
    record = row.get("record")
    if key in ("won", "drawn", "lost"):
        byes = row.get("byes") or {}
        pab = f" +{len(byes['rounds'])} PAB" if byes.get("rounds") and byes.get("counted_as") == key else ""
        return str(record[key]) + pab if record else ""
    if key == "games":
        return str(sum(record.values())) if record else ""
    if key == "GP" and "GP" not in row.get("tiebreaks", {}):
        return str(row["gp"])
    if key in row:
        return "" if row[key] is None else str(row[key])
    return str(row.get("tiebreaks", {}).get(key, ""))
