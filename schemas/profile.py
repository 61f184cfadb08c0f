"""Rule profiles: named, versioned, documented configurations of the whole rule set.

A profile is recorded in full in the ``TournamentCreated`` event, so a replay runs exactly the
rules the event ran with. Every rule the spec marks [I] (inferred) is a named switch here
(see ``../shared/spec/README.md`` and ``docs/profiles.md``). Unknown switches are refused
(``extra="forbid"``), so a typo cannot silently fall back to a default.
"""
from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from schemas.points import Points
from schemas.profile_switches import BURSTEIN_2008, EXCHANGE_2022, SWISS_TEAM, check_switches
from schemas.tiebreak_codes import check_primary, check_tiebreak

# An Olympiad name ("OSB-C1", "BH-C1", "GP", "OSB", "BH") or a C.07 2026 code ("EMGSB/C1", "BH:GP/M1/P" ...):
# schemas.tiebreak_codes; a bad code is refused naming the code and the rule.
TieBreak = Annotated[str, AfterValidator(check_tiebreak)]
UnplayedPolicy = Literal["zero-element", "virtual-opponent", "dummy-2023", "dummy-2026"]


class MatchPointScale(BaseModel):
    """Match points (MP) for a won, drawn and lost match (R-D3: 2 / 1 / 0)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    win: Annotated[int, Field(strict=True, ge=0, le=10)] = 2
    draw: Annotated[int, Field(strict=True, ge=0, le=10)] = 1
    loss: Annotated[int, Field(strict=True, ge=0, le=10)] = 0

    @model_validator(mode="after")
    def _ordered(self) -> "MatchPointScale":
        if not self.win > self.draw >= self.loss:
            raise ValueError(f"match points win {self.win}, draw {self.draw}, loss {self.loss}: a win is worth more than "
                             "a draw, and a draw not less than a loss [rule: R-D3 match points]")
        return self


class Award(BaseModel):
    """Points awarded for an unplayed round: MP (integers) and GP (half-points)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    mp: Annotated[int, Field(strict=True, ge=0, le=10)]
    gp: Points


