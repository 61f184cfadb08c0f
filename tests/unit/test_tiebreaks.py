"""Tie-break rules on small hand-built histories, through the real standings functions.

Sources: spec olympiad-rules.md 6.2 (worked example: OSB-C1 = 46, BH-C1 = 26, GP = 11.5; the
wrong readings 50.5 and 44.5), 6.3 (unplayed rounds: virtual opponent, C.07 2023/2026 dummy),
R-T1 (2008 order OSB-C1, BH-C1, GP), spec README "Standings as published at Samarkand 2026" 4-7
(2022 order OSB-C1, GP, BH-C1; a round without an opponent is one element worth 0, cut first).
MP are integers, GP and OSB terms exact half-points (``Decimal``).
"""
from __future__ import annotations

from decimal import Decimal

import pytest

from projections.history import History, TeamInfo, TeamRound
from projections.standings import compute_standings
from projections.standings.buchholz import buchholz
from projections.standings.cut import cut_index
from projections.standings.elements import match_points_total, team_elements
from projections.standings.sonneborn_berger import olympiad_sonneborn_berger
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022

BYE = "bye"


def history(rounds: dict[str, list], through_round: int | None = None) -> History:
    """A ``History`` from ``{team: [round 1, round 2, ...]}``; a round is ``(opponent, GP, MP)``
    (played), ``(opponent, GP, MP, kind)``, ``BYE`` (the profiles' bye award: 1 MP, 2 GP) or
    ``None`` (absent: 0 MP, 0 GP). Missing rounds up to ``through_round`` are absent."""
    n = through_round or max(len(r) for r in rounds.values())
    teams = {t: TeamInfo(t, f"Team {t}", "XXX", i, Decimal(2000)) for i, t in enumerate(rounds, start=1)}
    table: dict[int, dict[str, TeamRound]] = {r: {} for r in range(1, n + 1)}
    for team, spec in rounds.items():
        for r, entry in enumerate(spec + [None] * (n - len(spec)), start=1):
            if entry is None:
                table[r][team] = TeamRound(r, team, None, Decimal(0), 0, "absent", None)
            elif entry == BYE:
                table[r][team] = TeamRound(r, team, None, Decimal(2), 1, "bye", None)
            else:
                opponent, gp, mp, kind = (*entry, "played")[:4]
                table[r][team] = TeamRound(r, team, opponent, Decimal(gp), mp, kind, "W" if kind == "played" else None)
    return History(teams, table, n, {})


_MIRROR = {"played": "played", "forfeit-win": "forfeit-loss", "forfeit-loss": "forfeit-win"}


def with_opponents(team: str, spec: list, finals: dict[str, int], rounds: int) -> dict[str, list]:
    """``team``'s rounds plus its opponents': each opponent mirrors its match with ``team`` and
    wins or draws against a ``"pad"`` team in its other rounds until it has its final MP."""
    out = {team: spec, "pad": []}
    for r, entry in enumerate(spec, start=1):
        if entry in (None, BYE):
            continue
        opponent, gp, mp, kind = (*entry, "played")[:4]
        need = finals[opponent] - (2 - mp)
        own = []
        for other in range(1, rounds + 1):
            if other == r:
                own.append((team, str(4 - Decimal(gp)), 2 - mp, _MIRROR[kind]))
            elif need > 0:
                step = min(need, 2)
                own.append(("pad", "3" if step == 2 else "2", step))
                need -= step
            else:
                own.append(None)
        assert need == 0, f"{opponent} cannot reach {finals[opponent]} MP"
        out[opponent] = own
    return out


# Spec 6.2: team A over 5 rounds v P (final 3 MP), Q (8), R (6), S (9), T (3).
TEAM_A = [("P", "3.5", 2), ("Q", "2", 1), ("R", "2.5", 2), ("S", "0.5", 0), ("T", "3", 2)]
FINALS_A = {"P": 3, "Q": 8, "R": 6, "S": 9, "T": 3}
# Spec 6.2, last line: B, also 7 MP and OSB-C1 46, but BH-C1 27 (and less GP: 10.5).
TEAM_B = [("U1", "3", 2), ("V", "2", 1), ("W", "3", 2), ("X", "0", 0), ("U2", "2.5", 2)]
FINALS_B = {"U1": 4, "V": 8, "W": 6, "X": 9, "U2": 4}


