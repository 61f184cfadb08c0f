"""Tie-break codes of a rule profile: C.07 (2026) acronyms with their modifiers, and the Olympiad names.

The C.07 grammar in one place: the codes, the score selectors and modifiers each code takes, their
legal combinations, and one canonical printed form. Syntax (TRF-2026 records 202/212, FIDE TEC
"Mandatory Tie-Breaks"; ../shared/spec/trf-teams.md §1.2):
``ACRONYM[:MP|:GP][/Cn|/Mn][/P][/F][/Kx]``, case-insensitive. The modifiers are accepted in any
order on input; a code is always printed (profiles, standings keys, ``replay``, TRF 202/212) in
that order, upper case: ``BH:MP/P/C1`` and ``bh:mp/c1/p`` are both ``BH:MP/C1/P``.

- ``:MP`` / ``:GP`` selects the score a team tie-break is computed on (C.07 art. 13 preamble: the
  primary score when not stated). BH and FB take either (art. 8.1, 8.3); WIN takes ``:MP`` (a
  win is a match won, art. 7.1: counting it on game points means nothing, so ``WIN:GP`` is refused);
  every other code's scores are fixed by its definition;
- ``/Cn`` cut-n, ``/Mn`` median-n (C.07 art. 14): on BH and FB, sums of the opponents' scores;
  the extended Sonneborn-Berger family (EMMSB, EMGSB, EGMSB, EGGSB, art. 13.2) takes cuts only:
  a median would also drop the highest products, which 13.2 does not provide;
- ``/P`` a forfeit counts as a match against the scheduled opponent (no dummy: C.07 art. 16.6);
- ``/F`` SSSC on Fore Buchholz (C.07 art. 13.4); ``/Kx`` the SSSC normalising factor x.

The Olympiad profiles keep their published names (``OSB-C1``, ``BH-C1``, ``GP``, ``OSB``, ``BH``),
which the standings documents carry as keys. ``parse_tiebreak`` refuses a bad code with
``ValueError`` naming the code and the C.07 article (or TRF record) it breaks. Pure: imports
nothing of ours.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

OLYMPIAD_NAMES: dict[str, str] = {"OSB-C1": "EMGSB/C1", "OSB": "EMGSB", "BH-C1": "BH:MP/C1", "BH": "BH:MP", "GP": "GPTS"}
"""Olympiad name -> the C.07 code of the same value (C.07 art. 13.2.2 EMGSB; 8.1 BH; 5 GPTS)."""


@dataclass(frozen=True)
class CodeRule:
    """What one C.07 acronym takes: its ``article``, the score ``selectors`` it accepts (``"MP"``,
    ``"GP"``), and its ``modifiers``: ``"C"`` cut, ``"M"`` median, ``"P"`` forfeits as played,
    ``"F"`` Fore Buchholz, ``"K"`` normalising factor."""

    article: str
    selectors: frozenset[str] = frozenset()
    modifiers: frozenset[str] = frozenset()


_SB_MODS = frozenset("CP")
_BH_MODS = frozenset("CMP")
CATALOGUE: dict[str, CodeRule] = {
    "MPTS": CodeRule("C.07 2026 art. 11.1 (match points)"),
    "GPTS": CodeRule("C.07 2026 art. 11.1 (game points)"),
    "MPVGP": CodeRule("C.07 2026 art. 13.1"),
    "EMMSB": CodeRule("C.07 2026 art. 13.2.1", modifiers=_SB_MODS),
    "EMGSB": CodeRule("C.07 2026 art. 13.2.2", modifiers=_SB_MODS),
    "EGMSB": CodeRule("C.07 2026 art. 13.2.3", modifiers=_SB_MODS),
    "EGGSB": CodeRule("C.07 2026 art. 13.2.4", modifiers=_SB_MODS),
    "BH": CodeRule("C.07 2026 art. 8.1", frozenset({"MP", "GP"}), _BH_MODS),
    "FB": CodeRule("C.07 2026 art. 8.3", frozenset({"MP", "GP"}), _BH_MODS),
    "EDE": CodeRule("C.07 2026 art. 13.3", modifiers=frozenset("P")),
    "EDET": CodeRule("C.07 2026 art. 13.3.2 (EDE + TBR)", modifiers=frozenset("P")),
    "EDEB": CodeRule("C.07 2026 art. 13.3.2 (EDE + BBE)", modifiers=frozenset("P")),
    "EDEBT": CodeRule("C.07 2026 art. 13.3.2 (EDE + BC + TBR)", modifiers=frozenset("P")),
    "EDEBB": CodeRule("C.07 2026 art. 13.3.2 (EDE + BC + BBE)", modifiers=frozenset("P")),
    "BC": CodeRule("C.07 2026 art. 12.1"),
    "TBR": CodeRule("C.07 2026 art. 12.2"),
    "BBE": CodeRule("C.07 2026 art. 12.3"),
    "SSSC": CodeRule("C.07 2026 art. 13.4", modifiers=frozenset("PFK")),
    "WIN": CodeRule("C.07 2026 art. 7.1", frozenset({"MP"})),
}
"""Acronym -> what it takes (C.07 2026, one article per code; docs/tiebreaks.md prints this table)."""

_CODE = re.compile(r"^(?P<acronym>[A-Z]+)(?::(?P<score>[A-Z]+))?(?P<mods>(?:/[^/]*)*)$")
_MODIFIER_NAMES = {"C": "a cut", "M": "a median", "P": "/P", "F": "/F", "K": "/K"}


@dataclass(frozen=True)
class TieBreakCode:
    """A parsed code: ``acronym``, ``score`` (``"MP"``/``"GP"``, None = the primary score), ``cut`` and
    ``median`` (how many values art. 14 drops at each end), ``played_forfeits`` (/P), ``fore`` (/F),
    ``factor`` (/Kx, None = the 13.4 default). ``text`` is the canonical form (TRF-2026 order)."""

    acronym: str
    score: str | None = None
    cut: int = 0
    median: int = 0
    played_forfeits: bool = False
    fore: bool = False
    factor: str | None = None

    @property
    def text(self) -> str:
        """The one printed form: ``ACRONYM[:MP|:GP][/Cn|/Mn][/P][/F][/Kx]``, upper case."""
        parts = [self.acronym + (f":{self.score}" if self.score else "")]
        if self.cut:
            parts.append(f"C{self.cut}")
        if self.median:
            parts.append(f"M{self.median}")
        parts += [m for m, on in (("P", self.played_forfeits), ("F", self.fore)) if on]
        if self.factor is not None:
            parts.append(f"K{self.factor}")
        return "/".join(parts)

    @property
    def article(self) -> str:
        return CATALOGUE[self.acronym].article


def _refuse(code: str, why: str, rule: str) -> ValueError:
    return ValueError(f"tie-break {code!r}: {why} [rule: {rule}]")


def parse_tiebreak(code: str) -> TieBreakCode:
    """Parse a C.07 code, modifiers in any order (an Olympiad name is read as its C.07 code).

    Raises ``ValueError`` naming the code and the rule: an unknown acronym (C.07 2026 art. 5); a
    selector the code does not take (its article: 8.1/8.3 BH and FB take :MP or :GP, 7.1 WIN :MP
    only, the others none); a modifier it does not take (its article and art. 14: cuts and medians
    on BH and FB, cuts only on the 13.2 family); two cut/median modifiers or a repeated one (art.
    14); a malformed code (TRF-2026 202/212 descriptor syntax)."""
    text = OLYMPIAD_NAMES.get(code, code).strip().upper()
    m = _CODE.match(text)
    if m is None:
        raise _refuse(code, "not of the form ACRONYM[:MP|:GP][/Cn|/Mn][/P][/F][/Kx]", "TRF-2026 record 202/212 tie-break syntax")
    acronym = m["acronym"]
    if acronym not in CATALOGUE:
        raise _refuse(code, f"{acronym} is not a team tie-break of the catalogue ({', '.join(CATALOGUE)})", "C.07 2026 art. 5")
    rule = CATALOGUE[acronym]
    score = m["score"]
    if score is not None:
        if score not in ("MP", "GP"):
            raise _refuse(code, f":{score} is not a score selector (:MP or :GP)", "TRF-2026 record 202/212 tie-break syntax")
        if score not in rule.selectors:
            takes = f"takes only {', '.join(':' + s for s in sorted(rule.selectors))}" if rule.selectors else "takes no :MP/:GP selector"
            raise _refuse(code, f"{acronym} {takes} (its scores are fixed by its definition)", rule.article)
    fields: dict = {"score": score}
    seen: set[str] = set()
    for mod in m["mods"].split("/")[1:]:
        kind, number = mod[:1], mod[1:]
        well_formed = (kind in "CM" and number.isdigit() and int(number) >= 1) or (kind in "PF" and number == "") or (
            kind == "K" and re.fullmatch(r"[0-9]+(\.[0-9]+)?", number) is not None)
        if not well_formed:
            raise _refuse(code, f"/{mod} is not a modifier {acronym} takes", f"{rule.article}; C.07 2026 art. 14")
        if kind not in rule.modifiers:
            if kind in "CM" and "C" in rule.modifiers:
                raise _refuse(code, f"/{mod}: {acronym} takes cut modifiers only, no median", f"C.07 2026 art. 14; {rule.article}")
            if kind in "CM":
                raise _refuse(code, f"/{mod}: {acronym} is not a sum of values, so it takes no cut or median", "C.07 2026 art. 14")
            raise _refuse(code, f"/{mod} is not a modifier {acronym} takes", f"{rule.article}; C.07 2026 art. 14")
        slot = "CM" if kind in "CM" else kind
        if slot in seen:
            raise _refuse(code, f"/{mod}: one {'cut or median' if slot == 'CM' else _MODIFIER_NAMES[kind]} modifier per tie-break", "C.07 2026 art. 14")
        seen.add(slot)
        if kind in "CM":
            fields["cut" if kind == "C" else "median"] = int(number)
        elif kind == "P":
            fields["played_forfeits"] = True
        elif kind == "F":
            fields["fore"] = True
        else:
            fields["factor"] = number
    return TieBreakCode(acronym=acronym, **fields)


def check_tiebreak(code: str) -> str:
    """Pydantic validator of a profile's tie-break: the Olympiad names as they are, a C.07 code in its
    canonical form (``TieBreakCode.text``); raises ``ValueError`` (``parse_tiebreak``)."""
    if code in OLYMPIAD_NAMES:
        return code
    return parse_tiebreak(code).text


BUCHHOLZ_NAMES = ("BH", "BH-C1")
"""The Olympiad names of Buchholz: on the opponents' match points by definition (spec R-T4)."""