class SwissTeamRules(BaseModel):
    """The switches of the FIDE Swiss Team Pairing System (C.04.6, 2026 edition), read by
    ``projections.pairing.swiss_team``. A profile with ``swiss_team`` set is paired by C.04.6,
    not by D.02.

    ``colour_preferences``: art. 1.7, Type A (the default), Type B, or no colour preferences.
    ``primary_score``: art. 1.2, match points ("mp", the default) or game points ("gp"); the
    other one is the secondary score, used for colour allocation (art. 4.2.2) unless
    ``secondary_for_colours`` is false. The open readings of the text (spec swiss-team-c046.md
    section 2.3) are named switches, each defaulting to the reading of gacrux 1.11.65:
    ``typeb_last_round_ww`` (A1: Type B, last round, CD 0 after two equal colours: "strong"
    preference, or "none"), ``alternation_history`` (A12, art. 4.3.6: the "compressed" history of
    played matches, or "by-round"). Forfeits are never played matches here (A3/A9: for [C1],
    art. 3.4.3 and the colours), as ``whole_forfeit_is_meeting`` = False says for the whole profile.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    colour_preferences: Literal["type-a", "type-b", "none"] = "type-a"
    primary_score: Literal["mp", "gp"] = "mp"
    secondary_for_colours: bool = True
    typeb_last_round_ww: Literal["strong", "none"] = "strong"
    alternation_history: Literal["compressed", "by-round"] = "compressed"


D02_2022 = "D.02 2022"
PAIRING_SOURCES = {"burstein-2008": "2008 Olympiad pairing rules", "exchange-2022": D02_2022}
"""The rule source of each group pairing system: the Burstein-type pairing of the 2008 Olympiad
(Dresden; spec section 4, sources S1-S5: its articles are not numbered here, the spec rules R-*
are cited with the source's name) and the FIDE D.02 Olympiad Pairing Rules 2022 (cited by
article)."""
SWISS_TEAM_SOURCE = "C.04.6 2026"


class RuleProfile(BaseModel):
    """A complete, named rule configuration of a team Swiss event.

    Scoring and standings switches are read by ``processors.scoring`` and
    ``projections.standings``; pairing switches by ``projections.pairing``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, Field(min_length=1, max_length=64)]
    version: int = 1
    description: str = ""
    # --- team and event (R-D1)
    boards: Annotated[int, Field(strict=True, ge=1, le=20)] = 4
    reserves: Annotated[int, Field(strict=True, ge=0, le=5)] = 1
    rounds: Annotated[int, Field(strict=True, ge=1, le=99)] = 11
    # --- scoring (R-D2, R-D3, R-D9); a forfeited match (R-D8) is four forfeited boards: 4 GP, 2 MP
    match_points: MatchPointScale = MatchPointScale()
    bye_award: Award = Award(mp=1, gp=2)
    # --- standings (R-T1..R-T5, spec README "Standings as published at Samarkand 2026")
    tiebreaks: Annotated[tuple[TieBreak, ...], Field(min_length=1, max_length=12)] = ("OSB-C1", "BH-C1", "GP")
    unplayed: UnplayedPolicy = "virtual-opponent"
    # A whole-match forfeit counts as a meeting in the tie-breaks (Samarkand 2026 practice).
    forfeited_match_in_tiebreaks: bool = True
    # --- pairing (R-A*, R-O*, R-G*, R-W*, R-X1, R-F*, R-C*, R-B*); which system reads which switch:
    # schemas.profile_switches.SWITCHES. Acceleration: the 2008 constant ("top-half", "baku-even",
    # R-A1..R-A3) for the 2008 rules, the C.04.7 Baku method ("c04.7-baku") for C.04.6.
    acceleration: Literal["top-half", "baku-even", "c04.7-baku"] | None = "top-half"
    acceleration_rounds: int = 2
    acceleration_mp: int = 2
    pairing_order: Literal["standings", "mp-then-pairing-number"] = "standings"
    early_round_group_order: Literal["standings", "pairing-number"] = "standings"
    group_order: Literal["top-down", "median-first"] = "top-down"
    # R-G3 [I]: which side of the median group is paired first; with the round-wide lookahead the side
    # paired later gives up the pairings the median group needs (Samarkand 2026 round 2: "bottom-first").
    median_sides: Literal["top-first", "bottom-first"] = "top-first"
    group_pairing: Literal["burstein-2008", "exchange-2022"] = "burstein-2008"
    fold_from_round: int = 3
    first_colour: Literal["white", "black"] = "white"
    # R-C1 [I]: with no colour history, the higher-ranked team gets ``first_colour`` if its pairing number
    # ("pairing-number", spec section 5) or its table number ("table", Samarkand 2026 evidence) is odd.
    first_round_colours: Literal["pairing-number", "table"] = "pairing-number"
    colour_limits: Literal["soft", "absolute"] = "soft"
    # A match forfeited on every board is not a meeting and gives no colour (R-D7, A10).
    whole_forfeit_is_meeting: bool = False
    bye_ineligible_after_forfeit_win: bool = True
    # R-B1 (D.02 2022 art. 4.2.3): a team not paired in round 1 (a late entry) gets no bye.
    bye_ineligible_late_entry: bool = False
    # R-W2 [I]: rounds 1-2 conflict in S1 v S2: lexicographic S2 transpositions, or the R-X1 exchange order.
    early_round_conflicts: Literal["s2-transpositions", "exchange"] = "s2-transpositions"
    # R-F2 [I]: in fold rounds the downfloater meets the lowest-ranked resident it may meet (or the highest).
    fold_floater_meets: Literal["lowest", "highest"] = "lowest"
    # R-B2: tables by the higher-ranked team's place (ECU N.8.4.1), or D.02 2022 art. 11.1.
    publication_order: Literal["ranking", "d02-11.1"] = "ranking"
    seeding_floor_rating: int = 1000
    # --- individual results (projections.players): board prizes by rating performance, from this many
    # games played over the board (Chennai 2022: 8 of 11); an unrated opponent's rating in a rating
    # performance (None: the game is left out, FIDE B.02 Ra is the average of the rated opponents)
    board_prize_min_games: Annotated[int, Field(strict=True, ge=0, le=99)] = 8
    unrated_opponent_rating: Annotated[int, Field(strict=True, ge=0, le=3500)] | None = None
    # A late entry's pairing number: "c04.2" (C.04.2 2026, late entries: it takes its place in the
    # initial order, the numbers given at the start being provisional) or "stable" (it takes the next
    # free number, no team renumbered). Not given: the system's rule, C.04.2 for C.04.6 (a C.04 Swiss
    # system), "stable" for the Olympiad rules (D.02 2022 art. 3.1 numbers the teams once, 2008 alike).
    late_entry_numbers: Literal["c04.2", "stable"] = "c04.2"
    # --- FIDE C.04.6 (2026) Swiss Team pairing instead of D.02 when set (SwissTeamRules)
    swiss_team: SwissTeamRules | None = None
    tiebreak_order_note: str = Field(default="", description="free text: where the order comes from")
    # --- a live game feed (issue 29, ``processors.deciders.games``)
    # Results a feed reports become board results when the arbiter confirms them ("arbiter"), or at once ("automatic").
    feed_results: Literal["arbiter", "automatic"] = "arbiter"
    # Draw offers (R-D6): allowed any time ("none"), not before Black's 30th move ("black-30": a game drawn
    # before ply 60), not before the 31st move ("move-31": before ply 61); ``draw_offers_source`` cites the rule.
    draw_offers: Literal["none", "black-30", "move-31"] = "none"
    draw_offers_source: str = ""
    # Default time (R-D5): seconds a player may arrive after the start; 0 is zero tolerance.
    default_time_s: Annotated[int, Field(strict=True, ge=0, le=7200)] = 0

    @property
    def system(self) -> str:
        """The pairing system that reads this profile (``schemas.profile_switches``): "c04.6" when
        ``swiss_team`` is set, else the D.02 system of ``group_pairing`` ("burstein-2008",
        "exchange-2022")."""
        if self.swiss_team is not None:
            return SWISS_TEAM
        return BURSTEIN_2008 if self.group_pairing == "burstein-2008" else EXCHANGE_2022

    @property
    def primary_score(self) -> Literal["mp", "gp"]:
        """The score that decides standings and pairing: "mp" (match points), or "gp" (game points)
        when a C.04.6 profile says so (``swiss_team.primary_score``, art. 1.2); D.02 and the 2008
        rules decide on MP (R-D3, R-T1)."""
        return self.swiss_team.primary_score if self.swiss_team is not None else "mp"

    @property
    def pairing_source(self) -> str:
        """The rule text this profile's pairing system follows, as its explanations cite it
        (``PAIRING_SOURCES`` by ``group_pairing``; C.04.6 when ``swiss_team`` is set)."""
        return SWISS_TEAM_SOURCE if self.swiss_team is not None else PAIRING_SOURCES[self.group_pairing]

    @model_validator(mode="before")
    @classmethod
    def _system_defaults(cls, data: Any) -> Any:
        """``late_entry_numbers`` not given: the system's rule (C.04.2 for C.04.6, stable numbers
        for the Olympiad rules)."""
        if isinstance(data, dict) and "late_entry_numbers" not in data:
            data = {**data, "late_entry_numbers": "c04.2" if data.get("swiss_team") is not None else "stable"}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> "RuleProfile":
        """Rules of the profile itself: a bye is worth at most a won match; acceleration needs
        a win worth two draws (C.04.7 art. 1.1: the virtual points are a won and a drawn match);
        every switch is one the profile's system honours (``schemas.profile_switches``); no Olympiad
        Buchholz name under GP primary (``schemas.tiebreak_codes.check_primary``)."""
        if self.bye_award.mp > self.match_points.win or self.bye_award.gp > self.boards:
            raise ValueError(f"bye award {self.bye_award.mp} MP, {self.bye_award.gp} GP: at most a won match "
                             f"({self.match_points.win} MP, {self.boards} GP) [rule: R-D9 bye award]")
        if self.acceleration is not None and self.match_points.win != 2 * self.match_points.draw:
            raise ValueError(f"acceleration {self.acceleration!r} with a win worth {self.match_points.win} MP and a draw "
                             f"{self.match_points.draw}: a win must be worth two draws [rule: C.04.7 art. 1.1]")
        check_primary(self.tiebreaks, self.primary_score)
        fields = type(self).model_fields
        check_switches({k: getattr(self, k) for k in fields}, {k: f.default for k, f in fields.items()}, self.system,
                       self.primary_score)
        return self


