"""The worked examples of the spec (olympiad-rules.md section 5 and the section 10 checklist),
and the D.02 2022 handbook examples (S11), as exact pairings and colours."""
from __future__ import annotations

from decimal import Decimal

import pytest

from producers.simulator import publish, record_match
from projections.history import build_history
from projections.pairing import propose_pairing
from projections.pairing.colours import ColourHistory, allocate
from projections.pairing.constraints import Constraints
from projections.pairing.entrants import build_entrants
from projections.pairing.exchange import all_in_exchange_order, exchange_candidates
from projections.pairing.score_groups import median_score
from projections.pairing.subgroup import pair_subgroup
from projections.pairing.trace import Trace
from projections.standings import compute_standings
from schemas.profile import D02_2022, OLYMPIAD_2008, OLYMPIAD_2022
from test_pairing_helpers import as_pairs, field, games, override, play_round, synthetic

P2008 = OLYMPIAD_2008
OPTION_P = OLYMPIAD_2008.model_copy(update={"early_round_group_order": "pairing-number"})
BAKU = OLYMPIAD_2008.model_copy(update={"acceleration": "baku-even"})


def _halves(first: range, second: range) -> set[frozenset[str]]:
    return {frozenset((f"T{a}", f"T{b}")) for a, b in zip(first, second)}


# --- spec 5 scale checks, checklist 1 (R-A3, R-W1) --------------------------------------------

