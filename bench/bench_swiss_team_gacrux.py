"""C.04.6 against gacrux: generate tournaments, pair every round, check every round with gacrux.

For each seed in ``--start .. --start + --count - 1``: the colour model is the seed's turn among
``--profiles`` (seed modulo their number); the tournament is drawn from the seed
(``producers.simulator.draw_spec``: 6-80 teams, 5-11 rounds, ratings, draw, forfeit, absence and
withdrawal rates), simulated with every round paired by our engine, exported to TRF-2026
(``projections.trf.export_trf``) and checked round by round by gacrux 1.11.65's pairing checker,
run in worker processes exactly as ``python -m gacrux.pairingchecker -i FILE -c -m fideteam[-typeb|
-nocolor]`` runs it (its ``common_main``, JSON output). Printed: tournaments and rounds checked,
discrepancies, and for each its seed, profile, round and both pairings (gacrux's, then ours, as
``white-black`` TPN pairs, ``n-0`` the PAB), and the rounds where ``olympiad check`` (our
``check_pairing``) does not give gacrux's verdict. ``--perturb`` also changes one round per
tournament (a table's colours, or two tables' opponents), exports the changed log and compares the
two checkers' verdicts on that round. ``--summary LOG ...`` runs nothing and counts the ``--log``
files of earlier (or stopped) runs. A tournament our engine cannot pair to the end is
counted apart (``stopped``); its paired rounds are still checked, and gacrux's pairing of the
round it stopped at (``-p -u`` the absent teams) must be empty too, else it is a discrepancy. Exit status 1 if any discrepancy.

``--primary gp`` pairs on game points (secondary MP) instead.

    nice -n 10 .venv/bin/python bench/bench_swiss_team_gacrux.py --count 5000 --workers 2 --perturb
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time

from producers.simulator import draw_spec, simulate
from projections.history import build_history
from projections.pairing.systems import check_pairing
from projections.pairing.entrants import teams_to_pair
from projections.trf import export_trf
from schemas.events import Table
from schemas.profile import PROFILES

METHODS = {"swiss-team-2026": "fideteam", "swiss-team-2026-typeb": "fideteam-typeb", "swiss-team-2026-nocolour": "fideteam-nocolor"}


def gacrux_check(path: str, method: str) -> dict:
    """gacrux's check of every round of the TRF file ``path`` (its JSON result)."""
    return _gacrux(["-i", path, "-c", "-m", method], path)


def gacrux_next_round(path: str, method: str, absent: list[int]) -> list[list[int]]:
    """gacrux's pairing of the round after the last one of ``path`` without the teams ``absent``
    (TPNs; ``-u``): its ``[white, black]`` pairs, empty when it finds no legal pairing."""
    args = ["-i", path, "-p", "-m", method] + (["-u", *map(str, absent)] if absent else [])
    return _gacrux(args, path)["pairingResult"]["pairs"] or []


def _gacrux(args: list[str], path: str) -> dict:
    """Run ``gacrux.pairingchecker`` with ``args`` in this process (its ``common_main``, as
    ``python -m`` runs it); its JSON result."""
    from gacrux.pairingchecker import pairingchecker

    out = path + ".json"
    argv = sys.argv
    sys.argv = ["pairingchecker", *args, "-o", out]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            pairingchecker().common_main()
    finally:
        sys.argv = argv
    with open(out) as f:
        result = json.load(f)
    os.unlink(out)
    return result


def profile_and_method(profile_name: str, primary: str):
    """The profile ``profile_name`` with primary score ``primary`` ("mp" or "gp", the other one
    secondary) and gacrux's ``-m`` for it (``-gp+mp`` names the scores: ``-m`` overrides record 192)."""
    profile = PROFILES[profile_name]
    if primary == "mp":
        return profile, METHODS[profile_name]
    rules = profile.swiss_team.model_copy(update={"primary_score": "gp"})
    return profile.model_copy(update={"name": f"{profile_name}-gp", "swiss_team": rules}), METHODS[profile_name] + "-gp+mp"


