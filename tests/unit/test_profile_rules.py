"""Profiles as FIDE writes them (issue 28): each case worked by hand from the article it cites.

Tournaments are built from real events (``tests.factories``) and run through the real standings,
tie-break grammar and profile schema."""
from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from processors.tournament import TournamentState
from projections.history import build_history
from projections.standings import compute_standings
from projections.standings.catalogue import C07Context
from projections.standings.decided_by import decided_by
from projections.trf import export_trf
from schemas.profile import SWISS_TEAM_2026, RuleProfile, SwissTeamRules
from schemas.tiebreak_codes import parse_tiebreak
from tests.factories import created, match, paired, team

# White-Black codes of boards 1-4, the home team White on boards 1 and 3 (R-D4).
HOME_2_5 = ("1-0", "1/2-1/2", "1-0", "1-0")  # home 1 + 0.5 + 1 + 0 = 2.5, away 1.5
HOME_4_0 = ("1-0", "0-1", "1-0", "0-1")
DRAW_2_2 = ("1-0", "1-0", "1-0", "1-0")  # home wins boards 1 and 3, away 2 and 4


def gp_primary(*tiebreaks: str) -> RuleProfile:
    """swiss-team-2026 with game points primary (C.04.6 art. 1.2) and ``tiebreaks``."""
    return RuleProfile.model_validate({**SWISS_TEAM_2026.model_dump(), "name": "gp-primary", "tiebreaks": tiebreaks,
                                       "swiss_team": SwissTeamRules(primary_score="gp")})


def state_of(events: list) -> TournamentState:
    state = TournamentState()
    for e in events:
        state.evolve(e)
    return state


def gp_primary_events(profile: RuleProfile) -> list:
    """A, B, C, D. Round 1: A-C 2.5-1.5, B-D 4-0. Round 2: A-B 2.5-1.5, C-D 2-2.
    A: 4 MP, 5 GP. B: 2 MP, 5.5 GP. C: 1 MP, 3.5 GP. D: 1 MP, 2 GP."""
    return [created(profile), *(team(c, n) for n, c in enumerate("ABCD", start=1)),
            paired(1, [("A", "C"), ("B", "D")]), *match(1, 1, HOME_2_5), *match(1, 2, HOME_4_0),
            paired(2, [("A", "B"), ("C", "D")]), *match(2, 1, HOME_2_5), *match(2, 2, DRAW_2_2)]


def test_gp_primary_ranks_by_game_points_and_mpvgp_is_the_match_points():
    """C.04.6 art. 1.2: GP primary. B (5.5 GP) above A (5 GP) although A has 4 MP to B's 2; C.07 2026
    art. 13.1: MPVGP is the score that does not decide the competition, here MP: A 4, B 2."""
    state = state_of(gp_primary_events(gp_primary("MPVGP")))
    rows = compute_standings(build_history(state), state.profile)
    assert [(r.team_id, r.mp, r.gp) for r in rows] == [("B", 2, Decimal("5.5")), ("A", 4, Decimal(5)),
                                                        ("C", 1, Decimal("3.5")), ("D", 1, Decimal(2))]
    assert {r.team_id: r.tiebreaks["MPVGP"] for r in rows} == {"B": 2, "A": 4, "C": 1, "D": 1}
    assert decided_by(rows, state.profile.tiebreaks, "GP") == [None, "GP", "GP", "GP"]


def test_gp_primary_is_the_score_of_an_unselected_buchholz():
    """C.07 2026 art. 13 preamble: a tie-break without :MP/:GP is on the primary score. With GP primary,
    BH/C1 = BH:GP/C1: A met C (3.5) and B (5.5), the lowest cut: 5.5; with MP primary BH/C1 = BH:MP/C1:
    C 1, B 2, cut 1: 2. (The Olympiad name ``BH`` keeps its definition: BH:MP.)"""
    state = state_of(gp_primary_events(gp_primary("BH/C1")))
    ctx = C07Context(build_history(state), state.profile)
    assert [ctx.value(c, "A") for c in ("BH/C1", "BH:GP/C1", "BH:MP/C1", "BH")] == [Decimal("5.5"), Decimal("5.5"), 2, 3]
    mp_ctx = C07Context(build_history(state), SWISS_TEAM_2026)
    assert mp_ctx.value("BH/C1", "A") == 2


