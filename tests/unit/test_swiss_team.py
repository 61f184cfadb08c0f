"""FIDE C.04.6 (2026) Swiss Team pairing: the worked examples of the text and the cases of the spec
digest (../shared/spec/swiss-team-c046.md, trf-teams.md §1.6), as exact pairs and colours."""
from __future__ import annotations

from decimal import Decimal

import pytest

from producers.simulator import new_tournament, publish, record_match
from projections.history import build_history
from projections.pairing import propose_pairing
from projections.pairing.systems import check_pairing
from projections.pairing.swiss_team.brackets import choose_bracket, choose_pab, score_profiles, upfloater_sets
from projections.pairing.swiss_team.colours import allocate
from projections.pairing.swiss_team.criteria import first_identifier, pair_bracket, pair_costs
from projections.pairing.swiss_team.preferences import Preference, colour_preference
from projections.pairing.swiss_team.teams import SwissTeam, build_teams
from schemas.events import MatchForfeited, Table
from schemas.profile import PROFILES, SWISS_TEAM_2026, SWISS_TEAM_2026_NOCOLOUR, SWISS_TEAM_2026_TYPEB


def T(tpn: int, score: float = 0, colours: str = "", model: str = "type-a", *, secondary: float = 0, floated: bool = False,
      met: tuple[int, ...] = (), last_round: bool = False, bye_block: str = "") -> SwissTeam:
    """A team as the C.04.6 rules see it (played matches = its colours)."""
    return SwissTeam(team_id=f"T{tpn}", tpn=tpn, score=Decimal(str(score)), secondary=Decimal(str(secondary)), played=len(colours),
                     colours=colours, by_round=tuple(colours), preference=colour_preference(colours, model, last_round),
                     floated=floated, met=frozenset(met), bye_block=bye_block)


def anyone(a: int, b: int) -> bool:
    return a != b


# --- art. 1.7 colour preferences ------------------------------------------------------------------

@pytest.mark.parametrize("colours, model, last, expected", [
    ("BWB", "type-a", False, Preference(None)),          # CD -1, last two WB: Type A has none
    ("WBB", "type-a", False, Preference("W", True)),     # CD -1 and Black in the last two
    ("BB", "type-a", False, Preference("W", True)),      # CD -2
    ("WWBB", "type-a", False, Preference("W", True)),    # CD 0 and Black in the last two
    ("WBW", "type-a", False, Preference(None)),          # CD +1, last two BW
    ("BWW", "type-a", False, Preference("B", True)),
    ("", "type-a", False, Preference(None)),             # before the first match
    ("BWB", "type-b", False, Preference("W")),           # Type B: CD -1 is a mild White
    ("WB", "type-b", False, Preference("W")),            # CD 0, Black last, not the last round: mild White
    ("WB", "type-b", True, Preference(None)),            # ... and none when pairing the last round
    ("BBWW", "type-b", True, Preference("B", True)),     # A1: CD 0 after WW in the last round is strong (gacrux)
    ("WBB", "type-b", False, Preference("W", True)),     # the strong preference is worded as Type A's
    ("BB", "none", False, Preference(None)),             # no colour preferences at all
])
def test_colour_preferences(colours: str, model: str, last: bool, expected: Preference) -> None:
    assert colour_preference(colours, model, last) == expected


def test_open_reading_a1_none() -> None:
    """A1 read the other way: CD 0 after two equal colours in the last round is no preference."""
    assert colour_preference("BBWW", "type-b", True, "none") == Preference(None)
    assert colour_preference("BBWW", "type-b", False, "none") == Preference("B", True)


# --- art. 3.5: upfloater sets ----------------------------------------------------------------------

