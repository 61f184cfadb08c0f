"""Rating performance by FIDE's table: Rp = Ra + dp.

Source: FIDE Rating Regulations (Handbook B.02), the table "conversion from fractional score p
into rating differences dp" (the same table as the Title Regulations B.01 use for norms and the
Tie-Break Regulations C.07 for TPR):

- ``Ra``: the average rating of the opponents, rounded to the nearest whole number (.5 up);
- ``p``: the fractional score (points / games), rounded to the nearest hundredth (.005 up);
- ``dp``: the table's rating difference for ``p``; for p < 0.50, dp = -dp(1 - p); 100 % is
  +800 and 0 % is -800 (so a perfect score has a performance, not infinity).

What counts (Olympiad practice for board prizes: no 400-point rule; every played game):

- only games played over the board: a forfeit (won or lost) or a bye is no game for a rating
  performance (FIDE B.02: unplayed games are not rated);
- an unrated opponent: left out with the game (``unrated_as`` None: Ra is the average of the
  *rated* opponents, B.02), or counted at ``unrated_as`` (a profile's
  ``unrated_opponent_rating``, e.g. 1000 as at the 2012 Olympiad, spec S12; 1400 as B.01 takes
  for norms since 2024);
- no game left: no performance (None).

Checked against the public figures of Chennai 2022 (Gukesh 9/11: 2867; Howell 7.5/8: 2898).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Iterable

# FIDE B.02 table 8.1.a: dp for p = 0.50, 0.51, ..., 1.00 (index = hundredths above 0.50).
DP_TABLE: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)
HUNDREDTH = Decimal("0.01")


def dp(p: Decimal) -> int:
    """The rating difference of FIDE's table (B.02 8.1.a) for the fractional score ``p``
    (0..1, rounded here to the nearest hundredth, .005 up): 0.50 -> 0, 0.82 -> 262, 1.00 -> 800,
    0.18 -> -262, 0.00 -> -800. Raises ``ValueError`` for ``p`` outside 0..1."""
    if not Decimal(0) <= p <= Decimal(1):
        raise ValueError(f"a fractional score is between 0 and 1, not {p}")
    hundredths = int((p * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return DP_TABLE[hundredths - 50] if hundredths >= 50 else -DP_TABLE[50 - hundredths]


@dataclass(frozen=True)
class Performance:
    """A rating performance: ``games`` counted, ``points`` in them, ``average`` (Ra, whole
    number), ``percentage`` (p, hundredths), ``dp`` and ``rating`` (Rp = Ra + dp)."""

    games: int
    points: Decimal
    average: int
    percentage: Decimal
    dp: int
    rating: int


def rating_performance(games: Iterable[tuple[int | None, Decimal]], unrated_as: int | None = None) -> Performance | None:
    """The rating performance of the played ``games`` ((opponent's rating or None when unrated,
    points 0 / 0.5 / 1) per game played over the board; forfeits are not passed here): Rp = Ra + dp
    (module docstring, FIDE B.02). An unrated opponent's game is left out (``unrated_as`` None) or
    counted at ``unrated_as``. None when no game counts."""
    counted = [(r if r is not None else unrated_as, Decimal(pts)) for r, pts in games]
    counted = [(r, pts) for r, pts in counted if r is not None]
    if not counted:
        return None
    n = len(counted)
    points = sum((pts for _, pts in counted), Decimal(0))
    average = int((Decimal(sum(r for r, _ in counted)) / n).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    p = (points / n).quantize(HUNDREDTH, rounding=ROUND_HALF_UP)
    diff = dp(p)
    return Performance(games=n, points=points, average=average, percentage=p, dp=diff, rating=average + diff)