def test_gp_primary_is_written_in_the_trf_export():
    """TRF-2026 212 lists the primary score first (GPTS), 192 encodes GP primary."""
    text = export_trf(gp_primary_events(gp_primary("MPVGP")))
    records = {line[:3]: line for line in text.splitlines()}
    assert records["212"] == "212 GPTS,MPVGP" and records["192"].startswith("192 FIDE_TEAM_TYPEA_GP")


def test_win_takes_the_match_point_selector_only():
    """C.07 2026 art. 7.1: WIN counts matches won; WIN:MP is WIN, WIN:GP means nothing."""
    assert parse_tiebreak("WIN:MP").text == "WIN:MP"
    assert RuleProfile(name="wins", tiebreaks=("win:mp",)).tiebreaks == ("WIN:MP",)
    with pytest.raises(ValueError, match=r"WIN takes only :MP .*\[rule: C\.07 2026 art\. 7\.1\]"):
        parse_tiebreak("WIN:GP")


@pytest.mark.parametrize("typed", ["BH:MP/P/C1", "BH:MP/C1/P", "bh:mp/p/c1"])
def test_one_tie_break_has_one_printed_name(typed):
    """TRF-2026 202/212 order ACRONYM[:MP|:GP][/Cn|/Mn][/P][/F][/Kx]: any order in, one form out, in the
    profile (hence replay, standings keys and the TRF records)."""
    assert parse_tiebreak(typed).text == "BH:MP/C1/P"
    assert RuleProfile(name="x", tiebreaks=(typed,)).tiebreaks == ("BH:MP/C1/P",)
    assert parse_tiebreak("SSSC/K5/P/F").text == "SSSC/P/F/K5"


@pytest.mark.parametrize("code", ["BH:MP/C1/C1", "BH/P/P", "SSSC/F/F"])
def test_a_repeated_modifier_is_refused(code):
    with pytest.raises(ValueError, match=r"\[rule: C\.07 2026 art\. 14\]"):
        parse_tiebreak(code)


@pytest.mark.parametrize("code,article", [("EGMSB/M1", "13.2.3"), ("EMGSB/M2", "13.2.2"), ("EMMSB/M1", "13.2.1")])
def test_a_median_on_an_extended_sonneborn_berger_is_refused(code, article):
    """C.07 2026 art. 13.2 with art. 14: the extended SB takes cuts only (EGMSB/C1 stays legal)."""
    with pytest.raises(ValueError, match=rf"takes cut modifiers only, no median \[rule: C\.07 2026 art\. 14; C\.07 2026 art\. {article}\]"):
        parse_tiebreak(code)
    with pytest.raises(ValidationError, match="no median"):
        RuleProfile(name="x", tiebreaks=(code,))
    assert parse_tiebreak(code.split("/")[0] + "/C1").cut == 1


def board_count_events() -> list:
    """A, B, C (+ D, E, F below them): round 1 A-D, B-E, C-F, each home team winning.
    Hand values, home White on boards 1 and 3:
    A v D ("1-0", "0-1", "1-0", "1/2-1/2"): A 1 + 1 + 1 + 0.5 = 3.5 on boards 1, 2, 3, 4 -> GP 3.5,
      BC = 1x1 + 2x1 + 3x1 + 4x0.5 = 8;
    B v E ("1-0", "0-1", "1/2-1/2", "1/2-1/2"): B 1 + 1 + 0.5 + 0.5 = 3 -> GP 3, BC = 1 + 2 + 1.5 + 2 = 6.5;
    C v F ("1/2-1/2", "0-1", "1-0", "1/2-1/2"): C 0.5 + 1 + 1 + 0.5 = 3 -> GP 3, BC = 0.5 + 2 + 3 + 2 = 7.5.
    All three win: 2 MP each."""
    return [created(RuleProfile.model_validate({**SWISS_TEAM_2026.model_dump(), "name": "bc", "tiebreaks": ("BC",)})),
            *(team(c, n) for n, c in enumerate("ABCDEF", start=1)),
            paired(1, [("A", "D"), ("B", "E"), ("C", "F")]),
            *match(1, 1, ("1-0", "0-1", "1-0", "1/2-1/2")), *match(1, 2, ("1-0", "0-1", "1/2-1/2", "1/2-1/2")),
            *match(1, 3, ("1/2-1/2", "0-1", "1-0", "1/2-1/2"))]