def test_upfloater_sets_in_the_order_of_art_3_5_4() -> None:
    """The example of art. 3.5.4: teams 2, 6, 8 with 3 points and 1, 3, 5 with 2.5, two upfloaters of
    3 points and one of 2.5: {2,6,1} < {2,6,3} < {2,6,5} < {2,8,1} < ... < {6,8,5}."""
    lower = [T(n, 3) for n in (2, 6, 8)] + [T(n, 2.5) for n in (1, 3, 5)]
    sets = [tuple(t.tpn for t in s) for s in upfloater_sets(lower, (Decimal(3), Decimal(3), Decimal("2.5")))]
    assert sets == [(2, 6, 1), (2, 6, 3), (2, 6, 5), (2, 8, 1), (2, 8, 3), (2, 8, 5), (6, 8, 1), (6, 8, 3), (6, 8, 5)]


def test_c5_score_profiles_maximise_the_scores_taken_in_ascending_order() -> None:
    """[C5] art. 2.3.2: with two upfloaters from scores 5, 4, 3 (two of each), 4+4 comes before 5+3."""
    lower = [T(n, s) for n, s in ((1, 5), (2, 5), (3, 4), (4, 4), (5, 3), (6, 3))]
    assert score_profiles(lower, 2) == [(5, 5), (5, 4), (4, 4), (5, 3), (4, 3), (3, 3)]


def test_c4_fewest_upfloaters_then_c6_keeps_the_following_scoregroup_pairable() -> None:
    """Residents 1, 2, 3 (score 4) need one upfloater ([C4]) of score 3 ([C5]): 4, 5 or 6. Taking 4
    would leave 5 and 6, who have met, as the score-3 group, unpairable without upfloaters ([C6]):
    5 goes up instead (the first set in art. 3.5.4 order that complies)."""
    teams = [T(1, 4), T(2, 4), T(3, 4), T(4, 3), T(5, 3, met=(6,)), T(6, 3, met=(5,)), T(7, 2), T(8, 2)]
    by = {t.tpn: t for t in teams}

    def compat(a: int, b: int) -> bool:
        return a != b and b not in by[a].met

    bracket = choose_bracket(Decimal(4), Decimal(3), teams, compat, floats_count=True)
    assert [t.tpn for t in bracket.upfloaters] == [5] and bracket.c6


def test_c7_prefers_an_upfloater_that_did_not_float_in_the_previous_round() -> None:
    """[C7] art. 2.3.4: of 3 (floated last round) and 4, the bracket takes 4; not in the last two rounds."""
    teams = [T(1, 2), T(3, 1, floated=True), T(4, 1), T(5, 0)]
    assert [t.tpn for t in choose_bracket(Decimal(2), Decimal(1), teams, anyone, True).upfloaters] == [4]
    assert [t.tpn for t in choose_bracket(Decimal(2), Decimal(1), teams, anyone, False).upfloaters] == [3]


# --- art. 3.6: pairing a bracket ---------------------------------------------------------------------

def test_bracket_pairing_is_the_first_identifier() -> None:
    """Art. 3.6: 6 teams, no constraint: 1-4, 2-5, 3-6 (top members 1, 2, 3). With 1-4 a rematch the
    first identifier is 1-5, 2-4, 3-6; with 1 having met 4, 5 and 6, 3 cannot be a top member: 1-3, 2-5, 4-6."""
    teams = [T(n) for n in range(1, 7)]
    pairs = pair_bracket(teams, Decimal(0), anyone, False, True)
    assert [(a.tpn, b.tpn) for a, b in pairs] == [(1, 4), (2, 5), (3, 6)]
    ban = {frozenset((1, 4))}
    pairs = pair_bracket(teams, Decimal(0), lambda a, b: a != b and frozenset((a, b)) not in ban, False, True)
    assert [(a.tpn, b.tpn) for a, b in pairs] == [(1, 5), (2, 4), (3, 6)]
    ban = {frozenset((1, 4)), frozenset((1, 5)), frozenset((1, 6))}
    pairs = pair_bracket(teams, Decimal(0), lambda a, b: a != b and frozenset((a, b)) not in ban, False, True)
    assert [(a.tpn, b.tpn) for a, b in pairs] == [(1, 3), (2, 5), (4, 6)]


