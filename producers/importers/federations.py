"""FIDE federation codes of teams named by country, as the Chennai 2022 data names them
("India 2" is India's second team: IND). The table is data, ``olympiad/data/fide-federations.json``."""
from __future__ import annotations

import json
import re
from functools import lru_cache

from producers.importers.common import name_key
from producers.shipped import SHIPPED_DIR

TABLE = SHIPPED_DIR / "fide-federations.json"


@lru_cache(maxsize=1)
def federation_codes() -> dict[str, str]:
    """Country name -> FIDE federation code (three letters), read once from ``TABLE``."""
    return json.loads(TABLE.read_text(encoding="utf-8"))["federations"]


@lru_cache(maxsize=1)
def _codes_by_key() -> dict[str, str]:
    return {name_key(country): code for country, code in federation_codes().items()}


def federation_of(team: str) -> str:
    """The FIDE code of the federation of ``team`` ("India 2" -> "IND": a trailing number is the
    federation's second or third team); the country is matched by ``name_key``, so "Cote d’Ivoire"
    and "Cote d'Ivoire" are one. Raises ``ValueError`` naming the team and the table when its
    country is not in the table."""
    country = re.sub(r"\s\d+$", "", team.strip())
    try:
        return _codes_by_key()[name_key(country)]
    except KeyError:
        raise ValueError(f"team {team!r}: no FIDE federation code for {country!r} in {TABLE.name}") from None
