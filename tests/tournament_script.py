"""A 31-team, 11-round tournament run from nothing through the arbiter's commands.

``play(invoke, state)`` drives a whole tournament: ``invoke(argv)`` runs one ``olympiad``
command line (returning its exit status and output), ``state()`` gives the tournament state of
the store it writes to (to read the published tables, as an arbiter reads the pairing card).
Every command line is recorded in order, so the same sequence can be sent through another
door (Kafka, HTTP) and must yield the same events.

What happens, round by round (the points of issue 10's acceptance 1):
- 31 teams imported from CSV, starting ranks set, line-ups every round (some teams field their
  reserve on board 4);
- round 2: board 3 of table 2 forfeited by the home team's player, late at the start (zero
  tolerance); round 7: board 4 of table 1 forfeited, a refused handshake;
- round 3: a late entry (team ``LTE``, registered after round 2 is published, plays from round 3);
- round 4: the match at table 5 forfeited, the away team absent;
- round 5: team ``T10`` announces its absence before the round is paired;
- after round 5 is published: a round-4 board (table 1, board 2) corrected by the chief arbiter;
- after round 6: team ``T20`` withdraws (from round 7);
- every round: engine pairing, publication, results, close.
"""
from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import Any, Callable

TID = "club-league-2026"
TEAMS = 31
ROUNDS = 11
CLOCK = "2026-12-05T10:00:00+00:00"
"""``OLYMPIAD_CLOCK`` of the run: every event carries this time, so two doors give equal events."""


def write_teams_csv(path: Path, seed: int = 2026) -> Path:
    """31 teams of 5 players (ratings drawn from ``seed``) as the CSV that ``olympiad team import`` reads."""
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["team_id", "team", "federation", "board", "name", "fide_id", "title", "rating"])
        for i in range(1, TEAMS + 1):
            base = rng.randint(1700, 2600)
            for board in range(1, 6):
                out.writerow([f"T{i:02d}", f"Club {i:02d}", "ABC", board, f"Player {i:02d}-{board}",
                              f"{900000 + i * 10 + board}", "", base - 15 * board + rng.randint(-40, 40)])
    return path


def _result(rnd: int, table: int, board: int) -> str:
    rng = random.Random(rnd * 10_000 + table * 10 + board)
    return rng.choices(["1-0", "0-1", "1/2-1/2"], weights=[4, 4, 3])[0]


def play(invoke: Callable[[list[str]], tuple[int, str]], state: Callable[[], Any], csv_path: Path) -> list[list[str]]:
    """Run the whole tournament; returns the command lines in the order they were run.

    Raises ``AssertionError`` naming the command line when a command does not exit 0.
    """
    script: list[list[str]] = []

    def run(*argv: Any) -> str:
        line = [str(a) for a in argv]
        code, out = invoke(line)
        assert code == 0, f"olympiad {' '.join(line)} exited {code}: {out}"
        script.append(line)
        return out

    run("new", TID, "--name", "Club League 2026", "--profile", "olympiad-2022", "--rounds", ROUNDS,
        "--starts", "2026-12-05", "--ends", "2026-12-15", "--venue", "Tashkent", "--chief-arbiter", "A. Arbiter")
    run("team", "import", TID, csv_path)
    run("team", "ranks", TID)
    for rnd in range(1, ROUNDS + 1):
        if rnd == 3:
            run("team", "add", TID, "LTE", "--name", "Late Entrants", "--federation", "XYZ", "--from-round", 3,
                *[x for b in range(1, 6) for x in ("--player", f"Late {b};{990000 + b};;{2100 - 10 * b}")])
        if rnd == 5:
            run("team", "absent", TID, "T10", 5, "--reason", "travel: the team arrives for round 6")
        if rnd == 7:
            run("team", "withdraw", TID, "T20", "--reason", "the team left the event after round 6")
        for team in state().present(rnd):
            if team != "LTE" and int(team[1:]) % 4 == rnd % 4:
                run("lineup", TID, rnd, team, 1, 2, 3, 5)  # the reserve plays board 4
        run("round", "pair", TID, rnd)
        run("round", "publish", TID, rnd)
        if rnd == 5:
            run("correct", TID, 4, 1, 2, _other(state(), 4, 1, 2), "--reason", "the scoresheet of board 2 was misread")
        tables = state().rounds[rnd].tables
        for t in tables:
            if rnd == 4 and t.table == 5:
                run("forfeit", TID, rnd, t.table, "--team", t.away, "--reason", "absence", "--note", "did not arrive")
                continue
            skip = {(2, 2): 3, (7, 1): 4}.get((rnd, t.table))
            if skip is not None:
                reason = "late-arrival" if rnd == 2 else "handshake-refusal"
                run("forfeit", TID, rnd, t.table, skip, "--team", t.home, "--reason", reason)
            codes = ["-" if b == skip else _result(rnd, t.table, b) for b in range(1, 5)]
            run("results", TID, rnd, t.table, *codes)
        run("round", "close", TID, rnd)
    return script


def play_embedded(folder: Path) -> tuple[list[list[str]], Any, Path]:
    """``play`` through the CLI (typer's ``CliRunner``, clock ``CLOCK``) on the SQLite event store
    ``folder/club.sqlite``: ``(command lines, the store refreshed, its file)``."""
    from typer.testing import CliRunner

    from olympiad.cli import app
    from projections.store import EventStore

    db = folder / "club.sqlite"
    runner = CliRunner()
    env = {"OLYMPIAD_CLOCK": CLOCK, "OLYMPIAD_DB": f"sqlite:///{db}", "COLUMNS": "200"}

    def invoke(argv: list[str]) -> tuple[int, str]:
        result = runner.invoke(app, argv, env=env)
        return result.exit_code, result.output

    store = EventStore(f"sqlite:///{db}")
    lines = play(invoke, store.refresh, write_teams_csv(folder / "teams.csv"))
    store.refresh()
    return lines, store, db


def play_rewritten(lines: list[list[str]], folder: Path) -> tuple[Any, Path]:
    """The command ``lines`` of ``play`` run again on a new SQLite store ``folder/rewritten.sqlite``
    with a new chief arbiter key (``folder/other.key``) and one result changed (round 11, table 3,
    board 1: the other side wins): a log consistent in itself (its chain, its checkpoints, its
    standings), signed by another key. ``(the store refreshed, its file)``."""
    from typer.testing import CliRunner

    from olympiad.cli import app
    from projections.store import EventStore

    db = folder / "rewritten.sqlite"
    env = {"OLYMPIAD_CLOCK": CLOCK, "OLYMPIAD_DB": f"sqlite:///{db}", "OLYMPIAD_KEY": str(folder / "other.key"), "COLUMNS": "200"}
    runner = CliRunner()
    changed = 0
    for line in lines:
        if line[:4] == ["results", TID, "11", "3"]:
            line = [*line[:4], {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[line[4]], *line[5:]]
            changed += 1
        result = runner.invoke(app, line, env=env)
        assert result.exit_code == 0, (line, result.output)
    assert changed == 1, "round 11 has no table 3 in the script"
    store = EventStore(f"sqlite:///{db}")
    store.refresh()
    return store, db


def _other(state: Any, rnd: int, table: int, board: int) -> str:
    current = state.results[(rnd, table, board)][1]
    return {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}[current]