def test_board_count_compares_only_teams_equal_on_game_points():
    """C.07 2026 art. 12.1 (and 13.3.2: art. 12 for teams "tied on both MP and GP"): among A (3.5 GP),
    B and C (3 GP each), all on 2 MP, BC does not separate teams of different GP: they stay tied,
    shown blank, and the pairing number lists them (A 1, B 2, C 3): one shared place."""
    state = state_of(board_count_events())
    rows = compute_standings(build_history(state), state.profile)
    top = [(r.rank, r.team_id, r.tiebreaks["BC"]) for r in rows[:3]]
    assert top == [(1, "A", ()), (1, "B", ()), (1, "C", ())]
    ctx = C07Context(build_history(state), state.profile)
    assert [ctx.value("BC", t) for t in "ABC"] == [Decimal(8), Decimal("6.5"), Decimal("7.5")]
    assert ctx.board_count_of_group(["B", "C"]) == {"B": Decimal("6.5"), "C": Decimal("7.5")}


def test_board_count_ranks_teams_equal_on_game_points_lower_first():
    """Two teams of 3 GP, 2 MP: C.07 12.1, the lower BC first: B (6.5) above C (7.5)."""
    events = board_count_events()
    state = state_of([*events[:7], paired(1, [("B", "E"), ("C", "F")], absent=("A", "D")),
                      *match(1, 1, ("1-0", "0-1", "1/2-1/2", "1/2-1/2")), *match(1, 2, ("1/2-1/2", "0-1", "1-0", "1/2-1/2"))])
    rows = compute_standings(build_history(state), state.profile)
    assert [(r.rank, r.team_id, r.tiebreaks["BC"]) for r in rows[:2]] == [(1, "B", Decimal("6.5")), (2, "C", Decimal("7.5"))]


# ---------------------------------------------------------------------- accelerations (C.04.7, R-A1)
def swiss(**update) -> RuleProfile:
    return RuleProfile.model_validate({**SWISS_TEAM_2026.model_dump(), "name": "swiss", **update})


@pytest.mark.parametrize("method", ["top-half", "baku-even"])
def test_the_2008_constant_is_refused_under_c046(method):
    """C.04.2 (2026) art. 1.1, applied by the C.04.6 preface: only a FIDE-approved accelerated system
    (C.04.7); the +2 MP constant is the olympiad-2008 rule."""
    with pytest.raises(ValidationError, match=r"acceleration: .* \[rule: C\.04\.2 2026 art\. 1\.1"):
        swiss(acceleration=method)


def test_d02_2022_takes_no_acceleration():
    """A D.02 profile under its own name with an acceleration: refused (D.02 2022 pairs by MP, then
    pairing number: art. 3.2), whichever method."""
    from schemas.profile import OLYMPIAD_2022
    for method in ("top-half", "c04.7-baku"):
        with pytest.raises(ValidationError, match=r"\[rule: D\.02 2022 art\. 3\.2"):
            RuleProfile.model_validate({**OLYMPIAD_2022.model_dump(), "name": "club-d02", "acceleration": method})


