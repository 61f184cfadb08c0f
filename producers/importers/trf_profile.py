"""The rule profile of a team TRF, from its header records: rounds (142), boards (352), match points
(362), game points (162), the PAB award (320), tie-breaks (212/202), and the abnormal points of 299.
A value the product keeps is kept exactly; one it cannot keep (half a match point, a game scored
other than 1/½/0, colours that do not alternate) is refused naming its record and columns.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import ValidationError

from producers.importers.trf_fields import TrfError, TrfRecords, int_field, points_field
from schemas.events import shown
from schemas.profile import OLYMPIAD_2022, RuleProfile
from schemas.tiebreak_codes import standings_codes


def profile_of(f: TrfRecords) -> RuleProfile:
    """A profile from the file's records, on the ``olympiad-2022`` switches (module docstring);
    a value the product cannot honour exactly is refused naming its record."""
    update: dict[str, Any] = {"name": "trf-import", "unplayed": "dummy-2026", "forfeited_match_in_tiebreaks": False,
                              "description": "read from a TRF file: C.07 2026 unplayed rounds; pairing switches of olympiad-2022"}
    where = {"name": (0, "012")}
    if "142" in f.records:
        n, line = f.records["142"][0]
        update["rounds"] = int_field(line, (5, 8), n, "number of rounds")
        where["rounds"] = (n, "142")
    if "352" in f.records:
        n, line = f.records["352"][0]
        sequence = line[4:].strip()
        if not re.fullmatch(r"[WB]+", sequence):
            raise TrfError(f"columns 5-{len(line)} hold {sequence!r}; a board colour sequence is W and B only", line=n, record="352")
        if sequence not in ("WB" * 10)[: len(sequence)] and sequence not in ("BW" * 10)[: len(sequence)]:
            raise TrfError(f"colour sequence {sequence!r}: this product alternates colours board by board (WBWB...)", line=n,
                           record="352", rule="R-D4 colours alternate by board")
        update["boards"] = len(sequence)
        where["boards"] = (n, "352")
    if "362" in f.records:
        update["match_points"] = match_points(*f.records["362"][0])
        where["match_points"] = (f.records["362"][0][0], "362")
    if "162" in f.records:
        game_points(*f.records["162"][0])
    if "320" in f.records:
        n, line = f.records["320"][0]
        mp = points_field(line[4:8], n, "320", "columns 5-8 (PAB match points)")
        if mp != int(mp):
            raise TrfError(f"columns 5-8: PAB match points {mp}: this product's match points are whole numbers", line=n, record="320",
                           rule="R-D9 bye award: whole match points")
        update["bye_award"] = {"mp": int(mp), "gp": points_field(line[9:13], n, "320", "columns 10-13 (PAB game points)")}
        where["bye_award"] = (n, "320")
    for tag in ("212", "202"):
        if tag in f.records:
            codes = [c for c in re.split(r"[,\s]+", f.records[tag][0][1][4:]) if c]
            try:
                update["tiebreaks"] = standings_codes(codes)
            except ValueError as exc:
                raise TrfError(str(exc), line=f.records[tag][0][0], record=tag, rule="") from None
            where["tiebreaks"] = (f.records[tag][0][0], tag)
            break
    try:
        return RuleProfile.model_validate({**OLYMPIAD_2022.model_dump(), **update})
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = err.get("msg", "")
        # An error of the whole profile (no field): the record its rule names.
        key = str(err["loc"][0]) if err["loc"] else next(
            (k for k, words in (("bye_award", "bye award"), ("match_points", "match points"), ("boards", "board"), ("rounds", "round"))
             if words in msg and k in where), "name")
        n, tag = where.get(key, (0, ""))
        rule = msg.split("[rule: ", 1)[1].rstrip("]") if "[rule: " in msg else f"rule profile: {key}"
        what = msg.split("[rule: ")[0].removeprefix("Value error, ").strip() if "[rule: " in msg else f"{shown(err.get('input'))} is not accepted"
        raise TrfError(f"{key.replace('_', ' ')}: {what}", line=n, record=tag, rule=rule) from None


def agreed(f: TrfRecords, exact: RuleProfile | None, read: RuleProfile) -> RuleProfile:
    """The profile of the product's comment (``exact``) when the records agree with it, else the
    one read from the records; a record that says otherwise than the comment (an edited 362, 352,
    142 or 320) is refused naming it: which of the two the arbiter meant is not ours to guess."""
    if exact is None:
        return read
    for tag, key in (("142", "rounds"), ("352", "boards"), ("362", "match_points"), ("320", "bye_award")):
        if tag in f.records and getattr(read, key) != getattr(exact, key):
            mine, theirs = getattr(read, key), getattr(exact, key)
            show = (lambda v: v.model_dump(mode="json") if hasattr(v, "model_dump") else v)
            raise TrfError(f"{key.replace('_', ' ')} {show(mine)} differ from the olympiad-events profile comment's {show(theirs)}",
                           line=f.records[tag][0][0], record=tag, rule="one rule profile per file")
    return exact


_SCALE = re.compile(r"T([WDL])\s*(\S+)")


def match_points(n: int, line: str) -> dict[str, int]:
    """The 362 match points TW/TD/TL (columns 5-10, 14-19, 23-28; Sharly's one-column-off spacing
    too, trf-teams.md trap 2). The product's match points are whole numbers (R-D3): a scale it holds
    (2/1/0, 3/1/0 ...) is kept exactly, any other refused with its columns."""
    body = line[4:]
    found = {m[1]: m for m in _SCALE.finditer(body)}
    rest = _SCALE.sub("", body).strip()
    if rest or not found or len(found) != len(_SCALE.findall(body)):
        raise TrfError(f"columns 5-{len(line)} hold {body.strip()!r}; expected TW, TD and TL each with its points (TW 2.0   TD 1.0   TL 0.0)",
                       line=n, record="362", rule="TRF-2026 362 team point system")
    out = {"W": 2, "D": 1, "L": 0}  # TRF-2026 defaults of a code not given
    for code, m in found.items():
        first = 4 + m.start(2) + 1
        cols = f"columns {first}-{first + len(m[2]) - 1}"
        try:
            value = Decimal(m[2])
        except InvalidOperation:
            raise TrfError(f"{cols} (T{code}) hold {m[2]!r}, not a number", line=n, record="362") from None
        if value != value.to_integral_value() or not 0 <= value <= 10:
            raise TrfError(f"{cols}: T{code} {m[2]} match points cannot be kept: this product's match points are whole numbers 0 to 10 "
                           "(2/1/0, 3/1/0 ...)", line=n, record="362", rule="R-D3 match points: whole numbers")
        out[code] = int(value)
    return {"win": out["W"], "draw": out["D"], "loss": out["L"]}


_GAME_DEFAULTS = {"W": Decimal(1), "D": Decimal("0.5"), "L": Decimal(0), "A": Decimal(0)}


def game_points(n: int, line: str) -> None:
    """162: the game points of a won, drawn, lost and forfeited board. The product scores boards
    1, 1/2, 0 (a forfeit loss 0): another value cannot be kept and is refused with its column;
    ``P`` (the PAB's GP per board) is read from 320 and ``X`` (unknown result) has no board result."""
    for m in re.finditer(r"([WDLAPX])\s*(\S+)", line[4:]):
        code, col = m[1], 4 + m.start(1) + 1
        try:
            value = Decimal(m[2])
        except InvalidOperation:
            raise TrfError(f"column {col + 1}: {code} points {m[2]!r} are not a number", line=n, record="162") from None
        if code in _GAME_DEFAULTS and value != _GAME_DEFAULTS[code]:
            raise TrfError(f"column {col}: {code} {m[2]} game points cannot be kept: this product scores a board 1, 1/2 or 0 "
                           "(W 1.0, D 0.5, L 0.0, A 0.0)", line=n, record="162", rule="R-D2 game points 1, 1/2, 0")


def abnormal_points(f: TrfRecords, profile: RuleProfile) -> None:
    """299 records, read in the table's columns or Sharly's (one column left: trf-teams.md §1.4 trap 1)
    by their blank-separated fields: type, MP, GP, round, IDs. A record that restates what the profile
    gives anyway (``+``/``-`` forfeit values without round or team: win MP with every board, or 0 and 0)
    is accepted; any other assignment has no event to become and is refused."""
    boards = Decimal(profile.boards)
    for n, line in f.records.get("299", []):
        kind = line[4:5]
        fields = line[5:].split()
        try:
            mp, gp = Decimal(fields[0]), Decimal(fields[1])
        except (IndexError, ArithmeticError):
            raise TrfError("expected the MP and GP of an abnormal points assignment", line=n, record="299") from None
        restated = {"+": (Decimal(profile.match_points.win), boards), "-": (Decimal(profile.match_points.loss), Decimal(0))}
        if len(fields) == 2 and restated.get(kind) == (mp, gp):
            continue
        raise TrfError(f"an abnormal points assignment ({line.strip()!r}) has no event in this product; correct the results "
                       "or the profile instead", line=n, record="299", rule="TRF-2026 299 abnormal points")