def test_first_identifier_matches_brute_force() -> None:
    """The team-by-team construction equals the minimum over all perfect matchings (8 positions)."""
    import itertools
    import random

    def matchings(nodes):
        if not nodes:
            yield []
            return
        a = nodes[0]
        for b in nodes[1:]:
            rest = [x for x in nodes if x not in (a, b)]
            for m in matchings(rest):
                yield [(a, b)] + m

    def identifier(m):
        m = sorted(m)
        return [a for a, _ in m] + [b for _, b in m]

    rng = random.Random(5)
    for _ in range(200):
        allowed = {p for p in itertools.combinations(range(8), 2) if rng.random() < 0.6}
        best = min((identifier(m) for m in matchings(list(range(8))) if all(p in allowed for p in m)), default=None)
        mate = first_identifier(8, lambda i, j: (i, j) in allowed)
        got = None if mate is None else identifier([(i, j) for i, j in mate.items() if i < j])
        assert got == best


def test_c8_before_the_identifier() -> None:
    """[C8] art. 2.3.5: 1 and 4 both want White, so 1-4 (the first identifier) gives way to 1-5, 2-4, 3-6."""
    teams = [T(1, 0, "BB"), T(2, 0, "WB"), T(3, 0, "BW"), T(4, 0, "BB"), T(5, 0, "WB"), T(6, 0, "BW")]
    pairs = pair_bracket(teams, Decimal(0), anyone, False, True)
    assert [(a.tpn, b.tpn) for a, b in pairs] == [(1, 5), (2, 4), (3, 6)]
    assert pair_costs(teams[0], teams[3], Decimal(0), False, True) == (1, 0, 0)


def test_c9_type_b_strong_preferences() -> None:
    """[C9] art. 2.3.6: under Type B two strong White preferences cost more than a strong and a mild one."""
    strong, mild = T(1, 0, "WBB", "type-b"), T(2, 0, "BWB", "type-b")
    other = T(3, 0, "WBB", "type-b")
    assert pair_costs(strong, other, Decimal(0), True, True) == (1, 1, 0)
    assert pair_costs(strong, mild, Decimal(0), True, True) == (1, 0, 0)


def test_c10_counts_upfloaters_opponents_that_floated() -> None:
    resident, upfloater = T(1, 2, floated=True), T(2, 1)
    assert pair_costs(resident, upfloater, Decimal(2), False, True) == (0, 0, 1)
    assert pair_costs(resident, upfloater, Decimal(2), False, False) == (0, 0, 0)


# --- art. 3.4: the PAB -------------------------------------------------------------------------------

def test_pab_lowest_score_then_most_played_then_largest_tpn() -> None:
    teams = [T(1, 2, "WB"), T(2, 1, "WB"), T(3, 1, "W"), T(4, 1, "BW"), T(5, 2, "BW")]
    assert choose_pab(teams, anyone).tpn == 4  # score 1: 2 and 4 played two matches, 4 has the larger TPN
    teams[3] = T(4, 1, "BW", bye_block="had the PAB in round 1")  # [C2]
    assert choose_pab(teams, anyone).tpn == 2
    assert choose_pab(teams[:4], anyone) is None