def test_c047_is_refused_for_the_2008_rules_and_with_gp_primary():
    from schemas.profile import OLYMPIAD_2008
    with pytest.raises(ValidationError, match=r"\[rule: R-A1\.\.R-A3: the 2008 rules accelerate by their own constant"):
        RuleProfile.model_validate({**OLYMPIAD_2008.model_dump(), "name": "x", "acceleration": "c04.7-baku"})
    with pytest.raises(ValidationError, match=r"\[rule: C\.04\.7 premise"):
        swiss(acceleration="c04.7-baku", tiebreaks=("MPVGP",), swiss_team=SwissTeamRules(primary_score="gp"))
    with pytest.raises(ValidationError, match=r"acceleration_rounds: 3 is not read: C\.04\.7 fixes its own schedule"):
        swiss(acceleration="c04.7-baku", acceleration_rounds=3)


def test_a_d02_switch_is_refused_under_c046():
    """C.04.6 does not read the D.02 switches: a value other than the default is refused with its rule;
    the value C.04.6 follows anyway (pairing order MP then pairing number) is accepted."""
    with pytest.raises(ValidationError, match=r"group_order: 'median-first' is not read by FIDE C\.04\.6 2026 .*\[rule: R-G2 / R-G3"):
        swiss(group_order="median-first")
    assert swiss(pairing_order="mp-then-pairing-number").system == "c04.6"


def test_creation_judges_a_profile_built_without_validation():
    """``model_copy(update=...)`` skips pydantic's validation: the create decider judges the profile whole."""
    from processors.deciders.tournament import resolve_profile
    from processors.tournament import RuleViolation
    with pytest.raises(RuleViolation, match=r"acceleration: 'top-half'") as exc:
        resolve_profile(SWISS_TEAM_2026.model_copy(update={"name": "x", "acceleration": "top-half"}))
    assert exc.value.field == "profile" and exc.value.rule.startswith("C.04.2 2026 art. 1.1")


def test_baku_schedule_and_groups_as_c047_writes_them():
    """C.04.7: accelerated rounds = the first half, rounded up; full virtual points in the first half of
    those, rounded up, half after. 9 rounds: 5 accelerated, 1 point in rounds 1-3, 0.5 in 4-5 (the
    article's example): in MP 2/1/0, 2 MP then 1 MP. GA = 2 x ceil(N / 4): 161 players -> 82."""
    from projections.pairing.acceleration import baku_points, baku_schedule
    assert baku_schedule(9) == (5, 3) and baku_schedule(11) == (6, 3) and baku_schedule(5) == (3, 2)
    nine = swiss(acceleration="c04.7-baku", rounds=9)
    assert [baku_points(nine, r) for r in range(1, 10)] == [2, 2, 2, 1, 1, 0, 0, 0, 0]
    assert 2 * -(-161 // 4) == 82


def test_c047_accelerates_the_c046_pairing_of_round_one():
    """8 teams, 5 rounds, c04.7-baku: GA = TPN 1-4 (2 x ceil(8/4)) with 2 virtual MP in round 1. The top
    scoregroup is 1-4: C.04.6 art. 3.6 takes the first identifier in lexicographic order, tops 1, 2 and
    bottoms 3, 4: 1-3, 2-4; then 5-7, 6-8. Unaccelerated the one bracket gives 1-5, 2-6, 3-7, 4-8. The
    trace says the acceleration."""
    from projections.pairing.systems import propose_pairing

    def pairs(profile: RuleProfile) -> tuple[set, tuple]:
        state = state_of([created(profile), *(team(f"T{n}", n) for n in range(1, 9))])
        p = propose_pairing(build_history(state), state.profile, 1)
        return {frozenset((int(t.home[1:]), int(t.away[1:]))) for t in p.tables}, p.trace

    accelerated, trace = pairs(swiss(acceleration="c04.7-baku", rounds=5))
    assert accelerated == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}
    assert any("C.04.7 Baku acceleration, round 1 (3 accelerated rounds): GA = TPN 1-4 (4 teams), 2 virtual MP each"
               in str(line) for line in trace)
    plain, _ = pairs(swiss(rounds=5))
    assert plain == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))}


