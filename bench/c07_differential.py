"""Differential of the C.07 (2026) team tie-break catalogue against gacrux 1.11.65, on exported TRF files
(issue 14, acceptance 1-3), and the TRF round trip.

For each event (Samarkand 2026, Chennai 2022 when its folder is there, N simulated tournaments of
both Olympiad profiles, and M simulated C.04.6 tournaments with game points primary: issue 28) the whole tournament is exported (``export_trf``, start date 2026-09-01 so gacrux takes
its 2026 rule set) and read by gacrux's own TRF reader (``trf2json``, status must be 0); then, for every
team after every round, each per-team code of ``VALUE_CODES`` is compared with our value (the event's
profile with C.07 2026 unplayed rounds, ``dummy-2026``), and each type A code of ``RANK_CODES`` (whose
values are ranks inside tied groups) by the rank it gives after the primary score (MP, or GP: gacrux
reads it from the 192 record ``FIDE_TEAM_..._GP_MP``). Both sides read the final log (a
result corrected later counts in every round, on both sides). A difference is classified by
``classify`` (docs/tiebreaks.md "C.07 catalogue against gacrux"); ``UNEXPLAINED`` must stay at 0.
The round trip checks that ``import-trf(export-trf(log, r))`` gives the log's standings digest after
every round r.

Run: ``.venv/bin/python -m bench.c07_differential [--simulated 200] [--gp-primary 40]`` (prints the CPU of export and
import of Samarkand as ratios to its replay, counts per tie-break, every difference class, round-trip
and gacrux status counts, and CPU seconds per event).
"""
from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from processors.tournament import TournamentState
from producers.importers.trf import load_trf
from producers.simulator import SimulationSpec, simulate
from projections.history import History, build_history
from projections.replay import replay
from projections.standings import compute_standings
from projections.standings.catalogue import C07Context
from projections.trf import TrfHeader, export_trf
from schemas.profile import OLYMPIAD_2008, OLYMPIAD_2022, SWISS_TEAM_2026, RuleProfile, SwissTeamRules

VALUE_CODES = ["MPTS", "GPTS", "MPVGP", "WIN", "EMMSB", "EMGSB", "EGMSB", "EGGSB", "EMMSB/C1", "EMGSB/C1", "EGGSB/C1",
               "EMGSB/C1/P", "BH:MP", "BH:GP", "BH:MP/C1", "BH:GP/C1", "BH:MP/M1", "BH:MP/C1/P", "FB:MP", "BC"]
ALONE_CODES = ["SSSC"]  # run one by one: gacrux 1.11.65 divides by zero in SSSC when floor(2 x round / 4) is 0
RANK_CODES = ["EDE", "EDET", "EDEB", "EDEBT", "EDEBB", "TBR", "BBE"]
UNEXPLAINED = "UNEXPLAINED"
GACRUX_FAILS = "gacrux fails (DivisionUndefined)"
SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


@dataclass
class Tally:
    """Counts per code: equal, differing, and the differences by class (with a few examples each)."""

    equal: Counter = field(default_factory=Counter)
    differing: Counter = field(default_factory=Counter)
    classes: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, other: "Tally") -> None:
        self.equal.update(other.equal)
        self.differing.update(other.differing)
        self.classes.update(other.classes)
        for k, v in other.examples.items():
            self.examples.setdefault(k, []).extend(v[: 3 - len(self.examples.get(k, []))])


def c07_profile(profile: RuleProfile) -> RuleProfile:
    """The event's profile read with C.07 2026 unplayed rounds (a whole-match forfeit not a meeting)."""
    return profile.model_copy(update={"name": profile.name + "-c07", "unplayed": "dummy-2026", "forfeited_match_in_tiebreaks": False,
                                      "tiebreaks": ("EMGSB/C1",)})


def gacrux_tournament(text: str) -> tuple[int, dict]:
    """gacrux's reading of TRF ``text``: (status code, tournament)."""
    from gacrux import trf2json

    reader = trf2json.trf2json()
    reader.parse_file(text, False)
    return reader.chessjson["status"]["code"], reader.get_tournament(1)


def gacrux_run(tournament: dict, rnd: int, codes: list[str]) -> dict[int, tuple[int, list]]:
    """TPN -> (rank, values of ``codes``) after round ``rnd``, by gacrux."""
    from gacrux import tiebreak

    params = {"tiebreak": codes, "check": False}
    result = tiebreak.tiebreak(tournament, rnd, params).compute_tiebreaks(tournament, params)
    return {c["cid"]: (c["rank"], c["tiebreakScore"]) for c in result["competitors"]}


