"""C.07 (2026) codes of the tie-breaks a profile names.

The Olympiad profiles name their tie-breaks as published (``OSB-C1``, ``BH-C1``, ``GP``, ``OSB``,
``BH``: spec README "Standings as published at Samarkand 2026"); C.07 names the same values
``EMGSB/C1`` (art. 13.2.2, cut per 14.1), ``BH:MP/C1`` (art. 8.1 on match points), ``GPTS``
(art. 5.2 game points), ``EMGSB`` and ``BH:MP``.
"""
from __future__ import annotations

OLYMPIAD_NAMES: dict[str, str] = {
    "OSB-C1": "EMGSB/C1",
    "OSB": "EMGSB",
    "BH-C1": "BH:MP/C1",
    "BH": "BH:MP",
    "GP": "GPTS",
}


def c07_code(name: str) -> str:
    """The C.07 code of tie-break ``name`` (an Olympiad name is translated, a C.07 code kept)."""
    return OLYMPIAD_NAMES.get(name, name)
