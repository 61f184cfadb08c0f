"""TRF-2026 record 250 (acceleration) in ``export-trf``: a profile that accelerates writes the virtual
points its pairing used (../shared/spec/trf.md, record 250: MP 5-8, GP 10-13, rounds 15-17 / 19-21,
IDs 23-26 / 28-31), so a reader that re-pairs the file accelerates the same teams.

C.04.6 with the C.04.7 Baku method is re-paired by gacrux 1.11.65 (``-c -m fideteam``, the checker
``bench/bench_swiss_team_gacrux.py`` runs): every round of 8 generated tournaments has the engine's
pairs; without the 250 records gacrux pairs other teams from round 1 on. One round's colours differ,
pinned below with the reason: gacrux picks the art. 4.2 first-team on the standings score (its
reading of C.04.7 art. 1.5, which lists what the pairing score is for and not the colours), the
engine on the pairing score with the virtual points (docs/profiles.md, open reading A8).
Without gacrux the gacrux test skips, and fails under CI."""
from __future__ import annotations

from decimal import Decimal

from bench.bench_swiss_team_gacrux import gacrux_check
from producers.simulator import draw_spec, simulate
from projections.history import build_history
from projections.pairing.acceleration import baku_round
from projections.pairing.entrants import teams_to_pair
from projections.trf import export_trf
from schemas.profile import OLYMPIAD_2008, SWISS_TEAM_2026, RuleProfile
from tests.factories import created, paired, team
from tests.gacrux_tool import require_gacrux

BAKU = RuleProfile.model_validate({**SWISS_TEAM_2026.model_dump(), "name": "swiss-baku", "acceleration": "c04.7-baku"})


def records_250(text: str) -> list[str]:
    return [line for line in text.split("\r") if line.startswith("250")]


def test_2008_constant_writes_the_top_half_of_round_one():
    """R-A1..R-A3 (olympiad-2008, top-half): 8 teams on the start list, A = 4: 2 imaginary MP for TPN
    1-4 in rounds 1-2. Once round 1 is paired with T2 absent, the 7 teams paired make A = 3: TPN 1, 3
    and 4 (T2 is not in the round-1 list), written as two ranges; GP 0.0 (the MP score only)."""
    teams = [team(f"T{n}", n) for n in range(1, 9)]
    start = export_trf([created(OLYMPIAD_2008), *teams])
    assert records_250(start) == ["250  2.0  0.0 001 002 0001 0004"]
    one = export_trf([created(OLYMPIAD_2008), *teams,
                      paired(1, [("T1", "T5"), ("T3", "T6"), ("T4", "T7")], bye="T8", absent=("T2",))])
    assert records_250(one) == ["250  2.0  0.0 001 002 0001 0001", "250  2.0  0.0 001 002 0003 0004"]


def test_no_acceleration_no_250():
    assert records_250(export_trf([created(SWISS_TEAM_2026), *(team(f"T{n}", n) for n in range(1, 9))])) == []


def test_baku_writes_the_c047_schedule():
    """C.04.7, 9 rounds: 5 accelerated rounds, a win's MP (2) in rounds 1-3 and a draw's (1) in 4-5;
    GA = 2 x ceil(10 / 4) = 6 teams: TPN 1-6."""
    profile = BAKU.model_copy(update={"rounds": 9})
    text = export_trf([created(profile), *(team(f"T{n}", n) for n in range(1, 11))])
    assert records_250(text) == ["250  2.0  0.0 001 003 0001 0006", "250  1.0  0.0 004 005 0001 0006"]


def _first_team_flips(sim, rnd: int, a: int, b: int) -> bool:
    """Whether the art. 4.2 first-team of TPN ``a`` v ``b`` in round ``rnd`` is another team on the
    pairing score (primary + C.04.7 virtual points) than on the standings score (primary only)."""
    history = build_history(sim.state, rnd - 1)
    by_tpn = {info.pairing_number: t for t, info in history.teams.items()}
    baku = baku_round(history, sim.state.profile, rnd, teams_to_pair(history, rnd, sim.state.rounds[rnd].absent))

    def key(tpn: int, virtual: bool) -> tuple:
        t = by_tpn[tpn]
        rounds = history.team_rounds(t)
        mp = sum((tr.mp for tr in rounds), Decimal(0)) + (baku.points if virtual and t in baku.group else 0)
        return mp, sum((tr.gp for tr in rounds), Decimal(0)), -tpn

    return (key(a, True) > key(b, True)) != (key(a, False) > key(b, False))


def test_gacrux_repairs_a_baku_export_as_the_engine(tmp_path):
    require_gacrux()
    colours_differ = {}
    for seed in range(1, 9):
        spec = draw_spec(seed, BAKU, teams=(8, 16), rounds=(5, 7))
        sim = simulate(spec)
        text = export_trf(sim.events)
        assert len(records_250(text)) == 2
        path = tmp_path / f"baku-{seed}.trf"
        path.write_text(text, encoding="utf-8", newline="")
        result = gacrux_check(str(path), "fideteam")
        assert result["status"]["code"] in (0, 1), result["status"]
        rounds = result["pairingResult"]["roundpairing"]
        assert len(rounds) == max(sim.state.rounds)
        for r in rounds:
            assert {frozenset(p) for p in r["pairs"]} == {frozenset(p) for p in r["current"]}, (seed, r["round"])
            swapped = sorted(tuple(p) for p in r["pairs"] if tuple(p) not in {tuple(q) for q in r["current"]})
            if swapped:
                colours_differ[(seed, r["round"])] = swapped
                for white, black in swapped:
                    assert _first_team_flips(sim, r["round"], white, black)
        if seed == 1:
            # The record is what gacrux follows: without it, it pairs other teams from round 1 on.
            path.write_text("\r".join(line for line in text.split("\r") if not line.startswith("250")),
                            encoding="utf-8", newline="")
            bare = gacrux_check(str(path), "fideteam")["pairingResult"]["roundpairing"]
            assert [r["round"] for r in bare if {frozenset(p) for p in r["pairs"]} != {frozenset(p) for p in r["current"]}] == [1, 2, 3, 4]
    # Seed 7, round 2: gacrux gives TPN 5 White against 8, the engine gives 8 White (first-team above).
    assert colours_differ == {(7, 2): [(5, 8)]}