OLYMPIAD_2008 = RuleProfile(
    name="olympiad-2008",
    description=(
        "38th Olympiad, Dresden 2008 (founding document): MP 2/1/0; accelerated rounds 1-2 "
        "(+2 imaginary MP to the top half); Burstein-type pairing (S1 v S2 in rounds 1-2, "
        "fold from round 3); standings MP, OSB-C1, BH-C1, GP; unplayed rounds as a virtual "
        "opponent (pre-2023 C.07)."
    ),
    tiebreaks=("OSB-C1", "BH-C1", "GP"),
    unplayed="virtual-opponent",
    acceleration="top-half",
    pairing_order="standings",
    group_order="top-down",
    group_pairing="burstein-2008",
    tiebreak_order_note="FIDE news item 2008 (S1), spec R-T1",
    draw_offers="black-30",
    draw_offers_source="R-D6: founding document points 10-11 (no draw offers before Black's 30th move; S2, S25)",
)

OLYMPIAD_2022 = RuleProfile(
    name="olympiad-2022",
    description=(
        "FIDE D.02 Olympiad Pairing Rules 2022 (Chennai 2022, Budapest 2024, Samarkand 2026): "
        "no acceleration; pairing order MP then pairing number; median-first group order; "
        "exchange order R-X1; standings MP, OSB-C1, GP, BH-C1 as published at Samarkand 2026, "
        "a round without an opponent being one element worth 0."
    ),
    tiebreaks=("OSB-C1", "GP", "BH-C1"),
    unplayed="zero-element",
    acceleration=None,
    pairing_order="mp-then-pairing-number",
    early_round_group_order="pairing-number",
    group_order="median-first",
    median_sides="bottom-first",
    first_round_colours="table",
    group_pairing="exchange-2022",
    fold_from_round=99,
    bye_ineligible_late_entry=True,
    early_round_conflicts="exchange",
    fold_floater_meets="highest",
    publication_order="d02-11.1",
    tiebreak_order_note="Samarkand 2026 regulations appendix 2.I (S27), checked against the official ranks",
)


