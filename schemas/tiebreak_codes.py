"""Tie-break codes of a rule profile: C.07 (2026) acronyms with their modifiers, and the Olympiad names.

Grammar (TRF-2026 records 202/212, FIDE TEC "Mandatory Tie-Breaks"; ../shared/spec/trf-teams.md
§1.2): ``ACRONYM[:MP|:GP][/Cn|/Mn][/P][/F][/Kx]``, case-insensitive, written back upper case.

- ``:MP`` / ``:GP`` selects the score a team tie-break is computed on (C.07 art. 13 preamble: the
  primary score, MP, when not stated);
- ``/Cn`` cut-n, ``/Mn`` median-n (C.07 art. 14.1-14.4), only on tie-breaks that are sums of values;
- ``/P`` a forfeit counts as a match against the scheduled opponent (no dummy: C.07 art. 16.6);
- ``/F`` SSSC on Fore Buchholz (C.07 art. 13.4); ``/Kx`` the SSSC normalising factor x.

The Olympiad profiles keep their published names (``OSB-C1``, ``BH-C1``, ``GP``, ``OSB``, ``BH``), which
the standings documents carry as keys. ``parse_tiebreak`` refuses a bad code with ``ValueError`` naming
the code and the rule it breaks. Pure: imports nothing of ours.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

OLYMPIAD_NAMES: dict[str, str] = {"OSB-C1": "EMGSB/C1", "OSB": "EMGSB", "BH-C1": "BH:MP/C1", "BH": "BH:MP", "GP": "GPTS"}
"""Olympiad name -> the C.07 code of the same value (C.07 art. 13.2.2 EMGSB; 8.1 BH; 5 GPTS)."""

# Acronym -> (C.07 2026 article, takes a score selector, takes cut/median modifiers, takes /P).
CATALOGUE: dict[str, tuple[str, bool, bool, bool]] = {
    "MPTS": ("C.07 2026 art. 11.1 (match points)", False, False, False),
    "GPTS": ("C.07 2026 art. 11.1 (game points)", False, False, False),
    "MPVGP": ("C.07 2026 art. 13.1", False, False, False),
    "EMMSB": ("C.07 2026 art. 13.2.1", False, True, True),
    "EMGSB": ("C.07 2026 art. 13.2.2", False, True, True),
    "EGMSB": ("C.07 2026 art. 13.2.3", False, True, True),
    "EGGSB": ("C.07 2026 art. 13.2.4", False, True, True),
    "BH": ("C.07 2026 art. 8.1", True, True, True),
    "FB": ("C.07 2026 art. 8.3", True, True, True),
    "EDE": ("C.07 2026 art. 13.3", False, False, True),
    "EDET": ("C.07 2026 art. 13.3.2 (EDE + TBR)", False, False, True),
    "EDEB": ("C.07 2026 art. 13.3.2 (EDE + BBE)", False, False, True),
    "EDEBT": ("C.07 2026 art. 13.3.2 (EDE + BC + TBR)", False, False, True),
    "EDEBB": ("C.07 2026 art. 13.3.2 (EDE + BC + BBE)", False, False, True),
    "BC": ("C.07 2026 art. 12.1", False, False, False),
    "TBR": ("C.07 2026 art. 12.2", False, False, False),
    "BBE": ("C.07 2026 art. 12.3", False, False, False),
    "SSSC": ("C.07 2026 art. 13.4", False, False, True),
    "WIN": ("C.07 2026 art. 7.1", False, False, False),
}

_CODE = re.compile(r"^(?P<acronym>[A-Z]+)(?::(?P<score>MP|GP))?(?P<mods>(?:/[A-Z][0-9.]*)*)$")


@dataclass(frozen=True)
class TieBreakCode:
    """A parsed code: ``acronym``, ``score`` (``"MP"``/``"GP"``, None = the primary score), ``cut`` and
    ``median`` (how many values 14.1-14.4 drop at each end), ``played_forfeits`` (/P), ``fore`` (/F),
    ``factor`` (/Kx, None = the 13.4 default). ``text`` is the canonical (upper-case) form."""

    text: str
    acronym: str
    score: str | None = None
    cut: int = 0
    median: int = 0
    played_forfeits: bool = False
    fore: bool = False
    factor: str | None = None

    @property
    def article(self) -> str:
        return CATALOGUE[self.acronym][0]


def _refuse(code: str, why: str, rule: str) -> ValueError:
    return ValueError(f"tie-break {code!r}: {why} [rule: {rule}]")


def parse_tiebreak(code: str) -> TieBreakCode:
    """Parse a C.07 code (an Olympiad name is read as its C.07 code). Raises ``ValueError`` naming the
    code and the rule: an unknown acronym (C.07 2026 art. 5), a selector or modifier the tie-break does
    not take (art. 13, 14), a malformed modifier (TRF-2026 202/212 descriptor syntax)."""
    text = OLYMPIAD_NAMES.get(code, code).strip().upper()
    m = _CODE.match(text)
    if m is None:
        raise _refuse(code, "not of the form ACRONYM[:MP|:GP][/Cn|/Mn][/P][/F][/Kx]", "TRF-2026 record 202/212 tie-break syntax")
    acronym = m["acronym"]
    if acronym not in CATALOGUE:
        raise _refuse(code, f"{acronym} is not a team tie-break of the catalogue ({', '.join(CATALOGUE)})", "C.07 2026 art. 5")
    article, takes_score, takes_cut, takes_p = CATALOGUE[acronym]
    if m["score"] and not takes_score:
        raise _refuse(code, f"{acronym} takes no :MP/:GP selector (its scores are fixed by its definition)", article)
    fields: dict = {"score": m["score"]}
    for mod in [x for x in m["mods"].split("/") if x]:
        kind, number = mod[0], mod[1:]
        if kind in "CM" and number.isdigit() and int(number) >= 1:
            if not takes_cut:
                raise _refuse(code, f"/{mod}: {acronym} is not a sum of values, so it takes no cut or median", "C.07 2026 art. 14")
            if fields.get("cut") or fields.get("median"):
                raise _refuse(code, f"/{mod}: one cut or median modifier per tie-break", "C.07 2026 art. 14")
            fields["cut" if kind == "C" else "median"] = int(number)
        elif mod == "P" and takes_p:
            fields["played_forfeits"] = True
        elif mod == "F" and acronym == "SSSC":
            fields["fore"] = True
        elif kind == "K" and acronym == "SSSC" and re.fullmatch(r"[0-9]+(\.[0-9]+)?", number):
            fields["factor"] = number
        else:
            raise _refuse(code, f"/{mod} is not a modifier {acronym} takes", f"{article}; C.07 2026 art. 14")
    return TieBreakCode(text=text, acronym=acronym, **fields)


def check_tiebreak(code: str) -> str:
    """Pydantic validator of a profile's tie-break: the Olympiad names as they are, a C.07 code in its
    canonical upper-case form; raises ``ValueError`` (``parse_tiebreak``)."""
    if code in OLYMPIAD_NAMES:
        return code
    return parse_tiebreak(code).text


def c07_code(name: str) -> str:
    """The C.07 code of a profile's tie-break (an Olympiad name translated, a C.07 code kept): TRF 202/212."""
    return OLYMPIAD_NAMES.get(name, name)


def standings_codes(codes: list[str]) -> tuple[str, ...]:
    """A profile's tie-breaks from a TRF 212/202 list: the leading points (``PTS``/``MPTS``, the MP rank)
    dropped, every other code validated (``parse_tiebreak``) and kept in its canonical form."""
    return tuple(parse_tiebreak(c).text for c in codes if c.upper() not in ("PTS", "MPTS"))
