"""C.07 (2026) team tie-breaks (issue 14, acceptance 4): worked examples with exact values.

The C.07 2026 text has no worked examples of its own (its predecessor's examples are for the abolished
virtual opponent; FIDE TEC's exercise book is written for the 2023 text). So each value below is worked
out by hand from the article it tests, on one small tournament that holds every kind of round art. 16
names, and the same tournament exported to TRF is checked against gacrux 1.11.65 (the FIDE TEC tool).

The tournament (2 boards, 4 rounds, MP 2/1/0, PAB = 1 MP + 1 GP; home team White on board 1):
- R1: T1-T2 2-0 (1-0, 0-1); T3-T4 1-1 (two draws); T5 PAB.
- R2: T1-T3 1.5-0.5 (1-0, draw); T5-T2 0-2 (0-1, 1-0); T4 absent (16.2.3: it plays again in R3).
- R3: T4-T1 1-1 (1-0, 1-0); T2-T3 forfeited by T3 (16.2.2 for T2, 16.2.4 for T3); T5 withdrawn.
- R4: T2-T4 0.5-1.5 (0-1, draw); T1 PAB; T3 absent, T5 withdrawn (16.2.5: nothing played after).
Totals: T1 6 MP 5.5 GP; T2 4 MP 4.5 GP; T3 1 MP 1.5 GP; T4 4 MP 3.5 GP; T5 1 MP 1 GP.
16.3 adjusted scores (as opponents see them): T3 2 MP 2.5 GP (R4 a draw), T5 3 MP 3 GP (R3-R4 draws);
the others as they are. 16.4.2 cap: draw x 4 rounds = 4 MP or 4 GP.
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from processors.tournament import TournamentState
from projections.history import build_history
from projections.standings import compute_standings
from projections.standings.catalogue import C07Context
from projections.standings.unplayed_rounds import UnplayedRounds
from projections.trf import TrfHeader, export_trf
from schemas import event_ids
from schemas.events import BoardResultRecorded, MatchForfeited, Player, RoundPaired, Table, TeamRegistered, TeamWithdrawn, TournamentCreated
from schemas.profile import Award, RuleProfile
from schemas.tiebreak_codes import parse_tiebreak
from tests.gacrux_tool import require_gacrux, tiebreaks

PROFILE = RuleProfile(name="c07-example", boards=2, reserves=3, rounds=4, bye_award=Award(mp=1, gp=1),
                      unplayed="dummy-2026", forfeited_match_in_tiebreaks=False, tiebreaks=("EDET", "EMGSB/C1", "BH:MP/C1"))
TID = "c07"


def events(profile: RuleProfile = PROFILE) -> list:
    out: list = [TournamentCreated(event_id=event_ids.created(TID), tournament_id=TID, name="C.07 example", profile=profile)]
    for n in range(1, 6):
        out.append(TeamRegistered(event_id=event_ids.team(TID, f"T{n}"), tournament_id=TID, team_id=f"T{n}", name=f"Team {n}", federation="FID",
                                  pairing_number=n, players=tuple(Player(board_order=b, name=f"T{n}, p{b}", rating=2000) for b in range(1, 4))))

    def rnd(r, tables, bye=None, absent=(), boards=()):
        out.append(RoundPaired(event_id=event_ids.pairing(TID, r), tournament_id=TID, round=r, bye=bye, absent=absent,
                               tables=tuple(Table(table=i, home=h, away=a) for i, (h, a) in enumerate(tables, start=1))))
        for table, codes in boards:
            for b, code in enumerate(codes, start=1):
                out.append(BoardResultRecorded(event_id=event_ids.board(TID, r, table, b), tournament_id=TID, round=r, table=table, board=b, result=code))

    rnd(1, [("T1", "T2"), ("T3", "T4")], bye="T5", boards=[(1, ("1-0", "0-1")), (2, ("1/2-1/2", "1/2-1/2"))])
    rnd(2, [("T1", "T3"), ("T5", "T2")], absent=("T4",), boards=[(1, ("1-0", "1/2-1/2")), (2, ("0-1", "1-0"))])
    out.append(TeamWithdrawn(event_id=event_ids.withdrawn(TID, "T5"), tournament_id=TID, team_id="T5", from_round=3))
    rnd(3, [("T4", "T1"), ("T2", "T3")], absent=("T5",), boards=[(1, ("1-0", "1-0"))])
    out.append(MatchForfeited(event_id=event_ids.match_forfeit(TID, 3, 2), tournament_id=TID, round=3, table=2, winner="T2", forfeit="absence", note="T3 did not arrive"))
    rnd(4, [("T2", "T4")], bye="T1", absent=("T3", "T5"), boards=[(1, ("0-1", "1/2-1/2"))])
    return out


def context(profile: RuleProfile = PROFILE) -> C07Context:
    state = TournamentState()
    for e in events(profile):
        state.evolve(e)
    return C07Context(build_history(state, 4), profile)


def test_unplayed_round_categories_and_adjusted_scores():
    """C.07 16.2 categories and 16.3 adjusted scores."""
    ctx = context()
    u: UnplayedRounds = ctx.rounds
    cats = {t: [u.category(tr) for tr in ctx.history.team_rounds(t)] for t in ("T3", "T4", "T5", "T2")}
    assert cats == {"T3": ["played", "played", "16.2.4", "16.2.5"], "T4": ["played", "16.2.3", "played", "played"],
                    "T5": ["16.2.1", "played", "16.2.5", "16.2.5"], "T2": ["played", "played", "16.2.2", "played"]}
    assert [(u.adjusted(t, "MP"), u.adjusted(t, "GP")) for t in ("T1", "T2", "T3", "T4", "T5")] == [
        (6, Decimal("5.5")), (4, Decimal("4.5")), (2, Decimal("2.5")), (4, Decimal("3.5")), (3, 3)]


# (code, team, value, how): each value worked out by hand from the article of its code.
EXAMPLES = [
    ("MPTS", "T1", Decimal(6), "11.1: 2 + 2 + 1 + 1 (PAB)"),
    ("GPTS", "T1", Decimal("5.5"), "11.1: 2 + 1.5 + 1 + 1 (PAB)"),
    ("MPVGP", "T4", Decimal("3.5"), "13.1: GP, the competition being decided by MP"),
    # 8.1 with 16.3 / 16.4: T1's opponents T2 4, T3 2 (adjusted), T4 4, the R4 PAB a dummy min(6, 1 x 4) = 4.
    ("BH:MP", "T1", Decimal(14), "8.1: 4 + 2 + 4 + 4"),
    ("BH:MP/C1", "T1", Decimal(12), "14.1: cut T3's 2"),
    ("BH:MP/M1", "T1", Decimal(8), "14.3: cut 2 and one 4"),
    # T2: T1 6, T5 3 (adjusted), R3 forfeit win: dummy min(own 4, T3's adjusted 2) = 2 (16.4.1), T4 4.
    ("BH:MP", "T2", Decimal(15), "8.1, 16.4.1: 6 + 3 + 2 + 4"),
    ("BH:MP/P", "T2", Decimal(15), "/P: R3 against T3 itself, adjusted 2"),
    # T3: T4 4, T1 6, R3 forfeit loss (VUR) dummy min(1, 4) = 1, R4 absent (VUR) dummy min(1, 4) = 1.
    ("BH:MP", "T3", Decimal(12), "8.1: 4 + 6 + 1 + 1"),
    # T4: T3 2, R2 absent (VUR) dummy min(own 4, 4) = 4, T1 6, T2 4 = 16; 16.5: the VUR's 4 is not lower
    # than the least value (T3's 2), so the VUR is cut: 12 (cutting T3 would give 14).
    ("BH:MP", "T4", Decimal(16), "8.1: 2 + 4 + 6 + 4"),
    ("BH:MP/C1", "T4", Decimal(12), "16.5.1: the VUR is cut, not T3's 2"),
    # T5: R1 PAB dummy min(1, 4) = 1, T2 4, R3-R4 (VUR) dummies 1 and 1: 7; C1 cuts a VUR's 1.
    ("BH:MP", "T5", Decimal(7), "8.1: 1 + 4 + 1 + 1"),
    ("BH:MP/C1", "T5", Decimal(6), "16.5: a VUR's 1"),
    # On GP: T1's opponents T2 4.5, T3 2.5 (adjusted), T4 3.5, the PAB a dummy min(5.5, 1 x 4) = 4.
    ("BH:GP", "T1", Decimal("14.5"), "8.1 on GP: 4.5 + 2.5 + 3.5 + 4"),
    # T4 on GP: T3 2.5, R2 dummy min(3.5, 4) = 3.5, T1 5.5, T2 4.5.
    ("BH:GP", "T4", Decimal(16), "8.1 on GP: 2.5 + 3.5 + 5.5 + 4.5"),
    # 13.2: opponent's MP (or GP) x own MP (or GP) per round; T1: (4, 2, 4, dummy 4) x (GP 2, 1.5, 1, 1).
    ("EMGSB", "T1", Decimal(19), "13.2.2: 8 + 3 + 4 + 4"),
    ("EMGSB/C1", "T1", Decimal(16), "14.1.2: cut T3 (the lowest MP), term 3"),
    ("EMMSB", "T1", Decimal(20), "13.2.1: 4x2 + 2x2 + 4x1 + 4x1"),
    ("EGMSB", "T1", Decimal("21.5"), "13.2.3: 4.5x2 + 2.5x2 + 3.5x1 + 4x1"),
    ("EGGSB", "T1", Decimal("20.25"), "13.2.4: 4.5x2 + 2.5x1.5 + 3.5x1 + 4x1"),
    # T4: T3 2x1 = 2, R2 dummy 4x0 = 0 (VUR), T1 6x1 = 6, T2 4x1.5 = 6: 14; 16.5: the VUR's 0 is lower
    # than the least significant value (T3's 2), so T3's term is cut: 12.
    ("EMGSB", "T4", Decimal(14), "13.2.2: 2 + 0 + 6 + 6"),
    ("EMGSB/C1", "T4", Decimal(12), "16.5.1: the VUR's 0 is lower, T3's 2 is cut"),
    # 8.3: the final round's match T2-T4 as a draw: T2 5 MP, T4 3 MP; T1: T2 5, T3 2, T4 3, PAB dummy 4.
    ("FB:MP", "T1", Decimal(14), "8.3: 5 + 2 + 3 + 4"),
    # 13.4: GP + BH:MP / floor(2 MP x 4 rounds / 2 boards) = GP + BH / 4.
    ("SSSC", "T1", Decimal(9), "13.4: 5.5 + 14 / 4"),
    ("SSSC", "T2", Decimal("8.25"), "13.4: 4.5 + 15 / 4"),
    ("SSSC/K5", "T2", Decimal("7.5"), "13.4 /K5: 4.5 + 15 / 5"),
    # 7.1: rounds with a win's MP, forfeit wins included, a PAB of 1 MP not.
    ("WIN", "T1", Decimal(2), "7.1: R1, R2"),
    ("WIN", "T2", Decimal(2), "7.1: R2, R3 (forfeit win)"),
    # 12: per board, PAB as a win on each board. T1: board 1 = 1 + 1 + 0 + 1 = 3, board 2 = 1 + 0.5 + 1 + 1 = 3.5.
    ("BC", "T1", Decimal(10), "12.1: 1 x 3 + 2 x 3.5"),
    ("TBR", "T1", (Decimal(3), Decimal("3.5")), "12.2: board 1, then board 2"),
    ("BBE", "T1", (Decimal(3),), "12.3: all boards but the bottom one"),
    # T4: board 1 = 0.5 + 0 + 1 + 1 = 2.5, board 2 = 0.5 + 0 + 0 + 0.5 = 1.
    ("BC", "T4", Decimal("4.5"), "12.1: 1 x 2.5 + 2 x 1"),
]


@pytest.mark.parametrize("code,team,value,how", EXAMPLES, ids=[f"{c} {t}" for c, t, _, _ in EXAMPLES])
def test_worked_example(code, team, value, how):
    assert context().value(code, team) == value, how


def test_extended_direct_encounter_and_the_standings():
    """13.3: T2 and T4 are tied on 4 MP and met once (R4, T4 won): EDE ranks T4 first. The profile ranks
    MP, EDET, EMGSB/C1, BH:MP/C1; T3 and T5 tie on 1 MP and never met, so EDE leaves them and EMGSB/C1
    decides (T3: 4x1 + 6x0.5 + dummy 1x0 + 1x0 = 7, cut the R3 VUR 0: 7; T5: 1x1 + 4x0 + 0 + 0 = 1)."""
    rows = compute_standings(context().history, PROFILE)
    assert [(r.rank, r.team_id, r.mp) for r in rows] == [(1, "T1", 6), (2, "T4", 4), (3, "T2", 4), (4, "T3", 1), (5, "T5", 1)]
    assert rows[1].tiebreaks["EDET"] == (Decimal(2),) and rows[2].tiebreaks["EDET"] == (Decimal(0),)
    assert (rows[3].tiebreaks["EMGSB/C1"], rows[4].tiebreaks["EMGSB/C1"]) == (Decimal(7), Decimal(1))


def test_direct_encounter_forfeits_and_rule_6_3():
    """T2, T3, T4 as a tied group. Among them: T3-T4 1-1 (R1), T2-T4 0.5-1.5 (R4), T2-T3 a forfeit.
    6.1.1: the forfeit is left out, so T2-T3 is a missing match; on MP T2 0, T3 1, T4 3. 6.3: T4 is not
    alone at the top whatever the missing match gives (T3 could reach 1 + 2 = 3), nor on GP (T4 2.5, T2
    0.5 + 2 = 2.5): nobody is separated. With /P the forfeit counts (T2 2 MP): all have met, 6.2 ranks
    T4 3, T2 2, T3 1."""
    ctx = context()
    assert len(set(ctx.group_values("EDE", ["T2", "T3", "T4"]).values())) == 1
    with_forfeits = ctx.group_values("EDE/P", ["T2", "T3", "T4"])
    assert with_forfeits == {"T4": (Decimal(3),), "T2": (Decimal(2),), "T3": (Decimal(1),)}


@pytest.mark.parametrize("code,rule", [
    ("XYZ", "C.07 2026 art. 5"), ("WIN/C1", "C.07 2026 art. 14"), ("EMGSB:GP", "C.07 2026 art. 13.2.2"),
    ("BH/C1/M1", "C.07 2026 art. 14"), ("BH/Q", "C.07 2026 art. 8.1"), ("BH:XP", "TRF-2026 record 202/212"),
])
def test_a_bad_code_is_refused_with_the_code_and_the_rule(code, rule):
    with pytest.raises(ValueError) as exc:
        parse_tiebreak(code)
    assert repr(code) in str(exc.value) and f"[rule: {rule}" in str(exc.value)
    with pytest.raises(ValueError, match="tie-break"):
        RuleProfile(name="bad", tiebreaks=(code,))


def test_gacrux_agrees_on_the_example(tmp_path):
    """The same tournament as TRF-2026, read by gacrux 1.11.65 under its 2026 rules: every value above
    that gacrux computes for teams is its value too."""
    require_gacrux()
    path = tmp_path / "example.trf"
    path.write_bytes(export_trf(events(), header=TrfHeader(start_date="2026-09-01")).encode("utf-8"))
    checked = [(c, t, v) for c, t, v, _ in EXAMPLES if c not in ("TBR", "BBE", "SSSC/K5")]
    codes = sorted({c for c, _, _ in checked})
    status, block, values = tiebreaks(path, codes)
    assert status == 0, block
    theirs = {(c, t): values[int(t[1])][codes.index(c)] for c, t, _ in checked}
    assert {(c, t): v for c, t, v in checked} == theirs


def test_olympiad_names_are_their_c07_codes_under_the_olympiad_policy():
    """OSB-C1, GP, BH-C1 of olympiad-2022 are EMGSB/C1, GPTS, BH:MP/C1 computed under its own unplayed
    policy (a round without an opponent one element worth 0): the same value and rank for every team
    after every round of Samarkand 2026."""
    from projections.replay import replay
    from producers.sources import load_source
    from schemas.profile import OLYMPIAD_2022

    state = replay(load_source("samarkand-2026-open")).state
    coded = OLYMPIAD_2022.model_copy(update={"name": "olympiad-2022-c07-codes", "tiebreaks": ("EMGSB/C1", "GPTS", "BH:MP/C1")})
    for r in range(1, 12):
        history = build_history(state, r)
        a, b = compute_standings(history, OLYMPIAD_2022), compute_standings(history, coded)
        assert [(x.team_id, x.rank, tuple(x.tiebreaks.values())) for x in a] == [(y.team_id, y.rank, tuple(y.tiebreaks.values())) for y in b]


def test_a_c07_profile_through_the_store_and_the_trf_round_trip():
    """Tuple values (TBR, the EDE family) and BC's lower-first order go through the embedded store's read
    models and a TRF round trip: T5 above T3 on TBR (board 1: the PAB's 1 against 0.5), T4 above T2 on EDET."""
    from producers.importers.trf import load_trf
    from projections.replay import replay
    from tests.factories import stored

    profile = PROFILE.model_copy(update={"tiebreaks": ("EDET", "TBR", "EMGSB/C1", "BC")})
    log = events(profile)
    store = stored(log)
    standings = store.project().rounds[4]
    assert [(r.team_id, r.rank) for r in standings.rows] == [("T1", 1), ("T4", 2), ("T2", 3), ("T5", 4), ("T3", 5)]
    assert standings.document["rows"][0]["tiebreaks"]["TBR"] == "3/3.5"
    assert replay(load_trf(export_trf(log))).rounds[4].digest == standings.digest