def run_one(task: tuple[int, str, str, bool, str]) -> dict:
    """Simulate, export and check the tournament of one seed; a summary dict."""
    seed, profile_name, workdir, perturb, primary = task
    profile, method = profile_and_method(profile_name, primary)
    spec = draw_spec(seed, profile)
    start = time.process_time()
    sim = simulate(spec)
    engine_cpu = time.process_time() - start
    played = max(sim.state.rounds, default=0)
    summary = {"seed": seed, "profile": profile_name, "teams": spec.teams, "rounds": played, "stopped": sim.stopped,
               "discrepancies": [], "engine_cpu": engine_cpu}
    if played == 0:
        return summary
    path = os.path.join(workdir, f"seed-{seed}.trf")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(export_trf(sim.events))
    try:
        result = gacrux_check(path, method)
    except SystemExit as exc:  # gacrux exits on an input error
        summary["error"] = f"gacrux exit {exc.code}"
        return summary
    status = result.get("status", {})
    if status.get("code", 0) not in (0, 1):
        summary["error"] = json.dumps(status)[:500]
    for rp in result.get("pairingResult", {}).get("roundpairing", []):
        if not rp["check"]:
            summary["discrepancies"].append({"round": rp["round"], "gacrux": rp["pairs"], "ours": rp["current"]})
        # acceptance 3: ``olympiad check`` (check_pairing) gives gacrux's verdict on the same round
        ours_ok = not round_violations(sim, rp["round"])
        if ours_ok != rp["check"]:
            summary.setdefault("verdict_disagreements", []).append(rp["round"])
    if perturb:
        summary["perturbed"] = perturbed_verdicts(sim, seed, workdir, method)
    summary["rounds_checked"] = len(result.get("pairingResult", {}).get("roundpairing", []))
    if sim.stopped:
        # Our engine found no legal pairing for round played + 1: gacrux must find none either.
        summary["gacrux_pairs_stopped_round"] = gacrux_next_round(path, method, absent_tpns(sim, played + 1))
    os.unlink(path)
    return summary


def round_violations(sim, rnd: int, tables=None) -> list:
    """``check_pairing`` (what ``olympiad check`` runs) of the published round ``rnd`` of ``sim``,
    or of ``tables`` in its place."""
    published = sim.state.rounds[rnd]
    return check_pairing(build_history(sim.state, rnd - 1), sim.state.profile, rnd,
                         published.tables if tables is None else tables, published.bye, published.absent)


_INVERTED = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "+/-": "-/+", "-/+": "+/-", "-/-": "-/-"}


def perturbed_verdicts(sim, seed: int, workdir: str, method: str) -> dict:
    """One round of ``sim`` changed, exported and judged by both checkers (gacrux ``-c -n ROUND``
    on the changed file, our ``check_pairing`` on the changed tables): a played table's colours
    swapped (its board results mirrored, so the scores stay), or two played tables' opponents
    exchanged. Returns both verdicts (True = the round is right) and the change."""
    rng = random.Random(f"perturb/{seed}")
    rnd = rng.randint(1, max(sim.state.rounds))
    published = sim.state.rounds[rnd]
    tables = [t for t in published.tables if sim.state.match(rnd, t.table).played]
    if len(tables) < 2:
        return {}
    k = rng.randrange(len(tables) - 1)
    a, b = tables[k], tables[k + 1]
    if rng.random() < 0.5:
        kind, changed = "colours", [Table(table=a.table, home=a.away, away=a.home)]
    else:
        kind, changed = "opponents", [Table(table=a.table, home=a.home, away=b.away), Table(table=b.table, home=b.home, away=a.away)]
    new = {t.table: t for t in changed}
    new_tables = tuple(new.get(t.table, t) for t in published.tables)
    events = []
    for e in sim.events:
        if e.type == "RoundPaired" and e.round == rnd:
            e = e.model_copy(update={"tables": new_tables})
        elif kind == "colours" and e.type == "BoardResultRecorded" and e.round == rnd and e.table == a.table:
            e = e.model_copy(update={"result": _INVERTED[e.result]})
        events.append(e)
    path = os.path.join(workdir, f"seed-{seed}-perturbed.trf")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(export_trf(events))
    ours = not round_violations(sim, rnd, new_tables)
    result = _gacrux(["-i", path, "-c", "-n", str(rnd), "-m", method], path)
    os.unlink(path)
    (rp,) = result["pairingResult"]["roundpairing"]
    return {"round": rnd, "kind": kind, "tables": [f"{t.home}-{t.away}" for t in changed], "gacrux": rp["check"], "ours": ours}


def absent_tpns(sim, rnd: int) -> list[int]:
    """TPNs of the teams not to pair in round ``rnd`` of the stopped simulation ``sim`` (withdrawn
    or absent that round)."""
    history = build_history(sim.state, rnd - 1)
    present = set(teams_to_pair(history, rnd, sim.stopped_absent))
    return sorted(info.pairing_number for t, info in history.teams.items() if t not in present)


def _pairs(pairs: list) -> str:
    return " ".join(f"{w}-{b}" for w, b in pairs)


