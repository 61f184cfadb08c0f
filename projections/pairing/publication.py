"""The order the tables are published in (table numbers 1..n).

``publication_order="d02-11.1"`` (spec R-B2, FIDE D.02 2022 art. 11.1): by the higher-ranked
team's MP, then the sum of both teams' MP, then the higher-ranked team's average rating, all
descending; the higher-ranked team's pairing number is the last key. ``"ranking"`` (2008; ECU
N.8.4.1 "by actual ranking", spec R-B2): by the higher-ranked team's place in the pairing order.
MP here is the pairing score (equal to MP without acceleration).
"""
from __future__ import annotations

from projections.pairing.entrants import Entrant


def publication_key(order: str, higher: Entrant, lower: Entrant) -> tuple:
    """Sort key (ascending = earlier table) of a pair given its higher- and lower-ranked teams."""
    if order == "ranking":
        return (higher.place,)
    if order == "d02-11.1":
        return (-higher.score, -(higher.score + lower.score), -higher.rating, higher.pairing_number)
    raise ValueError(f"unknown publication order {order!r}")
