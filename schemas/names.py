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


def loose_name_key(name: str) -> str:
    """``name_key`` that also ignores accents (combining marks after NFKD), punctuation and word
    order: a broadcast's "Santosh Vidit" meets a roster's "Vidit, Santosh", "Gukesh D" meets
    "Gukesh, D.". Letters of every script are kept (a Cyrillic or Chinese name keeps its key), so
    two names meet only if their letters do. For sources that spell names freely (game feeds)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name_key(name)) if not unicodedata.combining(c))
    return " ".join(sorted("".join(c if c.isalnum() else " " for c in plain).split()))