def check_primary(tiebreaks: tuple[str, ...], primary: str) -> None:
    """Refuse an Olympiad Buchholz name (``BH``, ``BH-C1``) in a profile whose primary score is game
    points (``primary`` "gp"). The name is Buchholz on the opponents' MP (R-T4, ``BH:MP``), while a
    team Buchholz without ``:MP``/``:GP`` is read on the primary score (C.07 2026 art. 13 preamble)
    and art. 8.1 defines BH on either score: under GP the name says one score and C.07 reads the
    other, so the profile names it (``BH:MP/C1`` or ``BH:GP/C1``). Raises ``ValueError``
    ``tiebreaks: ... [rule: ...]``."""
    if primary != "gp":
        return
    for name in tiebreaks:
        if name in BUCHHOLZ_NAMES:
            on_mp = OLYMPIAD_NAMES[name]
            raise ValueError(
                f"tiebreaks: {name!r} is the Olympiad name of Buchholz on the opponents' match points ({on_mp}); with "
                f"game points primary a Buchholz that names no score is read on game points, so write {on_mp} or "
                f"{on_mp.replace(':MP', ':GP')} [rule: C.07 2026 art. 13 preamble (a team tie-break is computed on the "
                "primary score unless :MP or :GP is stated) and art. 8.1 (Buchholz on MP or GP)]")


def c07_code(name: str) -> str:
    """The C.07 code of a profile's tie-break (an Olympiad name translated, a C.07 code kept): TRF 202/212."""
    return OLYMPIAD_NAMES.get(name, name)


def standings_codes(codes: list[str]) -> tuple[str, ...]:
    """A profile's tie-breaks from a TRF 212/202 list: the leading points (``PTS``/``MPTS``, the MP rank)
    and any other ``PTS`` dropped, every other code validated (``parse_tiebreak``) and kept in its
    canonical form (an ``MPTS`` after the first code is a tie-break of the list: ``212 MPTS,MPTS``)."""
    if codes and codes[0].upper() in ("PTS", "MPTS"):
        codes = codes[1:]
    return tuple(parse_tiebreak(c).text for c in codes if c.upper() != "PTS")
