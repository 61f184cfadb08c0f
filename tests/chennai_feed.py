"""A live replay of the Chennai 2022 Open PGN (issue 29, acceptance 1): the games of a round
written as they progress, as per-round PGN files (``round-<r>.pgn``) or, for a DGT round, as DGT
LiveChess Cloud JSON (``round-<r>/index.json`` and ``game-<n>.json``), and the tournament's facts
that the PGN cannot hold (teams, pairings, forfeited boards) imported round by round.

``ChennaiReplay(folder, out, dgt_out)``: ``write(r, fraction)`` writes round r's games cut to
``fraction`` of their moves (result ``*``), or whole with their result at 1.0, into ``out``;
``dgt=True`` writes DGT JSON into ``dgt_out``.
The speed is the caller's: a test writes each round in a few steps (fast mode), the bench at the
pace it measures.
"""
from __future__ import annotations

import csv
import gzip
import json
import math
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from producers.feeds.pgn import movetext_moves, split_games
from producers.importers import chennai
from schemas.profile import RuleProfile, named

_TAG = re.compile(r'^\[([A-Za-z0-9_]+)\s+"(.*)"\]$')


class ChennaiReplay:
    """The games of ``folder``'s ``olym22.pgn.gz`` by round, written into ``out`` step by step."""

    def __init__(self, folder: Path, out: Path, dgt_out: Path | None = None):
        self.folder, self.out, self.dgt_out = folder, out, dgt_out
        for path in (out, dgt_out):
            if path is not None:
                path.mkdir(parents=True, exist_ok=True)
        text = gzip.open(folder / "olym22.pgn.gz", "rt", encoding="utf-8").read()
        self.rounds: dict[int, list[tuple[dict[str, str], list[str]]]] = defaultdict(list)
        for tags, movetext in split_games(text):
            values = {m[1]: m[2] for m in map(_TAG.match, tags) if m}
            self.rounds[int(values["Round"].split(".")[0])].append((values, movetext_moves(movetext)[0]))

    def write(self, rnd: int, fraction: float, dgt: bool = False) -> int:
        """Write round ``rnd``'s games after ``fraction`` of their moves (1.0: whole, with the
        result); returns the plies written."""
        games = [(tags, moves[:math.ceil(len(moves) * fraction)], tags["Result"] if fraction >= 1 else "*")
                 for tags, moves in self.rounds[rnd]]
        if dgt:
            self._dgt(rnd, games)
        else:
            self._atomic(self.out / f"round-{rnd}.pgn", "\n".join(_pgn(tags, moves, result) for tags, moves, result in games))
        return sum(len(m) for _, m, _ in games)

    def _dgt(self, rnd: int, games: list) -> None:
        folder = (self.dgt_out or self.out) / f"round-{rnd}"
        folder.mkdir(exist_ok=True)
        at = {(int(g[0]["Round"].split(".")[1]), int(g[0]["Board"])): g for g in games}
        pairings: list[dict[str, Any]] = []
        for n, place in enumerate(((t, b) for t in range(1, max(at)[0] + 1) for b in range(1, 5)), start=1):
            if place not in at:  # a board the PGN does not hold: no players, no game file
                pairings.append({"white": None, "black": None, "result": "*"})
                continue
            tags, moves, result = at[place]
            pairings.append({"white": _dgt_player(tags, "White"), "black": _dgt_player(tags, "Black"), "result": result})
            self._atomic(folder / f"game-{n}.json", json.dumps({"live": result == "*", "result": result,
                                                               "moves": [f"{san} {5400 - 30 * i}" for i, san in enumerate(moves)],
                                                               "clock": None}))
        self._atomic(folder / "index.json", json.dumps({"pairings": pairings}))

    @staticmethod
    def _atomic(path: Path, text: str) -> None:
        tmp = path.with_suffix(path.suffix + ".part")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)


def _dgt_player(tags: dict[str, str], side: str) -> dict[str, Any]:
    last, _, first = tags[side].partition(", ")
    return {"fname": first, "mname": "", "lname": last, "title": tags.get(f"{side}Title", ""),
            "fideid": int(tags[f"{side}FideId"]) if tags.get(f"{side}FideId", "").isdigit() else None}


def _pgn(tags: dict[str, str], moves: list[str], result: str) -> str:
    head = "\n".join(f'[{k} "{result if k == "Result" else v}"]' for k, v in tags.items())
    body = " ".join(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san for i, san in enumerate(moves))
    return f"{head}\n\n{body} {result}\n"


def facts(folder: Path, feed_results: str = "automatic") -> tuple[list[Any], dict[int, list[Any]]]:
    """The Chennai facts a feed cannot give, for ``ImportFacts``: (the tournament, with
    ``feed_results`` in its profile, and its teams; per round its pairing and the results of the
    boards the PGN does not hold: forfeits, the ``0-0`` game)."""
    events = chennai.load_events(folder)
    created = events[0]
    profile = named(RuleProfile.model_validate({**created.profile.model_dump(), "feed_results": feed_results}))
    head = [created.model_copy(update={"profile": profile})] + [e for e in events if e.type == "TeamRegistered"]
    rounds: dict[int, list[Any]] = defaultdict(list)
    for e in events:
        if e.type == "RoundPaired" or (e.type == "BoardResultRecorded" and (not e.white or e.result == "-/-")):
            rounds[e.round].append(e)
    return head, rounds


def expected(folder: Path) -> tuple[dict[tuple[int, int, int], str], dict[tuple[int, int], tuple[float, float, list[int]]]]:
    """(``boards.csv``: (round, table, board) -> result of every played board; ``matches.json``:
    (round, table) -> (home GP, away GP, boards present))."""


    with open(folder / "boards.csv", encoding="utf-8") as f:
        boards = {(int(r["round"]), int(r["table"]), int(r["board"])): r["result"] for r in csv.DictReader(f)
                  if r["result"] in ("1-0", "0-1", "1/2-1/2")}
    data = json.loads((folder / "matches.json").read_text(encoding="utf-8"))
    matches = {(rnd["round"], m["table"]): (m["home_game_points_from_pgn"], m["away_game_points_from_pgn"], m["boards_present"])
               for rnd in data["rounds"] for m in rnd["matches"]}
    return boards, matches
