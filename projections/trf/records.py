"""TRF-2026 fixed-column records: column positions, result letters, point formats.

Columns are 1-based and inclusive, as the FIDE table prints them (../shared/spec/trf.md,
../shared/spec/trf-teams.md §1.2). One module for the writer (``projections.trf.export``) and the
reader (``producers.importers.trf``), so both use the same positions.
"""
from __future__ import annotations

from decimal import Decimal

from schemas.points import fmt_points

# 001 player record (TRF16 = TRF-2026): (first, last) column of each field.
PLAYER_SRN = (5, 8)
PLAYER_SEX = (10, 10)
PLAYER_TITLE = (11, 13)
PLAYER_NAME = (15, 47)
PLAYER_RATING = (49, 52)
PLAYER_FEDERATION = (54, 56)
PLAYER_FIDE_ID = (58, 68)
PLAYER_BIRTH = (70, 79)
PLAYER_POINTS = (81, 84)
PLAYER_RANK = (86, 89)
ROUND_1_COLUMN = 92  # round r: opponent 92+10(r-1)..95+10(r-1), colour at 97+.., result at 99+..

# 310 team record (TRF-2026).
TEAM_TPN = (5, 7)
TEAM_NAME = (9, 40)
TEAM_NICKNAME = (42, 46)
TEAM_STRENGTH = (48, 53)
TEAM_MP = (55, 60)
TEAM_GP = (62, 67)
TEAM_RANK = (69, 71)
TEAM_FIRST_MEMBER = 74  # members at 74-77, 79-82, ... 139-142 (14 at most)
TEAM_MAX_MEMBERS = 14
TEAM013_NAME = (5, 36)
TEAM013_FIRST_MEMBER = 37  # TRF16: 37-40, 42-45, ... 102-105

# Board result code (White-Black) -> (White's letter, Black's letter) in 001 records.
LETTERS: dict[str, tuple[str, str]] = {
    "1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "="),
    "+/-": ("+", "-"), "-/+": ("-", "+"), "-/-": ("-", "-"),
}
CODES: dict[tuple[str, str], str] = {v: k for k, v in LETTERS.items()}
# TRF26 §1.6 standard score of a player: over the board at W=1 / D=1/2 / L=0, plus forfeit wins.
STANDARD_POINTS: dict[str, Decimal] = {"1": Decimal(1), "=": Decimal("0.5"), "0": Decimal(0), "+": Decimal(1), "-": Decimal(0)}

# FIDE title -> TRF title code (TRF16 001 cols 11-13) and back.
TITLES = {"GM": "g", "IM": "m", "FM": "f", "CM": "c", "WGM": "wg", "WIM": "wm", "WFM": "wf", "WCM": "wc"}
TITLE_NAMES = {v: k for k, v in TITLES.items()}


def round_columns(rnd: int) -> tuple[int, int, int]:
    """(first opponent column, colour column, result column) of round ``rnd`` in a 001 record."""
    first = ROUND_1_COLUMN + 10 * (rnd - 1)
    return first, first + 5, first + 7


def field(line: str, cols: tuple[int, int]) -> str:
    """The text of 1-based inclusive columns ``cols`` of ``line`` (short lines read as blanks), stripped."""
    return line[cols[0] - 1:cols[1]].strip()


def points_text(value: Decimal | int, width: int) -> str:
    """A point value with one decimal (``"11.5"``, ``"2.0"``), as TRF writes MP and GP."""
    return f"{Decimal(value):.1f}".rjust(width)


class Line:
    """A record being written column by column: ``put(cols, text)`` places ``text`` in the 1-based
    inclusive columns ``cols`` (right-aligned numbers, left-aligned text). Raises ``ValueError``
    when a value does not fit its columns (TRF has no overflow: IDs <= 9999, TPN <= 999)."""

    def __init__(self, tag: str):
        self.chars = list(tag)

    def put(self, cols: tuple[int, int], value: object, *, left: bool = False) -> "Line":
        first, last = cols
        width = last - first + 1
        text = value if isinstance(value, str) else fmt_points(value) if isinstance(value, Decimal) else str(value)
        if len(text) > width:
            raise ValueError(f"{text!r} does not fit columns {first}-{last} of record {''.join(self.chars[:3])}")
        text = text.ljust(width) if left else text.rjust(width)
        if len(self.chars) < last:
            self.chars.extend(" " * (last - len(self.chars)))
        self.chars[first - 1:last] = list(text)
        return self

    def text(self) -> str:
        return "".join(self.chars).rstrip()