def worked_example(*, with_b: bool = False) -> History:
    spec = with_opponents("A", TEAM_A, FINALS_A, 5)
    if with_b:
        spec.update(with_opponents("B", TEAM_B, FINALS_B, 5))
    return history(spec)


def test_worked_example_values_through_the_element_functions():
    h = worked_example()
    totals = {t: match_points_total(h, t) for t in h.teams}
    assert {t: totals[t] for t in "APQRST"} == {"A": 7, "P": 3, "Q": 8, "R": 6, "S": 9, "T": 3}
    elements = team_elements(h, "A", OLYMPIAD_2008, totals)
    assert [e.osb_term for e in elements] == [Decimal("10.5"), 16, 15, Decimal("4.5"), 9]
    cut = cut_index(elements)
    assert elements[cut].opponent == "T"  # P and T tie on the lowest MP (3): the smaller term (9) goes
    assert olympiad_sonneborn_berger(elements) == 55
    assert olympiad_sonneborn_berger(elements, cut) == 46
    assert buchholz(elements) == 29
    assert buchholz(elements, cut) == 26


@pytest.mark.parametrize("profile", [OLYMPIAD_2008, OLYMPIAD_2022], ids=lambda p: p.name)
def test_worked_example_in_the_standings(profile):
    a = next(r for r in compute_standings(worked_example(), profile) if r.team_id == "A")
    assert (a.mp, a.gp, a.tiebreaks["OSB-C1"], a.tiebreaks["BH-C1"]) == (7, Decimal("11.5"), 46, 26)
    # The readings the spec rejects: cutting the smallest term overall (S, 4.5) gives 50.5;
    # cutting P instead of T among the opponents tied on 3 MP gives 44.5.
    assert a.tiebreaks["OSB-C1"] not in (Decimal("50.5"), Decimal("44.5"))
    assert a.elements[a.cut].round == 5


def test_order_of_the_keys_2008_against_2022():
    """Spec 6.2: B with 7 MP, OSB-C1 46 and BH-C1 27 ranks above A whatever the GP (2008, R-T1).
    Under the 2022 order (OSB-C1, GP, BH-C1) A's 11.5 GP beats B's 10.5."""
    h = worked_example(with_b=True)
    rows08 = {r.team_id: r for r in compute_standings(h, OLYMPIAD_2008)}
    assert (rows08["B"].mp, rows08["B"].gp, rows08["B"].tiebreaks["OSB-C1"], rows08["B"].tiebreaks["BH-C1"]) == (7, Decimal("10.5"), 46, 27)
    assert rows08["B"].rank < rows08["A"].rank
    rows22 = {r.team_id: r for r in compute_standings(h, OLYMPIAD_2022)}
    assert rows22["A"].rank < rows22["B"].rank


def test_cut_one_applies_from_round_one():
    # Spec README Samarkand 7: after round 1 every OSB-C1 and BH-C1 is 0.
    h = history({"A": [("B", "3", 2)], "B": [("A", "1", 0)]})
    rows = {r.team_id: r for r in compute_standings(h, OLYMPIAD_2022)}
    assert [(rows[t].tiebreaks["OSB-C1"], rows[t].tiebreaks["BH-C1"]) for t in "AB"] == [(0, 0), (0, 0)]


def bye_in_round_3(rounds: int) -> History:
    """Team A wins rounds 1-2 (4 MP), has the bye in round 3, then draws up to ``rounds``."""
    spec = [("O1", "3", 2), ("O2", "3", 2), BYE] + [(f"O{r}", "2", 1) for r in range(4, rounds + 1)]
    return history(with_opponents("A", spec, {f"O{r}": 0 if r < 3 else 1 for r in range(1, rounds + 1)}, rounds))


