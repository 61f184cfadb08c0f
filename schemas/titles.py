"""FIDE title codes, known by name: the one table every door reads a player's title with.

A player's title is what the source gives: a FIDE code below (matched without regard to case and
written in FIDE's spelling, "gm" -> "GM"), or any other short code of letters (a national title
such as "NM", a source's own spelling), which is kept as given and reported as unknown by the
importing command (``producers.importers.common.title_note``), never refused. A title that is not
a short code of letters (digits, punctuation, spaces inside, longer than ``MAX_TITLE``) is refused
with ``TITLE_RULE``.

Sources of the table: the FIDE rating list's title columns (FIDE Handbook B.01 "International
Title Regulations" and the list's ``Tit``/``WTit`` columns for the open and women's titles; its
``FOA`` column for the FIDE Online Arena titles, "Titles for the lower rating band"; its ``OTit``
column for the titles of arbiters, organizers and trainers, which a source sometimes puts in the
title column). No separate code for an honorary title appears on the list: such a code from a
source ("HGM") is kept as given and reported as unknown.
"""
from __future__ import annotations

MAX_TITLE = 6  # the longest FIDE code is 3 letters; a source's own code may be a little longer

TITLE_RULE = f"titles: a FIDE title code or another code of 1 to {MAX_TITLE} letters"

FIDE_TITLES: dict[str, str] = {
    # open titles (B.01; rating list column Tit)
    "GM": "Grandmaster",
    "IM": "International Master",
    "FM": "FIDE Master",
    "CM": "Candidate Master",
    # women's titles (B.01; column WTit)
    "WGM": "Woman Grandmaster",
    "WIM": "Woman International Master",
    "WFM": "Woman FIDE Master",
    "WCM": "Woman Candidate Master",
    # FIDE Online Arena titles (column FOA)
    "AGM": "Arena Grandmaster",
    "AIM": "Arena International Master",
    "AFM": "Arena FIDE Master",
    "ACM": "Arena Candidate Master",
    # arbiters, organizers, trainers and instructors (column OTit)
    "IA": "International Arbiter",
    "FA": "FIDE Arbiter",
    "NA": "National Arbiter",
    "IO": "International Organizer",
    "FST": "FIDE Senior Trainer",
    "FT": "FIDE Trainer",
    "FI": "FIDE Instructor",
    "NI": "National Instructor",
    "DI": "Developmental Instructor",
}
"""FIDE title code -> its name."""


def title_name(code: str) -> str | None:
    """The name of the FIDE title ``code`` ("AFM" -> "Arena FIDE Master"), None for a code FIDE
    does not use (and for no title, "")."""
    return FIDE_TITLES.get(code)


def checked_title(value: str) -> str:
    """A title as stored: trimmed, a FIDE code in FIDE's spelling, any other code of letters as given.

    ``value`` is the source's text ("" for no title). Raises ``ValueError`` naming ``TITLE_RULE``
    for text that is not 1 to ``MAX_TITLE`` letters (of any script).
    """
    code = value.strip()
    if not code:
        return ""
    known = code.upper()
    if known in FIDE_TITLES:
        return known
    if len(code) > MAX_TITLE or not code.isalpha():
        raise ValueError(f"{code!r} is not a title code [rule: {TITLE_RULE}]")
    return code