SSSC_ROUNDS = "13.4 factor on the rounds so far, rounded to 0.01 (gacrux) v the tournament's rounds (ours)"
OWN_MATCH = "13.3.2 art. 12 on the boards of the two teams' own match (gacrux) v of all their matches (ours)"
BC_HIGHER = "13.3.2 own match, and BC higher first (gacrux) v lower first (ours, C.07 12.1)"
WIN_BOARDS = "7.1 WIN with GP primary: won boards (gacrux, WIN on the primary score) v won matches (ours; WIN:GP refused)"


def classify(code: str, history: History, team: str, ours: Any, theirs: Any, ctx: C07Context,
             their_ranks: dict[str, int] | None = None) -> str:
    """The class of one difference (docs/tiebreaks.md "C.07 catalogue against gacrux"): a model of
    gacrux's reading, built from our own values, must give its value; else ``UNEXPLAINED``."""
    from decimal import ROUND_HALF_UP

    p = ctx.profile
    gp_primary = p.primary_score == "gp"
    if code == "SSSC":
        if gp_primary:
            factor = Decimal(p.boards * history.through_round // p.match_points.win)
            secondary, strength = ctx.rounds.total(team, "MP"), ctx.value("BH:GP", team)
        else:
            factor = Decimal(p.match_points.win * history.through_round // p.boards)
            secondary, strength = ctx.gp[team], ctx.value("BH:MP", team)
        model = (secondary + strength / factor).quantize(Decimal(".01"), rounding=ROUND_HALF_UP) if factor else None
        return SSSC_ROUNDS if model == theirs else UNEXPLAINED
    if code == "WIN" and gp_primary:
        return WIN_BOARDS if won_boards(history, team, p.boards) == theirs else UNEXPLAINED
    if code.startswith("EDE") and code != "EDE (rank)" and their_ranks is not None:
        primary = "GP" if gp_primary else "MP"
        tied = [t for t in history.teams if ctx.rounds.total(t, primary) == ctx.rounds.total(team, primary)]
        ede = ctx.group_values("EDE", tied)  # the teams the direct encounter leaves tied with ``team``
        group = [t for t in tied if ede[t] == ede[team]]
        if len(group) == 2:
            other = next(t for t in group if t != team)
            name, theirs_order = code.split(" ")[0], _sign(their_ranks[other] - their_ranks[team])
            if own_match_order(ctx, name, team, other) == theirs_order:
                return OWN_MATCH
            if own_match_order(ctx, name, team, other, bc_higher_first=True) == theirs_order:
                return BC_HIGHER
            return UNEXPLAINED
    return UNEXPLAINED


def won_boards(history: History, team: str, boards: int) -> Decimal:
    """gacrux's WIN on game points: the boards ``team`` won (a forfeit won on the board counts), each
    board of a PAB as a win."""
    from processors.scoring import board_points

    won = 0
    for tr in history.team_rounds(team):
        if tr.kind == "bye":
            won += boards
        elif tr.table is not None:
            home, codes = history.board_results(tr.round, tr.table)
            won += sum(1 for board, result in codes.items() if board_points(result, board)[0 if home == team else 1] == 1)
    return Decimal(won)


def _sign(x: Any) -> int:
    return (x > 0) - (x < 0)


def own_match_order(ctx: C07Context, code: str, team: str, other: str, bc_higher_first: bool = False) -> int:
    """gacrux's 13.3.2 reading: 1 if ``team`` ranks above ``other`` (-1 below, 0 tied) by DE on the primary
    score, then the secondary, then the art. 12 keys of ``code`` (EDET: TBR, EDEB: BBE, EDEBT: BC and TBR, EDEBB: BC and BBE)
    over the boards of their own matches; ``bc_higher_first`` reads BC higher first (against 12.1)."""
    from processors.scoring import board_points
    from projections.standings.board_count import board_count, bottom_board_elimination, top_board_results

    meetings = [tr for tr in ctx.history.team_rounds(team) if tr.opponent == other and tr.kind == "played"]
    for score in (("gp", "mp") if ctx.profile.primary_score == "gp" else ("mp", "gp")):
        mine = sum((Decimal(getattr(tr, score)) for tr in meetings), Decimal(0))
        theirs = sum((Decimal(getattr(o, score)) for o in ctx.history.team_rounds(other) if o.opponent == team and o.kind == "played"), Decimal(0))
        if mine != theirs:
            return _sign(mine - theirs)
    per = {team: [Decimal(0)] * ctx.profile.boards, other: [Decimal(0)] * ctx.profile.boards}
    for tr in meetings:
        home, codes = ctx.history.board_results(tr.round, tr.table)
        for board, result in codes.items():
            h, a, _ = board_points(result, board)
            per[team][board - 1] += h if home == team else a
            per[other][board - 1] += a if home == team else h
    keys = {"EDET": ["TBR"], "EDEB": ["BBE"], "EDEBT": ["BC", "TBR"], "EDEBB": ["BC", "BBE"]}[code]
    for key in keys:
        if key == "BC":
            a, b = board_count(per[team]), board_count(per[other])
            a, b = (a, b) if bc_higher_first else (-a, -b)
        else:
            fn = top_board_results if key == "TBR" else bottom_board_elimination
            a, b = fn(per[team]), fn(per[other])
        if a != b:
            return (a > b) - (a < b)
    return 0


def compare_event(name: str, events: list, profile: RuleProfile | None = None) -> tuple[Tally, int]:
    """Tally of every code for every team after every round of ``events``; returns it and gacrux's status."""
    state = TournamentState()
    for e in events:
        state.evolve(e)
    ours_profile = c07_profile(profile or state.profile)
    status, tournament = gacrux_tournament(export_trf(events, header=TrfHeader(start_date="2026-09-01")))
    tally = Tally()
    if status != 0:
        return tally, status
    tpn = {t: info.pairing_number for t, info in build_history(state).teams.items()}
    for rnd in sorted(state.rounds):
        history = build_history(state, rnd)
        ctx = C07Context(history, ours_profile)
        theirs = gacrux_run(tournament, rnd, VALUE_CODES)
        for team, number in tpn.items():
            for k, code in enumerate(VALUE_CODES):
                mine, their = ctx.value(code, team), Decimal(str(theirs[number][1][k]))
                _count(tally, code, name, rnd, history, team, mine, their, ctx)
        for code in ALONE_CODES:
            try:
                alone = gacrux_run(tournament, rnd, [code])
            except ArithmeticError:
                tally.classes[(code, GACRUX_FAILS)] += len(tpn)
                tally.differing[code] += len(tpn)
                continue
            for team, number in tpn.items():
                _count(tally, code, name, rnd, history, team, ctx.value(code, team), Decimal(str(alone[number][1][0])), ctx)
        primary = "GPTS" if ours_profile.primary_score == "gp" else "MPTS"
        for code in RANK_CODES:
            ranked = {r.team_id: r.rank for r in compute_standings(history, ours_profile.model_copy(update={"tiebreaks": (code,)}))}
            theirs = gacrux_run(tournament, rnd, [primary, code])
            their_ranks = {t: theirs[n][0] for t, n in tpn.items()}
            for team, number in tpn.items():
                _count(tally, code + " (rank)", name, rnd, history, team, ranked[team], theirs[number][0], ctx, their_ranks)
    return tally, status


def _count(tally: Tally, code: str, event: str, rnd: int, history: History, team: str, mine: Any, theirs: Any,
           ctx: C07Context, their_ranks: dict[str, int] | None = None) -> None:
    if mine == theirs:
        tally.equal[code] += 1
        return
    tally.differing[code] += 1
    cause = classify(code, history, team, mine, theirs, ctx, their_ranks)
    tally.classes[(code, cause)] += 1
    tally.examples.setdefault(f"{code}: {cause}", [])
    if len(tally.examples[f"{code}: {cause}"]) < 3:
        tally.examples[f"{code}: {cause}"].append(f"{event} r{rnd} {team}: ours {mine}, gacrux {theirs}")


def round_trip_mismatches(events: list) -> int:
    """Rounds whose standings digest differs between the log and import(export(log, r))."""
    original = replay(events)
    return sum(1 for r, s in original.rounds.items() if replay(load_trf(export_trf(events, r))).rounds[r].digest != s.digest)


def simulated_events(seed: int) -> list:
    """Simulated tournament ``seed``: both profiles in turn, 15-40 teams, forfeits, absences, withdrawals."""
    profile = (OLYMPIAD_2008, OLYMPIAD_2022)[seed % 2]
    spec = SimulationSpec(teams=15 + (seed * 7) % 26, rounds=9, seed=seed, profile=profile, tournament_id=f"sim-{seed}",
                          board_forfeit_rate=0.01, match_forfeit_rate=0.02, absence_rate=0.02, withdrawal_rate=0.03)
    return simulate(spec).events


GP_PRIMARY = RuleProfile.model_validate({**SWISS_TEAM_2026.model_dump(), "name": "swiss-team-2026-gp",
                                         "tiebreaks": ("OSB-C1", "BH:MP/C1", "GP"),
                                         "swiss_team": SwissTeamRules(primary_score="gp")})
"""C.04.6 with game points primary (art. 1.2), MP secondary: the GP-primary events of the differential.
Buchholz names its score (BH:MP/C1, the value of swiss-team-2026's BH-C1): the Olympiad name is refused
under GP primary (``schemas.tiebreak_codes.check_primary``)."""


def gp_primary_events(seed: int) -> list:
    """Simulated C.04.6 tournament ``seed`` with GP primary: 12-33 teams, 7 rounds, forfeits, absences,
    withdrawals."""
    spec = SimulationSpec(teams=12 + (seed * 5) % 22, rounds=7, seed=seed, profile=GP_PRIMARY.model_copy(update={"rounds": 7}),
                          tournament_id=f"gp-{seed}", board_forfeit_rate=0.01, match_forfeit_rate=0.02, absence_rate=0.02,
                          withdrawal_rate=0.03)
    return simulate(spec).events


def real_events() -> list[tuple[str, list]]:
    from producers.sources import load_log, load_source

    out = [("samarkand-2026-open", load_source("samarkand-2026-open"))]
    chennai = SHARED_DATA / "olympiad-2022-chennai-open"
    if chennai.is_dir():
        out.append(("chennai-2022-open", load_log(str(chennai))))
    return out


def export_speed(events: list, runs: int = 5) -> str:
    """CPU seconds of ``export_trf`` and of ``load_trf`` of one whole tournament, each as a ratio to
    ``replay`` of the same log measured in the same run (the baseline: what the CLI does anyway)."""
    def cpu(fn) -> float:
        best = float("inf")
        for _ in range(runs):
            t = time.process_time()
            fn()
            best = min(best, time.process_time() - t)
        return best

    text = export_trf(events)
    base, out, back = cpu(lambda: replay(events)), cpu(lambda: export_trf(events)), cpu(lambda: load_trf(text))
    return (f"replay {base:.3f} s CPU; export_trf {out:.3f} s ({out / base:.2f} x replay); "
            f"load_trf {back:.3f} s ({back / base:.2f} x replay)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulated", type=int, default=200, help="simulated tournaments (default 200)")
    parser.add_argument("--gp-primary", type=int, default=40, help="simulated C.04.6 tournaments with GP primary (default 40)")
    args = parser.parse_args()
    total, statuses, trips = Tally(), Counter(), Counter()
    runs = (real_events() + [(f"sim-{s}", simulated_events(s)) for s in range(args.simulated)]
            + [(f"gp-{s}", gp_primary_events(s)) for s in range(args.gp_primary)])
    print(f"{runs[0][0]}: {export_speed(runs[0][1])}")
    cpu = time.process_time()
    for name, events in runs:
        tally, status = compare_event(name, events)
        statuses[status] += 1
        trips["rounds differing" if round_trip_mismatches(events) else "all rounds equal"] += 1
        total.add(tally)
        if not name.startswith(("sim-", "gp-")):
            print(f"{name}: gacrux status {status}; " + ", ".join(f"{c} {tally.equal[c]}/{tally.differing[c]}" for c in sorted(tally.equal | tally.differing)))
    cpu = time.process_time() - cpu
    print(f"{len(runs)} events ({args.simulated} simulated, {args.gp_primary} GP primary); gacrux status counts {dict(statuses)}; round trip {dict(trips)}")
    print(f"CPU {cpu:.1f} s, {cpu / len(runs):.2f} s per event")
    print("per tie-break (equal / differing):")
    for code in sorted(total.equal | total.differing):
        print(f"  {code:16} {total.equal[code]:7d} / {total.differing[code]}")
    print("differences by class:")
    for (code, cause), n in sorted(total.classes.items()):
        print(f"  {code:16} {cause}: {n}")
    for key, lines in sorted(total.examples.items()):
        print(f"  e.g. {key}: " + "; ".join(lines))


if __name__ == "__main__":
    main()
