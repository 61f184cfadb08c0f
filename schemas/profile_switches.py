"""Which pairing system honours which switch of a rule profile, and the rule each cites.

Three systems read a ``RuleProfile`` (``RuleProfile.system``): ``burstein-2008`` (the 38th
Olympiad, Dresden 2008: spec R-* rules, sources S1-S5), ``exchange-2022`` (FIDE D.02 Olympiad
Pairing Rules 2022) and ``c04.6`` (FIDE C.04.6 Swiss Team Pairing System, 2026). Standings,
scoring and seeding switches are read whatever the system (``ALL``). A switch only some systems
read may be left at its schema default, or set to the value the other systems follow anyway
(``implied``: C.04.6 ranks for pairing by score, then TPN, art. 1.1-1.2); any other value is
refused at creation naming the rule, so no switch is ever silently ignored.

Accelerations (``ACCELERATIONS``) are judged by value: the 2008 Olympiad constant (``top-half``,
``baku-even``: R-A1..R-A3, +``acceleration_mp`` MP in rounds 1..``acceleration_rounds``) belongs
to the 2008 rules; the C.04.7 Baku Acceleration Method (``c04.7-baku``) is one of the FIDE-approved
accelerated systems C.04.2 (2026) art. 1.1 allows for the FIDE Swiss systems, which C.04.6 applies
(its preface); D.02 2022 pairs by MP, then pairing number, without virtual points. Pure: imports
nothing of ours.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BURSTEIN_2008, EXCHANGE_2022, SWISS_TEAM = "burstein-2008", "exchange-2022", "c04.6"
SYSTEM_TEXTS = {BURSTEIN_2008: "the 2008 Olympiad pairing rules", EXCHANGE_2022: "FIDE D.02 2022",
                SWISS_TEAM: "FIDE C.04.6 2026"}
ALL = frozenset(SYSTEM_TEXTS)
D02 = frozenset({BURSTEIN_2008, EXCHANGE_2022})


@dataclass(frozen=True)
class Switch:
    """A profile switch: the ``systems`` that read it, the ``rule`` it configures, and per other
    system the value that system follows anyway (``implied``)."""

    systems: frozenset[str]
    rule: str
    implied: dict[str, Any] = field(default_factory=dict)


SWITCHES: dict[str, Switch] = {
    "name": Switch(ALL, "a profile's name names its rules"),
    "version": Switch(ALL, "profile version"),
    "description": Switch(ALL, "free text"),
    "boards": Switch(ALL, "R-D1 boards per match; C.04.6 art. 1.4"),
    "reserves": Switch(ALL, "R-D1 reserves"),
    "rounds": Switch(ALL, "rounds of the event (C.04.1 a)"),
    "match_points": Switch(ALL, "R-D3 MP for win / draw / loss; TRF-2026 362"),
    "bye_award": Switch(ALL, "R-D9 / D.02 2022 art. 4.1 / C.04.6 art. 1.4 pairing-allocated bye"),
    "tiebreaks": Switch(ALL, "R-T1; C.07 2026 art. 4-16 (schemas.tiebreak_codes)"),
    "unplayed": Switch(ALL, "C.07 art. 16 / spec 6.3 unplayed rounds in tie-breaks"),
    "forfeited_match_in_tiebreaks": Switch(ALL, "a whole-match forfeit as a meeting in tie-breaks (Samarkand 2026)"),
    "acceleration": Switch(ALL, "R-A1..R-A3 (2008); C.04.7 (C.04.2 2026 art. 1.1): judged by value, ACCELERATIONS"),
    "acceleration_rounds": Switch(frozenset({BURSTEIN_2008}), "R-A1 rounds with imaginary MP (the 2008 constant only)"),
    "acceleration_mp": Switch(frozenset({BURSTEIN_2008}), "R-A1 imaginary MP (the 2008 constant only)"),
    "pairing_order": Switch(D02, "R-O1 / D.02 2022 art. 3.2 ranking for pairing",
                            {SWISS_TEAM: "mp-then-pairing-number"}),
    "early_round_group_order": Switch(D02, "A4 order inside a group in rounds 1-2"),
    "group_order": Switch(D02, "R-G2 / R-G3 score-group order"),
    "median_sides": Switch(D02, "R-G3 [I] which side of the median group first"),
    "group_pairing": Switch(D02, "R-W1..R-W4 (2008) or R-X1 (D.02 2022): which D.02 system"),
    "fold_from_round": Switch(D02, "R-W3 first round paired top v bottom"),
    "first_colour": Switch(ALL, "R-C1 the lot; C.04.6 art. 4.1 initial colour"),
    "first_round_colours": Switch(D02, "R-C1 [I] parity that spreads the lot in round 1"),
    "colour_limits": Switch(D02, "R-C3 / A7 colour limits (C.04.6 preface: C.04.1 arts. 6-7 never apply)"),
    "whole_forfeit_is_meeting": Switch(ALL, "R-D7 / A10; C.04.6 open reading A3/A9"),
    "bye_ineligible_after_forfeit_win": Switch(ALL, "R-P3 / R-B1; C.04.6 [C2] art. 2.1.2"),
    "bye_ineligible_late_entry": Switch(D02, "R-B1 / D.02 2022 art. 4.2.3 (C.04.6 has no such bar: art. 3.4.3)"),
    "early_round_conflicts": Switch(D02, "R-W2 [I] rematch in S1 v S2"),
    "fold_floater_meets": Switch(D02, "R-F2 [I] whom a downfloater meets in fold rounds"),
    "publication_order": Switch(D02, "R-B2 table order (C.04.6 orders its tables itself, art. 5)"),
    "seeding_floor_rating": Switch(ALL, "R-I2 rating of an unrated player"),
    "late_entry_numbers": Switch(ALL, "C.04.2 2026 late entries (provisional numbers) or stable numbers"),
    "swiss_team": Switch(frozenset({SWISS_TEAM}), "FIDE C.04.6 2026 (setting it chooses the system)"),
    "board_prize_min_games": Switch(ALL, "Olympiad board prizes: games played over the board (8 of 11)"),
    "unrated_opponent_rating": Switch(ALL, "FIDE B.02 rating performance: an unrated opponent's rating"),
    "feed_results": Switch(ALL, "a live feed's results: confirmed by the arbiter or recorded at once (docs/feeds.md)"),
    "draw_offers": Switch(ALL, "R-D6 draw offers before move 30 (founding document points 10-11)"),
    "draw_offers_source": Switch(ALL, "where the draw-offer rule comes from"),
    "default_time_s": Switch(ALL, "R-D5 default time (0: zero tolerance)"),
    "tiebreak_order_note": Switch(ALL, "free text"),
}
"""Every field of ``RuleProfile``: the systems that read it and its rule (docs/profiles.md prints it)."""


@dataclass(frozen=True)
class Acceleration:
    """An acceleration method: the ``systems`` it is approved for and its ``rule``."""

    systems: frozenset[str]
    rule: str


C047 = "C.04.7 Baku Acceleration Method (FIDE-approved accelerated systems, C.04.2 2026 art. 1.1)"
ACCELERATIONS: dict[str | None, Acceleration] = {
    None: Acceleration(ALL, "no acceleration"),
    "top-half": Acceleration(frozenset({BURSTEIN_2008}), "R-A1..R-A3 the 2008 Olympiad constant, A = floor(N/2)"),
    "baku-even": Acceleration(frozenset({BURSTEIN_2008}), "R-A3 variant B of the 2008 constant, A = 2 x ceil(N/4)"),
    "c04.7-baku": Acceleration(frozenset({SWISS_TEAM}), C047),
}

_NOT_APPROVED = {
    EXCHANGE_2022: "D.02 2022 art. 3.2: pairing by MP, then pairing number, with no virtual points (C.04.7 is "
                   "approved for the FIDE Swiss systems, C.04.2 2026 art. 1.1)",
    SWISS_TEAM: "C.04.2 2026 art. 1.1 (applied by the C.04.6 preface): only a FIDE-approved accelerated "
                "system, C.04.7; the 2008 constant is the olympiad-2008 rule (R-A1)",
    BURSTEIN_2008: "R-A1..R-A3: the 2008 rules accelerate by their own constant (top-half, baku-even); "
                   "C.04.7 is approved for the FIDE Swiss systems (C.04.2 2026 art. 1.1)",
}


def refusal(key: str, why: str, rule: str) -> ValueError:
    """The one form of a profile refusal: ``<switch>: <why> [rule: <rule>]`` (rendered by
    ``schemas.refusals``)."""
    return ValueError(f"{key}: {why} [rule: {rule}]")


def check_switches(values: dict[str, Any], defaults: dict[str, Any], system: str, primary: str) -> None:
    """Refuse a switch the profile's ``system`` does not honour: a value other than its default and
    other than what the system follows anyway (``SWITCHES``), an acceleration not approved for the
    system, the 2008 constant's rounds and MP without it, a C.04.7 acceleration on GP (its premise:
    the standard 1 / ½ / 0 scoring). ``values``/``defaults``: the profile's switches and the
    schema's defaults; ``primary``: "mp" or "gp". Raises ``ValueError`` naming the switch and rule."""
    text = SYSTEM_TEXTS[system]
    method = values["acceleration"]
    if system not in ACCELERATIONS[method].systems:
        raise refusal("acceleration", f"{method!r} is not an acceleration {text} applies", _NOT_APPROVED[system])
    if method == "c04.7-baku" and primary == "gp":
        raise refusal("acceleration", "the C.04.7 Baku method gives virtual points worth a won and a drawn match; with GP "
                      "primary a match has no such fixed worth", "C.04.7 premise: the standard scoring point system (1, ½, 0)")
    for key, switch in SWITCHES.items():
        if system in switch.systems or key not in values:
            continue
        value = values[key]
        if value == defaults.get(key) or (system in switch.implied and value == switch.implied[system]):
            continue
        if key in ("acceleration_rounds", "acceleration_mp"):
            why = ("C.04.7 fixes its own schedule (virtual points over the first half of the rounds)" if method
                   else "no acceleration is set")
            raise refusal(key, f"{value!r} is not read: {why}", "R-A1 (the 2008 constant only)" if not method else C047)
        raise refusal(key, f"{value!r} is not read by {text} (read by {', '.join(SYSTEM_TEXTS[s] for s in sorted(switch.systems))})",
                      switch.rule)
