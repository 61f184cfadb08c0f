"""The key two sources' spellings of one player or team name are matched by."""
from __future__ import annotations

import unicodedata

# What sources type for an apostrophe: ' ’ ‘ ʼ ` ´ ′ (a keyboard's, a word processor's, a scraper's).
_APOSTROPHES = str.maketrans({c: "'" for c in "\u2019\u2018\u02bc\u0060\u00b4\u2032"})


def name_key(name: str) -> str:
    """The key two sources' spellings of one player or team name are matched by, when they do not
    both carry a FIDE id: NFC (Unicode Standard Annex #15), every apostrophe variant as ``'``,
    runs of spaces as one, case folded ("O’Gorman,  Tom" and "o'gorman, tom" meet). The key is for
    matching only; the name is stored as the source spells it."""
    return " ".join(unicodedata.normalize("NFC", name).translate(_APOSTROPHES).split()).casefold()