class Totals:
    """The counts of the tournaments checked so far (``add`` prints what goes wrong as it comes)."""

    def __init__(self) -> None:
        self.n = {"tournaments": 0, "rounds": 0, "discrepancies": 0, "stopped": 0, "errors": 0, "engine_cpu": 0.0,
                  "verdict_disagreements": 0, "perturbed": 0, "perturbed_agree": 0, "perturbed_caught": 0}
        self.seeds: set[int] = set()
        self.profiles: set[str] = set()

    def add(self, s: dict) -> None:
        """Count one tournament's summary (``run_one``'s dict, or a line of a ``--log`` file)."""
        t = self.n
        self.seeds.add(s["seed"])
        self.profiles.add(s["profile"])
        t["tournaments"] += 1
        t["rounds"] += s.get("rounds_checked", 0)
        t["stopped"] += bool(s["stopped"])
        if s.get("gacrux_pairs_stopped_round"):
            t["discrepancies"] += 1
            print(f"DISCREPANCY seed {s['seed']} profile {s['profile']}: our engine found no legal pairing of round "
                  f"{s['rounds'] + 1} ({s['stopped']}); gacrux: {_pairs(s['gacrux_pairs_stopped_round'])}", flush=True)
        t["errors"] += "error" in s
        t["engine_cpu"] += s["engine_cpu"]
        for r in s.get("verdict_disagreements", []):
            t["verdict_disagreements"] += 1
            print(f"VERDICT seed {s['seed']} round {r}: olympiad check and gacrux disagree", flush=True)
        if s.get("perturbed"):
            p = s["perturbed"]
            t["perturbed"] += 1
            t["perturbed_agree"] += p["gacrux"] == p["ours"]
            t["perturbed_caught"] += not p["ours"]
            if p["gacrux"] != p["ours"]:
                print(f"VERDICT seed {s['seed']} perturbed round {p['round']} ({p['kind']}: {' '.join(p['tables'])}): "
                      f"gacrux {p['gacrux']}, olympiad check {p['ours']}", flush=True)
        if "error" in s:
            print(f"seed {s['seed']} ({s['profile']}): gacrux error {s['error']}", flush=True)
        for d in s["discrepancies"]:
            t["discrepancies"] += 1
            print(f"DISCREPANCY seed {s['seed']} profile {s['profile']} ({s['teams']} teams) round {d['round']}\n"
                  f"  gacrux: {_pairs(d['gacrux'])}\n  ours:   {_pairs(d['ours'])}", flush=True)

    def seed_ranges(self) -> str:
        """The seeds counted, as runs ``a..b`` (a run stopped midway leaves a few gaps near its end)."""
        runs: list[list[int]] = []
        for seed in sorted(self.seeds):
            if runs and seed == runs[-1][1] + 1:
                runs[-1][1] = seed
            else:
                runs.append([seed, seed])
        return ", ".join(f"{a}..{b}" if a != b else str(a) for a, b in runs)

    def report(self, profiles: list[str], perturb: bool) -> None:
        """Print the totals (the lines docs/pairing.md quotes)."""
        t = self.n
        print(f"tournaments checked: {t['tournaments']} (seeds {self.seed_ranges()}; profiles {', '.join(profiles)})")
        print(f"rounds checked:      {t['rounds']}")
        print(f"discrepancies:       {t['discrepancies']}")
        print(f"stopped early (no legal pairing, gacrux finding none either unless listed): {t['stopped']}; "
              f"gacrux errors: {t['errors']}")
        print(f"olympiad check against gacrux's verdict: {t['verdict_disagreements']} rounds disagree")
        if perturb:
            print(f"perturbed rounds: {t['perturbed']}, verdicts agree on {t['perturbed_agree']}, "
                  f"olympiad check refuses {t['perturbed_caught']}")

    def failed(self) -> bool:
        """True if a discrepancy, a gacrux error or a verdict disagreement was counted (exit status 1)."""
        return bool(self.n["discrepancies"] or self.n["errors"] or self.n["verdict_disagreements"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--profiles", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--log", help="append one JSON line per tournament to this file")
    parser.add_argument("--summary", metavar="LOG", nargs="+",
                        help="run nothing: count the tournaments of these --log files (a stopped run's too)")
    parser.add_argument("--primary", choices=["mp", "gp"], default="mp", help="primary score of the profiles (art. 1.2)")
    parser.add_argument("--perturb", action="store_true",
                        help="also change one round per tournament (colours or opponents) and compare both checkers' verdicts")
    args = parser.parse_args()
    totals = Totals()
    if args.summary:
        for path in args.summary:
            with open(path) as f:
                for line in f:
                    totals.add(json.loads(line))
        totals.report(sorted(totals.profiles), totals.n["perturbed"] > 0)
        return 1 if totals.failed() else 0
    tasks_dir = tempfile.mkdtemp(prefix="swiss-team-gacrux-")
    tasks = [(seed, args.profiles[seed % len(args.profiles)], tasks_dir, args.perturb, args.primary) for seed in range(args.start, args.start + args.count)]
    log = open(args.log, "a") if args.log else None
    began = time.time()
    with multiprocessing.Pool(args.workers) as pool:
        for n, s in enumerate(pool.imap_unordered(run_one, tasks, chunksize=4), start=1):
            totals.add(s)
            if log:
                log.write(json.dumps(s) + "\n")
                log.flush()
            if n % 100 == 0:
                print(f"... {n} tournaments, {totals.n['rounds']} rounds, {totals.n['discrepancies']} discrepancies, "
                      f"{time.time() - began:.0f} s", flush=True)
    os.rmdir(tasks_dir)
    totals.report(args.profiles, args.perturb)
    print(f"engine + simulation CPU: {totals.n['engine_cpu']:.1f} s; wall {time.time() - began:.0f} s")
    return 1 if totals.failed() else 0


if __name__ == "__main__":
    sys.exit(main())
