"""Benchmark: a live game feed on the embedded store (issue 29): ``--games`` games played at once
(default 400: 100 matches of 4 boards), each advanced ``--plies`` half-moves per step and written
as one round PGN file, the ingester polling after each step (no wait: the poll interval is added
to the latency by the feed itself).

The games are the first ``--games`` games of the Chennai 2022 Open PGN (their moves), played by
generated teams; the profile records feed results at once (``feed_results="automatic"``). Prints:

- games and moves ingested per second (wall time of the polls);
- CPU per move (``time.process_time`` of the polls over the half-moves sent), in microseconds;
- game end to standings: from the step that writes a game's result to the provisional standings
  that include it (the poll's verdict on the last game that ended, then ``projections.scoreboard``),
  median and max in ms; the goal is under 1 s, plus the poll interval.

Run: ``.venv/bin/python -m bench.bench_feed [--games 400] [--plies 10]``
"""
from __future__ import annotations

import argparse
import gzip
import os
import statistics
import tempfile
import time
from pathlib import Path

from producers.doors import EmbeddedDoor
from producers.feeds.ingester import Ingester
from producers.feeds.pgn import movetext_moves, split_games
from producers.feeds.sources import PgnFiles
from producers.sources import IMPORTER
from projections.scoreboard import scoreboard
from projections.store import EventStore
from schemas import event_ids
from schemas.commands import ImportFacts
from schemas.events import Player, RoundPaired, Table, TeamRegistered, TournamentCreated
from schemas.profile import OLYMPIAD_2022, RuleProfile, named

PGN = (Path(os.environ.get("OLYMPIAD_SHARED_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data")
       / "olympiad-2022-chennai-open" / "olym22.pgn.gz")  # $OLYMPIAD_SHARED_DATA: a checkout elsewhere (a git worktree)
TID = "feed-bench"


def games_of(count: int) -> list[tuple[list[str], str]]:
    """(moves, result) of the first ``count`` games of the Chennai PGN."""
    out = []
    for tags, movetext in split_games(gzip.open(PGN, "rt", encoding="utf-8").read()):
        result = next((t.split('"')[1] for t in tags if t.startswith("[Result ")), "*")
        if result in ("1-0", "0-1", "1/2-1/2"):
            out.append((movetext_moves(movetext)[0], result))
        if len(out) == count:
            return out
    return out


def facts(tables: int) -> list:
    """A tournament of ``2 * tables`` teams (T1 ...) whose round 1 is paired T1-T2, T3-T4 ..."""
    profile = named(RuleProfile.model_validate({**OLYMPIAD_2022.model_dump(), "feed_results": "automatic"}))
    events: list = [TournamentCreated(event_id=event_ids.created(TID), tournament_id=TID, name="Feed bench", profile=profile)]
    for n in range(1, 2 * tables + 1):
        players = tuple(Player(board_order=b, name=f"T{n} player {b}") for b in range(1, 6))
        events.append(TeamRegistered(event_id=event_ids.team(TID, f"T{n}"), tournament_id=TID, team_id=f"T{n}", name=f"Team {n}",
                                     federation="", players=players, pairing_number=n))
    events.append(RoundPaired(event_id=event_ids.pairing(TID, 1), tournament_id=TID, round=1,
                              tables=tuple(Table(table=t, home=f"T{2 * t - 1}", away=f"T{2 * t}") for t in range(1, tables + 1))))
    return events


def pgn(games: list[tuple[list[str], str]], upto: int) -> str:
    """Round 1's PGN with every game cut to ``upto`` plies (its result once it is over)."""
    parts = []
    for i, (moves, result) in enumerate(games):
        table, board = i // 4 + 1, i % 4 + 1
        home, away = f"T{2 * table - 1} player {board}", f"T{2 * table} player {board}"
        white, black = (home, away) if board % 2 else (away, home)
        cut = moves[:upto]
        done = upto >= len(moves)
        body = " ".join(f"{k // 2 + 1}. {m}" if k % 2 == 0 else m for k, m in enumerate(cut))
        parts.append(f'[Round "1.{table}"]\n[Board "{board}"]\n[White "{white}"]\n[Black "{black}"]\n'
                     f'[Result "{result if done else "*"}"]\n\n{body} {result if done else "*"}\n')
    return "\n".join(parts)


def run(count: int, plies: int, out=print) -> dict[str, float]:
    """Play ``count`` games (a multiple of 4) ``plies`` half-moves a step; print and return the figures."""
    games = games_of(count)
    tables = len(games) // 4
    games = games[:tables * 4]
    store = EventStore("sqlite://")
    door = EmbeddedDoor(store)
    door.decide(ImportFacts(tournament_id=TID, actor=IMPORTER, source="bench", facts=facts(tables)))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "round-1.pgn"
        ingester = Ingester(door.submit, TID, [PgnFiles(folder)])
        wall = cpu = 0.0
        moves = snapshots = 0
        latencies: list[float] = []
        longest = max(len(m) for m, _ in games)
        for upto in range(plies, longest + plies, plies):
            path.write_text(pgn(games, upto), encoding="utf-8")
            written = time.perf_counter()
            c0 = time.process_time()
            report = ingester.poll_once()
            cpu += time.process_time() - c0
            wall += time.perf_counter() - written
            moves += report.moves
            snapshots += report.commands
            if report.ended:  # the poll sends ended games first: the standings follow the last of them
                standings_from = time.perf_counter()
                scoreboard(store.state, {})
                latencies.append(report.ended_at - written + time.perf_counter() - standings_from)
        results = sum(1 for k in store.state.results if k[0] == 1)
    figures = {"games": len(games), "results": results, "games_per_s": snapshots / wall, "moves_per_s": moves / wall,
               "cpu_us_per_move": cpu / max(moves, 1) * 1e6, "end_to_standings_ms_median": statistics.median(latencies) * 1000,
               "end_to_standings_ms_max": max(latencies) * 1000}
    out(f"{len(games)} concurrent games, {plies} plies a step: {results} results recorded")
    out(f"ingested: {figures['games_per_s']:.0f} game snapshots/s, {figures['moves_per_s']:.0f} moves/s")
    out(f"CPU per move: {figures['cpu_us_per_move']:.0f} us")
    out(f"game end to standings: median {figures['end_to_standings_ms_median']:.0f} ms, max "
        f"{figures['end_to_standings_ms_max']:.0f} ms (plus the poll interval; goal under 1 s)")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--plies", type=int, default=10)
    args = parser.parse_args()
    run(args.games, args.plies)


if __name__ == "__main__":
    main()