# --- art. 4: colours -----------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, white, rule", [
    (T(1), T(2), "T1", "4.3.1"),                                     # both yet to play: odd TPN gets the initial-colour
    (T(2), T(3), "T3", "4.3.1"),                                     # first-team 2 (even) gets the opposite colour
    (T(1, 1, "W"), T(2, 1, "BB"), "T2", "4.3.2"),                    # only 2 has a preference (White)
    (T(1, 1, "WW"), T(2, 1, "BB"), "T2", "4.3.3"),                   # opposite preferences
    (T(1, 1, "WBB", "type-b"), T(2, 1, "BWB", "type-b"), "T1", "4.3.4"),  # only 1's White is strong
    (T(1, 1, "BWB", "type-b"), T(2, 1, "WBB", "type-b"), "T2", "4.3.4"),
    (T(1, 1, "WBW"), T(2, 1, "BW"), "T2", "4.3.5"),                  # the lower CD gets White
    (T(1, 1, "WB"), T(2, 1, "BW"), "T1", "4.3.6"),                   # alternate from the last difference
    (T(1, 1, "BBWW"), T(2, 1, "WWBB", secondary=2), "T2", "4.3.3"),  # first-team 2 (GP) wants White, 1 Black
    (T(1, 2, "W"), T(2, 1, "W"), "T2", "4.3.8"),                     # first-team 1 (higher score) alternates
    (T(1, 2, "WB"), T(2, 1, ""), "T1", "4.3.8"),
    (T(1, 2, ""), T(2, 1, "WB"), "T2", "4.3.9"),                     # the first-team never played: 2 alternates
])
def test_colour_allocation(a: SwissTeam, b: SwissTeam, white: str, rule: str) -> None:
    typeb = a.preference.colour is not None and not a.preference.strong or b.preference.colour is not None and not b.preference.strong
    w, _, got_rule, _ = allocate(a, b, "W", typeb=typeb)
    assert (w.team_id, got_rule) == (white, f"C.04.6 art. {rule}")


def test_colour_allocation_first_team_by_secondary_score_then_rules_7_and_9() -> None:
    """4.2.2: equal MP, the higher GP is the first-team; 4.3.7 grants its preference (both want it);
    4.3.9: the first-team never played, the other alternates."""
    a, b = T(1, 1, "BWBB", secondary=5), T(2, 1, "BWBB", secondary=9)  # both want White, CD equal, same history
    w, _, rule, _ = allocate(a, b, "W", typeb=False)
    assert (w.team_id, rule) == ("T2", "C.04.6 art. 4.3.7")
    w, _, rule, _ = allocate(a, b, "W", typeb=False, secondary=False)  # GP not used: the smaller TPN
    assert (w.team_id, rule) == ("T1", "C.04.6 art. 4.3.7")
    first, other = T(1, 2, ""), T(2, 1, "WB", "none")
    w, _, rule, _ = allocate(first, other, "W", typeb=False)
    assert (w.team_id, rule) == ("T2", "C.04.6 art. 4.3.9")


# --- whole rounds through propose_pairing ----------------------------------------------------------------

def _field(profile, n: int, rounds: int = 5):
    profile = profile.model_copy(update={"rounds": rounds})
    state, _ = new_tournament(profile, [2400 - 10 * i for i in range(n)], "c046")
    return state, profile


def test_round_one_of_seven_teams_as_gacrux_measured_it() -> None:
    """trf-teams.md §1.6: 7 teams, round 1: 1-4, 5-2, 3-6 and the PAB to 7 (gacrux 1.11.65 and the
    Sharly fork's hand-derived ``team_bye``)."""
    state, profile = _field(SWISS_TEAM_2026, 7)
    pairing = propose_pairing(build_history(state, 0), profile, 1)
    assert [(t.home, t.away) for t in pairing.tables] == [("T1", "T4"), ("T5", "T2"), ("T3", "T6")]
    assert pairing.bye == "T7"


def test_forfeit_is_no_meeting_and_bars_the_pab() -> None:
    """A3/A9 (gacrux's reading): a match forfeited on every board is not played: the two teams may meet
    again, neither had a colour, and the winner may not get the PAB ([C2])."""
    state, profile = _field(SWISS_TEAM_2026, 5)
    first = propose_pairing(build_history(state, 0), profile, 1)
    publish(state, first)
    assert [(t.home, t.away) for t in first.tables] == [("T1", "T3"), ("T4", "T2")] and first.bye == "T5"
    state.evolve(MatchForfeited(event_id="c046/r1/t1/forfeit", tournament_id="c046", round=1, table=1, winner="T3", forfeit="absence", note="T1 absent"))
    record_match(state, 1, 2, "2")
    teams = {t.team_id: t for t in build_teams(build_history(state, 1), profile, 2)}
    assert teams["T3"].colours == "" and teams["T3"].played == 0 and teams["T3"].bye_block == "won round 1 by forfeit"
    assert teams["T1"].tpn not in teams["T3"].met
    second = propose_pairing(build_history(state, 1), profile, 2)
    # T3 2 MP; T5 (PAB), T4 and T2 (2-2) 1 MP; T1 0. The PAB goes to T1 (lowest score), T3 takes the
    # first upfloater of score 1 in TPN order, T2 (T1 v T3 was no meeting, but T1 has the PAB).
    assert second.bye == "T1"
    assert {frozenset((t.home, t.away)) for t in second.tables} == {frozenset(("T2", "T3")), frozenset(("T4", "T5"))}


