"""Profiles as FIDE writes them (issue 28): each case worked by hand from the article it cites.

Tournaments are built from real events (``tests.factories``) and run through the real standings,
tie-break grammar and profile schema."""
from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

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