def _swiss_team(name: str, colours: str, text: str) -> RuleProfile:
    return RuleProfile(
        name=name,
        description=(
            f"FIDE Swiss Team Pairing System C.04.6 (2026 edition, in force from 1 Feb 2026), {text}: "
            "primary score MP (2/1/0), secondary GP; PAB = drawn MP and drawn GP (1 MP, 2 GP, art. 1.4); "
            "brackets of the top scoregroup and upfloaters only, criteria C1-C10, colours by art. 4."
        ),
        acceleration=None,
        pairing_order="mp-then-pairing-number",
        bye_award=Award(mp=1, gp=2),
        bye_ineligible_after_forfeit_win=True,
        whole_forfeit_is_meeting=False,
        swiss_team=SwissTeamRules(colour_preferences=colours),
        tiebreak_order_note="C.04.6 leaves the tie-breaks to the regulations of the competition",
    )


SWISS_TEAM_2026 = _swiss_team("swiss-team-2026", "type-a", "Type A colour preferences (art. 1.7.1)")
SWISS_TEAM_2026_TYPEB = _swiss_team("swiss-team-2026-typeb", "type-b", "Type B colour preferences (art. 1.7.2)")
SWISS_TEAM_2026_NOCOLOUR = _swiss_team("swiss-team-2026-nocolour", "none", "no colour preferences (art. 1.7)")

PROFILES: dict[str, RuleProfile] = {
    p.name: p for p in (OLYMPIAD_2008, OLYMPIAD_2022, SWISS_TEAM_2026, SWISS_TEAM_2026_TYPEB, SWISS_TEAM_2026_NOCOLOUR)
}


def get_profile(name: str) -> RuleProfile:
    """Return the built-in profile ``name``; raises ``KeyError`` listing the known names."""
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown rule profile {name!r}; known: {', '.join(sorted(PROFILES))}") from None


def with_rounds(profile: RuleProfile, rounds: int) -> RuleProfile:
    """``profile`` played over ``rounds`` rounds, named ``<name>-<rounds>-rounds`` (a club's 5-round
    event under olympiad-2022 is ``olympiad-2022-5-rounds``); ``profile`` itself when it already has
    that many. The one naming of every door (``olympiad new --rounds``, ``olympiad simulate``).
    Raises ``pydantic.ValidationError`` for a round count the profile schema refuses (below 1)."""
    if rounds == profile.rounds:
        return profile
    return RuleProfile.model_validate({**profile.model_dump(), "rounds": rounds, "name": f"{profile.name}-{rounds}-rounds"})


def named(profile: RuleProfile) -> RuleProfile:
    """``profile`` under a name that names its rules: a built-in profile's name kept with other
    rules becomes ``<name>-variant-<first 8 hex of the SHA-256 of its canonical JSON>``, so that a
    replay never mistakes it for the built-in (a profile's name names its rules)."""
    builtin = PROFILES.get(profile.name)
    if builtin is None or builtin == profile:
        return profile
    text = json.dumps(profile.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return profile.model_copy(update={"name": f"{profile.name}-variant-{hashlib.sha256(text.encode()).hexdigest()[:8]}"})