def test_check_accepts_the_prescribed_round_and_names_what_differs() -> None:
    state, profile = _field(SWISS_TEAM_2026_TYPEB, 8)
    pairing = propose_pairing(build_history(state, 0), profile, 1)
    history = build_history(state, 0)
    assert check_pairing(history, profile, 1, pairing.tables, pairing.bye) == []
    swapped = [Table(table=t.table, home=t.away, away=t.home) if t.table == 1 else t for t in pairing.tables]
    (v,) = check_pairing(history, profile, 1, swapped, pairing.bye)
    assert v.rule == "C.04.6 art. 4.3.1 colours" and v.teams == ("T5", "T1")
    other = [Table(table=1, home="T1", away="T2"), Table(table=2, home="T5", away="T6"), *pairing.tables[2:]]
    rules = [v.rule for v in check_pairing(history, profile, 1, other, pairing.bye)]
    assert rules == ["C.04.6 art. 3.5, 3.6 pairing", "C.04.6 art. 3.5, 3.6 pairing"]


def test_profiles_are_complete_and_recorded() -> None:
    for name, model in (("swiss-team-2026", "type-a"), ("swiss-team-2026-typeb", "type-b"), ("swiss-team-2026-nocolour", "none")):
        p = PROFILES[name]
        assert p.swiss_team.colour_preferences == model and p.swiss_team.primary_score == "mp"
        assert p.bye_award.mp == 1 and p.bye_award.gp == 2  # art. 1.4: drawn MP and drawn GP
        assert "swiss_team" in p.model_dump()
    assert SWISS_TEAM_2026_NOCOLOUR.swiss_team.colour_preferences == "none"


def test_bracket_pairing_matches_brute_force_with_colour_costs() -> None:
    """Art. 3.6 with [C8]-[C10]: the pairing equals the minimum over all perfect matchings of
    (C8, C9, C10, identifier), on random 8-team Type B brackets with rematches and upfloaters."""
    import itertools
    import random

    def matchings(nodes):
        if not nodes:
            yield []
            return
        for b in nodes[1:]:
            for m in matchings([x for x in nodes if x not in (nodes[0], b)]):
                yield [(nodes[0], b)] + m

    rng = random.Random(11)
    for _ in range(150):
        teams = [T(n, rng.choice((2, 2, 2, 1)), "".join(rng.choice("WB") for _ in range(3)), "type-b", floated=rng.random() < 0.3)
                 for n in range(1, 9)]
        banned = {frozenset(p) for p in itertools.combinations(range(1, 9), 2) if rng.random() < 0.25}

        def compat(a: int, b: int) -> bool:
            return a != b and frozenset((a, b)) not in banned

        def key(m):
            costs = [pair_costs(teams[a - 1], teams[b - 1], Decimal(2), True, True) for a, b in m]
            m = sorted(m)
            return tuple(map(sum, zip(*costs))), [a for a, _ in m] + [b for _, b in m]

        legal = [m for m in matchings(list(range(1, 9))) if all(compat(a, b) for a, b in m)]
        got = pair_bracket(teams, Decimal(2), compat, True, True)
        if not legal:
            assert got is None
            continue
        assert key([(a.tpn, b.tpn) for a, b in got]) == min(map(key, legal))