# ---------------------------------------------------------------------- late entries (C.04.2)
def rated(code: str, rating: int, from_round: int | None = None):
    """Team ``code`` without a start-list number (R-I1 numbers it), its players rated ``rating`` - 10 x board."""
    return team(code, 1, rating).model_copy(update={"pairing_number": None, "from_round": from_round})


def late_entry_events(profile: RuleProfile) -> list:
    """Six teams A..F rated 2600 .. 2100 (R-I1: A 1 .. F 6) and the latecomer L (2450, between B 2500
    and C 2400) registered to play from round 2. Round 1: C absent (the pairing lists it), five teams
    to pair: A-D, B-E, F the PAB."""
    return [created(profile), *(rated(c, r) for c, r in zip("ABCDEF", (2600, 2500, 2400, 2300, 2200, 2100))),
            rated("L", 2450, from_round=2),
            paired(1, [("A", "D"), ("B", "E")], bye="F", absent=("C",)),
            *match(1, 1, HOME_2_5), *match(1, 2, HOME_2_5)]


def test_a_late_entry_takes_its_place_in_the_initial_order_by_c042():
    """C.04.2 (2026) late entries, the default of C.04.6: L, rated between the 2nd (B) and the 3rd (C),
    is given pairing number 3; C..F move down to 4..7. With ``late_entry_numbers`` "stable" it takes
    the next free number, 7, and nobody moves."""
    from projections.seeding import tournament_pairing_numbers
    c042 = state_of(late_entry_events(SWISS_TEAM_2026))
    assert c042.profile.late_entry_numbers == "c04.2"
    assert tournament_pairing_numbers(c042) == {"A": 1, "B": 2, "L": 3, "C": 4, "D": 5, "E": 6, "F": 7}
    stable = state_of(late_entry_events(swiss(late_entry_numbers="stable")))
    assert tournament_pairing_numbers(stable) == {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6, "L": 7}


def test_the_olympiad_profiles_keep_stable_numbers():
    """The Olympiad rules number the teams once (D.02 2022 art. 3.1; 2008 alike): a profile of theirs
    that does not say otherwise has stable numbers; it may choose C.04.2."""
    from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022
    assert OLYMPIAD_2008.late_entry_numbers == OLYMPIAD_2022.late_entry_numbers == "stable"
    assert RuleProfile.model_validate({**OLYMPIAD_2022.model_dump(), "name": "o", "late_entry_numbers": "c04.2"}).late_entry_numbers == "c04.2"


def test_not_yet_entered_is_its_own_state():
    """Round 1: C announced absent keeps its number (4 by C.04.2) and is "absent"; L is "not-entered"
    (not in the tournament yet): in the history, the pairings view, the trace of round 1's pairing,
    and the TRF export (240 Z names C only; L's first round is in its comment)."""
    from projections.views.matches import pairings_view
    from projections.views.snapshot import Snapshot
    events = late_entry_events(SWISS_TEAM_2026)
    state = state_of(events)
    history = build_history(state)
    assert (history.rounds[1]["C"].kind, history.rounds[1]["L"].kind) == ("absent", "not-entered")
    assert history.teams["C"].pairing_number == 4
    view = pairings_view(Snapshot(state=state, standings={}), 1)
    assert [t["team_id"] for t in view["absent"]] == ["C"] and [t["team_id"] for t in view["not_entered"]] == ["L"]
    zed = [line for line in export_trf(events).splitlines() if line.startswith("240 Z")]
    assert zed == ["240 Z 001 0004"]
    assert [r.team_id for r in compute_standings(history, state.profile)].count("L") == 0
    from projections.pairing.systems import propose_pairing
    before = state_of(events[:8])
    first = propose_pairing(build_history(before), before.profile, 1, absent=("C",))
    assert "(absent: C) (not yet entered: L)" in str(first.trace[0])