@pytest.mark.parametrize("n, top, bottom", [(120, 60, 60), (100, 50, 50)])
def test_round_one_scale_checks(n: int, top: int, bottom: int) -> None:
    """120 teams: 1-31 ... 30-60, 61-91 ... 90-120; 100 teams: 1-26 ... 25-50, 51-76 ... 75-100."""
    state = field(P2008, n)
    pairing = propose_pairing(build_history(state, 0), P2008, 1)
    half = top // 2
    expected = _halves(range(1, half + 1), range(half + 1, top + 1)) | _halves(
        range(top + 1, top + bottom // 2 + 1), range(top + bottom // 2 + 1, n + 1))
    assert pairing.pairs() == expected
    assert pairing.bye is None


@pytest.mark.parametrize("profile", [OPTION_P, P2008], ids=["option-P", "option-S"])
def test_round_two_when_every_higher_seed_won_by_the_same_score(profile) -> None:
    """Round 2 of 120 teams, every higher seed winning 2.5-1.5: 1-16 ... 15-30, 31-61 ... 60-90,
    91-106 ... 105-120 (spec 5; option P as written, option S gives the same pairs)."""
    state = field(profile, 120)
    first = propose_pairing(build_history(state, 0), profile, 1)
    publish(state, first)
    for t in first.tables:
        higher_is_home = int(t.home[1:]) < int(t.away[1:])
        record_match(state, 1, t.table, "2.5" if higher_is_home else "1.5")
    pairing = propose_pairing(build_history(state, 1), profile, 2)
    expected = _halves(range(1, 16), range(16, 31)) | _halves(range(31, 61), range(61, 91)) | _halves(range(91, 106), range(106, 121))
    assert pairing.pairs() == expected


def test_imaginary_points_are_gone_at_round_three_and_never_in_standings() -> None:
    """Checklist 4 (R-A1, R-A2): imaginary MP count in the pairing score of rounds 1-2 only."""
    state = field(P2008, 20)
    for rnd in (1, 2):
        history = build_history(state, rnd - 1)
        entrants = {e.team_id: e for e in build_entrants(history, P2008, rnd)}
        assert entrants["T1"].imaginary == 2 and entrants["T1"].score == entrants["T1"].mp + 2
        assert entrants["T11"].imaginary == 0
        play_round(state, P2008, rnd)
        standings = {row.team_id: row.mp for row in compute_standings(build_history(state, rnd), P2008)}
        real = {t: sum(tr.mp for tr in build_history(state, rnd).team_rounds(t)) for t in state.teams}
        assert standings == real
    third = build_entrants(build_history(state, 2), P2008, 3)
    assert all(e.imaginary == 0 and e.score == e.mp for e in third)
    pairing = propose_pairing(build_history(state, 2), P2008, 3)
    assert not any("imaginary" in line for line in pairing.trace)


# --- spec 5, 10 teams, checklist 2 and 3 -------------------------------------------------------

def test_ten_teams_round_one_variant_l() -> None:
    state = field(P2008, 10)
    assert games(propose_pairing(build_history(state, 0), P2008, 1)) == ["T1-T3", "T4-T2", "T5-T6", "T7-T9", "T10-T8"]


def test_ten_teams_round_one_variant_b() -> None:
    state = field(BAKU, 10)
    assert games(propose_pairing(build_history(state, 0), BAKU, 1)) == ["T1-T4", "T5-T2", "T3-T6", "T7-T9", "T10-T8"]


ROUND_ONE = {("T1", "T3"): 3, ("T4", "T2"): 1.5, ("T5", "T6"): 1.5, ("T7", "T9"): 3.5, ("T10", "T8"): 2.5}


def _ten_after_round_one(profile, results=ROUND_ONE):
    state = field(profile, 10)
    play_round(state, profile, 1, results)
    return state


def test_ten_teams_round_two_ordering_s() -> None:
    state = _ten_after_round_one(P2008)
    pairing = propose_pairing(build_history(state, 1), P2008, 2)
    assert games(pairing) == ["T2-T1", "T4-T7", "T6-T3", "T5-T10", "T8-T9"]
    assert any("skipped T5 (met in round 1)" in line for line in pairing.explain("T6"))


def test_ten_teams_round_two_ordering_p() -> None:
    state = _ten_after_round_one(OPTION_P)
    assert games(propose_pairing(build_history(state, 1), OPTION_P, 2)) == ["T2-T1", "T3-T6", "T7-T4", "T10-T5", "T8-T9"]


def test_ten_teams_round_two_draw_variant() -> None:
    """T5-T6 drawn 2-2: T5 (3) floats to the 2-group and meets T7; T3 floats to T6 (1)."""
    state = _ten_after_round_one(P2008, {**ROUND_ONE, ("T5", "T6"): 2})
    pairing = propose_pairing(build_history(state, 1), P2008, 2)
    assert games(pairing) == ["T2-T1", "T7-T5", "T4-T10", "T3-T6", "T8-T9"]
    assert any("T3 floats down" in line for line in pairing.explain("T3"))


# --- fold and exchange, checklist 6 and 9 ------------------------------------------------------

def _six(met: dict[int, int] | None = None):
    """Six teams A..F (places 0..5) in one group, with ``met`` as {place: place}."""
    history = synthetic([(n, 0, "", ()) for n in range(1, 7)])
    entrants = build_entrants(history, OLYMPIAD_2022, history.through_round + 1)
    for a, b in (met or {}).items():
        entrants[a].met[b] = 1
        entrants[b].met[a] = 1
    cons = Constraints(entrants, OLYMPIAD_2022)
    return cons


def _subgroup(method: str, met: dict[int, int] | None = None) -> list[str]:
    cons = _six(met)
    letters = "ABCDEF"
    witness = {0: 1, 1: 0, 2: 3, 3: 2, 4: 5, 5: 4} if not met else {0: 2, 2: 0, 1: 3, 3: 1, 4: 5, 5: 4}
    made = pair_subgroup(list(range(6)), method, cons.may_meet, witness, cons, Trace(D02_2022), "group")
    return [letters[a] + "-" + letters[b] for a, b in made]


def test_fold_top_v_bottom() -> None:
    """R-W3: A-F, B-E, C-D."""
    assert _subgroup("fold") == ["A-F", "B-E", "C-D"]


def test_fold_with_a_conflict() -> None:
    """R-W4: A has met F, so A-E, then B-F, C-D."""
    assert _subgroup("fold", {0: 5}) == ["A-E", "B-F", "C-D"]


def test_exchange_for_comparison() -> None:
    """R-X1 on the same group: A-D, B-E, C-F; with A having met D, A-E, B-D, C-F."""
    assert _subgroup("exchange") == ["A-D", "B-E", "C-F"]
    assert _subgroup("exchange", {0: 3}) == ["A-E", "B-D", "C-F"]


def test_exchange_order_of_six_teams() -> None:
    """Checklist 9: the 15 rows of R-X1 (D.02 9.3) in order."""
    rows = [" ".join(f"{a}-{b}" for a, b in row) for row in all_in_exchange_order([1, 2, 3, 4, 5, 6])]
    assert rows == [
        "1-4 2-5 3-6", "1-4 2-6 3-5", "1-4 2-3 5-6", "1-5 2-4 3-6", "1-5 2-6 3-4", "1-5 2-3 4-6",
        "1-6 2-4 3-5", "1-6 2-5 3-4", "1-6 2-3 4-5", "1-3 2-5 4-6", "1-3 2-6 4-5", "1-3 2-4 5-6",
        "1-2 3-5 4-6", "1-2 3-6 4-5", "1-2 3-4 5-6",
    ]
    assert exchange_candidates([1, 2, 3, 4, 5, 6]) == [4, 5, 6, 3, 2]


def test_round_one_of_six_teams_2022() -> None:
    """Checklist 9: 1-4, 5-2, 3-6 (lot = White)."""
    state = field(OLYMPIAD_2022, 6)
    assert games(propose_pairing(build_history(state, 0), OLYMPIAD_2022, 1)) == ["T1-T4", "T5-T2", "T3-T6"]


def test_first_match_taken_when_the_first_is_a_rematch() -> None:
    """D.02 9.3 (S11): 1 has met 4, so 1-5, then 2-4, 3-6."""
    history = synthetic([(1, 0, "-", (4,)), (2, 0, "-", ()), (3, 0, "-", ()), (4, 0, "-", (1,)), (5, 0, "-", ()), (6, 0, "-", ())])
    assert propose_pairing(history, OLYMPIAD_2022, 2).pairs() == as_pairs("1-5", "2-4", "3-6")


# --- median group, checklist 10 ----------------------------------------------------------------

def test_median_group_of_88_teams() -> None:
    """R-G3 (ECU N.5.5): places 43-44 on 10, 45-46 on 9: the 9-point group is the median group."""
    scores = [12] * 42 + [10] * 2 + [9] * 2 + [5] * 42
    assert median_score(list(enumerate(scores))) == 9
    s11 = [12 if p <= 40 else 11 if p <= 44 else 10 if p <= 60 else 5 for p in range(1, 89)]
    assert median_score(list(enumerate(s11))) == 10


# --- bye, checklist 8 --------------------------------------------------------------------------

def test_bye_goes_to_the_lowest_ranked_eligible_team() -> None:
    """D.02 4.1-4.2 (S11): 6 had the bye and 7 won by default, so 5 gets it."""
    history = synthetic([(n, 2, "W", ()) for n in range(1, 8)] + [(8, 4, "BW", ()), (9, 4, "BW", ())], rounds=2)
    history = override(history, "T6", 2, kind="bye", opponent=None, colour=None)
    history = override(history, "T7", 2, kind="forfeit-win", colour=None)
    pairing = propose_pairing(history, OLYMPIAD_2022, 3)
    assert pairing.bye == "T5"
    assert "T7 (won round 2 by default), T6 (had the bye in round 2)" in pairing.explain("T5")[0]


def test_bye_is_worth_one_match_point_and_two_game_points_and_never_given_twice() -> None:
    state = field(OLYMPIAD_2022, 7)
    byes = []
    for rnd in range(1, 7):
        pairing = play_round(state, OLYMPIAD_2022, rnd)
        byes.append(pairing.bye)
        tr = build_history(state, rnd).rounds[rnd][pairing.bye]
        assert (tr.kind, tr.mp, tr.gp) == ("bye", 1, Decimal(2))
    assert len(set(byes)) == len(byes)


# --- floaters (D.02 8, 9.4; S11 handbook fixtures) ---------------------------------------------

@pytest.mark.parametrize("teams, expected", [
    # 8.2.1: 8 floats up to the lowest-ranked team it has not met, 6.
    ([(1, 4, "W", ()), (2, 4, "B", ()), (3, 4, "W", ()), (4, 4, "B", ()), (5, 2, "W", ()), (6, 2, "B", ()),
      (7, 2, "W", (8,)), (8, 0, "B", (7,))], ("1-3", "2-4", "6-8", "5-7")),
    # 8.2.2: floating 8 would leave 9 and 10, who met; 9 floats, 8 plays 10.
    ([(1, 6, "W", ()), (2, 6, "B", ()), (3, 6, "W", ()), (4, 6, "B", ()), (5, 6, "W", ()), (6, 4, "B", ()), (7, 4, "W", ()),
      (8, 2, "B", ()), (9, 2, "W", (10,)), (10, 2, "B", (9,)), (11, 0, "W", ()), (12, 0, "B", ())],
     ("1-3", "2-4", "5-6", "11-12", "8-10", "7-9")),
    # 8.2.3: 8 has played both teams of the group above, so 9 floats.
    ([(1, 6, "W", ()), (2, 6, "B", ()), (3, 6, "W", ()), (4, 6, "B", ()), (5, 6, "W", ()), (6, 4, "BW", (8,)),
      (7, 4, "WB", (8,)), (8, 2, "WB", (6, 7)), (9, 2, "W", ()), (10, 2, "B", ()), (11, 0, "W", ()), (12, 0, "B", ())],
     ("1-3", "2-4", "5-6", "11-12", "8-10", "7-9")),
    # 8.2.4: no team below can reach the median group; a floater from above meets it there.
    ([(1, 6, "W", ()), (2, 6, "B", ()), (3, 6, "W", ()), (4, 6, "B", ()), (5, 6, "W", ()), (6, 4, "WBW", (8, 9, 10)),
      (7, 4, "BWB", (8, 9, 10)), (8, 2, "BW", (6, 7)), (9, 2, "WB", (6, 7)), (10, 2, "B", (6, 7))],
     ("1-3", "2-4", "9-10", "5-8", "6-7")),
    # 8.3.1: 3 (lowest of the odd 6-MP group) has met 4, so it plays 5; 8 floats up to 7.
    ([(1, 6, "W", ()), (2, 6, "B", ()), (3, 6, "W", (4,)), (4, 4, "B", (3,)), (5, 4, "W", ()), (6, 4, "B", ()),
      (7, 4, "W", ()), (8, 0, "B", ())], ("1-2", "3-5", "7-8", "4-6")),
    # 9.4: 1 has played 2, 3 and 4, so it floats down; 9.5 keeps 2-3, and 4 floats too.
    ([(1, 6, "WBW", (2, 3, 4)), (2, 6, "BWB", (1,)), (3, 6, "WBW", (1,)), (4, 6, "BWB", (1,)), (5, 4, "W", ()),
      (6, 4, "B", ()), (7, 4, "W", ()), (8, 4, "B", ())], ("2-3", "1-5", "4-6", "7-8")),
    # 7.4: 1 and 2 both had White twice; the limits are dropped rather than float both.
    ([(1, 4, "WW", ()), (2, 4, "WW", ()), (3, 2, "BW", ()), (4, 2, "WB", ())], ("1-2", "3-4")),
], ids=["8.2.1", "8.2.2", "8.2.3", "8.2.4", "8.3.1", "9.4", "7.4"])
def test_d02_floater_and_limit_fixtures(teams, expected) -> None:
    history = synthetic(teams)
    pairing = propose_pairing(history, OLYMPIAD_2022, history.through_round + 1)
    assert pairing.pairs() == as_pairs(*expected)


# --- colours (R-C1, R-C2; D.02 7) --------------------------------------------------------------

@pytest.mark.parametrize("higher, lower, expected", [
    ("WW-B", "BWBW", "B"),   # 7.5.1 equalisation: +1 gets Black though alternation says White
    ("WBWB", "BWWB", "W"),   # 7.6: latest round with different colours is round 2
    ("BW", "BW", "B"),       # 7.6: always the same colours: the higher-ranked team alternates
    ("", "", "W"),           # 7.2: no colours: lot (White) for an odd number
], ids=["equalise", "alternate", "higher-alternates", "lot"])
def test_colour_allocation(higher: str, lower: str, expected: str) -> None:
    def hist(text: str) -> ColourHistory:
        return ColourHistory(tuple(None if c == "-" else c for c in text))
    colour, _, _ = allocate(hist(higher), hist(lower), 1, "W")
    assert colour == expected


def test_round_one_colours_of_eight_teams() -> None:
    """D.02 7.2 (S11): 1-5, 6-2, 3-7, 8-4."""
    state = field(OLYMPIAD_2022, 8)
    assert games(propose_pairing(build_history(state, 0), OLYMPIAD_2022, 1)) == ["T1-T5", "T6-T2", "T3-T7", "T8-T4"]