def round_3_element(h: History, profile):
    """Team A's tie-break element of round 3 under ``profile`` (opponents at their current MP)."""
    totals = {t: match_points_total(h, t) for t in h.teams}
    return next(e for e in team_elements(h, "A", profile, totals) if e.round == 3)


def test_virtual_opponent_example():
    # Spec 6.3: bye in round 3 of 11, 4 MP before, 1 MP awarded: Svon = 4 + 1 + 8 = 13; term 13 x 2 GP.
    e = round_3_element(bye_in_round_3(11), OLYMPIAD_2008)
    assert (e.opponent, e.unplayed, e.opponent_mp, e.own_gp, e.osb_term) == (None, True, 13, 2, 26)


def test_virtual_opponent_during_the_event_counts_completed_rounds():
    # Pre-2023 C.07: n = number of completed rounds; after round 5 the virtual opponent has
    # 4 + 1 + 2 draws = 7 MP.
    e = round_3_element(bye_in_round_3(5), OLYMPIAD_2008)
    assert (e.opponent_mp, e.osb_term) == (7, 14)


def dummy_history(round_3=BYE) -> History:
    """Team A after 11 rounds: 6 wins, a draw and 3 losses around ``round_3`` (the bye: 14 MP)."""
    results = [("3", 2)] * 6 + [("2", 1)] + [("1", 0)] * 3
    spec = [(f"O{i}", gp, mp) for i, (gp, mp) in enumerate(results, start=1)]
    spec.insert(2, round_3)
    finals = {f"O{i}": 4 - mp for i, (_, mp) in enumerate(results, start=1)} | {"F": 0}  # each beats a pad team
    return history(with_opponents("A", spec, finals, 11), 11)


@pytest.mark.parametrize("policy, dummy, term", [("dummy-2023", 14, 28), ("dummy-2026", 11, 22), ("zero-element", 0, 0)])
def test_dummy_opponent_examples(policy, dummy, term):
    # Spec 6.3: a team with a bye and 14 final MP: dummy 14 (2023/2024) or min(14, 1 x 11) = 11
    # (2026); OSB term 28 or 22. Samarkand 2026 practice: an element worth 0.
    h = dummy_history()
    assert match_points_total(h, "A") == 14
    profile = OLYMPIAD_2022.model_copy(update={"unplayed": policy})
    e = round_3_element(h, profile)
    assert (e.opponent_mp, e.osb_term) == (dummy, term)


def test_zero_element_is_the_one_cut():
    # Spec README Samarkand 6-7: the bye is one element worth 0 and cut-1 removes it, so OSB-C1
    # and BH-C1 are the sums over the ten real opponents.
    h = dummy_history()
    a = next(r for r in compute_standings(h, OLYMPIAD_2022) if r.team_id == "A")
    assert a.elements[a.cut].round == 3
    real = [e for e in a.elements if not e.unplayed]
    assert a.tiebreaks["OSB-C1"] == sum(e.osb_term for e in real)
    assert a.tiebreaks["BH-C1"] == sum(e.opponent_mp for e in real)


def test_dummy_2026_caps_a_forfeit_at_the_scheduled_opponent():
    # C.07 2026 art. 16.4.1 (spec 6.3): for a forfeit the dummy is capped at the scheduled
    # opponent's score: min(A's 15 MP, F's 0 MP) = 0.
    h = dummy_history(round_3=("F", "4", 2, "forfeit-win"))
    assert match_points_total(h, "A") == 15
    profile = OLYMPIAD_2022.model_copy(update={"unplayed": "dummy-2026", "forfeited_match_in_tiebreaks": False})
    e = round_3_element(h, profile)
    assert (e.opponent, e.unplayed, e.opponent_mp, e.osb_term) == (None, True, 0, 0)
    uncapped = round_3_element(h, profile.model_copy(update={"unplayed": "dummy-2023"}))
    assert (uncapped.opponent_mp, uncapped.osb_term) == (15, 60)