# ---------------------------------------------------------------------- the tables of the docs
def test_every_switch_and_code_is_in_the_tables_with_its_rule():
    """``schemas.profile_switches.SWITCHES`` names every field of the profile; docs/profiles.md lists each
    with the systems that read it, docs/tiebreaks.md each code of the C.07 grammar with its article."""
    from pathlib import Path

    from schemas.profile_switches import SWITCHES
    from schemas.tiebreak_codes import CATALOGUE
    docs = Path(__file__).resolve().parents[2] / "docs"
    assert set(SWITCHES) == set(RuleProfile.model_fields)
    profiles = (docs / "profiles.md").read_text()
    assert [k for k, s in SWITCHES.items() if f"| `{k}` | " not in profiles or s.rule not in profiles] == []
    tiebreaks = (docs / "tiebreaks.md").read_text()
    assert [c for c, r in CATALOGUE.items() if f"| `{c}` | {r.article.removeprefix('C.07 2026 ')} |" not in tiebreaks] == []


# ---------------------------------------------------------------------- Buchholz names under GP primary
BH_RULE = r"\[rule: C\.07 2026 art\. 13 preamble \(a team tie-break is computed on the primary score unless :MP or :GP is stated\) and art\. 8\.1"


@pytest.mark.parametrize(("name", "on_mp", "on_gp"), [("BH-C1", "BH:MP/C1", "BH:GP/C1"), ("BH", "BH:MP", "BH:GP")])
def test_an_olympiad_buchholz_name_is_refused_with_gp_primary(name, on_mp, on_gp):
    """The Olympiad names BH and BH-C1 are Buchholz on the opponents' MP (R-T4); under GP primary C.07
    reads a Buchholz that names no score on GP: the profile must say which (the parser refuses,
    naming both codes and the rule). The same names with MP primary, and the codes that name their
    score (or the C.07 BH/C1, on the primary score), are kept."""
    with pytest.raises(ValidationError) as refused:
        gp_primary("OSB-C1", name, "GP")
    text = str(refused.value)
    assert re.search(rf"tiebreaks: '{name}' is the Olympiad name of Buchholz on the opponents' match points \({on_mp}\); "
                     rf"with game points primary .* so write {on_mp} or {on_gp} {BH_RULE}", text), text
    assert gp_primary("OSB-C1", on_mp, on_gp, "BH/C1").tiebreaks == ("OSB-C1", on_mp, on_gp, "BH/C1")
    assert swiss(tiebreaks=("OSB-C1", name)).tiebreaks == ("OSB-C1", name)


def test_new_refuses_a_gp_primary_profile_with_bh_c1(tmp_path):
    """The CLI door (``olympiad new --profile-file``): refused with exit 2, the field and the rule, and no
    tournament created; the same profile naming BH:GP/C1 is created."""
    from olympiad.cli import app

    profile = {**SWISS_TEAM_2026.model_dump(mode="json"), "name": "club-gp", "tiebreaks": ["OSB-C1", "BH-C1"],
               "swiss_team": {**SWISS_TEAM_2026.swiss_team.model_dump(mode="json"), "primary_score": "gp"}}
    path = tmp_path / "gp.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    env = {"OLYMPIAD_DB": f"sqlite:///{tmp_path / 'gp.sqlite'}", "COLUMNS": "400"}
    refused = CliRunner().invoke(app, ["new", "gp-cup", "--name", "GP Cup", "--profile-file", str(path), "--no-key"], env=env)
    out = " ".join(refused.output.split())
    assert refused.exit_code == 2, out
    assert "refused: command CreateTournament: profile: tiebreaks: 'BH-C1' is the Olympiad name of Buchholz" in out, out
    assert "[rule: C.07 2026 art. 13 preamble" in out and "art. 8.1 (Buchholz on MP or GP)]" in out, out
    profile["tiebreaks"] = ["OSB-C1", "BH:GP/C1"]
    path.write_text(json.dumps(profile), encoding="utf-8")
    made = CliRunner().invoke(app, ["new", "gp-cup", "--name", "GP Cup", "--profile-file", str(path), "--no-key"], env=env)
    assert made.exit_code == 0, made.output
    from projections.store import EventStore
    assert EventStore(env["OLYMPIAD_DB"]).state.profile.tiebreaks == ("OSB-C1", "BH:GP/C1")
