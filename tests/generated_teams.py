"""A field of teams made up for a test: ``n`` teams from a seed, never committed data.

Names in several scripts (Latin with diacritics, Cyrillic, Greek, Georgian, Armenian, Arabic,
Devanagari, Chinese), team ids of several shapes (``T17``, ``club-0042_b``, up to 40 characters),
federations drawn from FIDE's codes (``olympiad/data/fide-federations.json``) or none, ratings
from 1000 to 2850 or unrated, titles or none, FIDE ids unique or missing: what an arbiter's team
file holds, in sizes no shipped data set has.
"""
from __future__ import annotations

import csv
import io
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

FEDERATIONS_FILE = Path(__file__).resolve().parents[1] / "olympiad" / "data" / "fide-federations.json"
GIVEN = ("Ana", "José", "Łukasz", "Søren", "Zoë", "Ивана", "Дмитрий", "Νίκος", "ნინო", "Արամ", "سارا", "अर्जुन", "王伟",
         "Nguyễn", "Oğuz", "Ömer")
FAMILY = ("Müller", "Ćirić", "Núñez", "Kovács", "Петрова", "Алиев", "Παπαδόπουλος", "ბერიძე", "Պետրոսյան", "حسيني",
          "शर्मा", "李", "Trần", "Yılmaz", "O'Brien", "van der Berg")
PLACES = ("Samarkand", "Tashkent", "Kraków", "São Paulo", "Reykjavík", "Москва", "Αθήνα", "თბილისი", "Երևան",
          "القاهرة", "मुंबई", "北京", "Hà Nội", "İzmir")
TITLES = ("", "", "", "", "GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")


@cache
def federations() -> tuple[str, ...]:
    """FIDE's federation codes, as the shipped table lists them."""
    return tuple(sorted(set(json.loads(FEDERATIONS_FILE.read_text(encoding="utf-8"))["federations"].values())))


def team_entries(n: int, seed: int, players: int = 5) -> list[dict[str, Any]]:
    """``n`` teams as the ``teams`` of an ``ImportTeams`` command, each with ``players`` nominated
    players in board order; the same ``(n, seed)`` gives the same teams."""
    rng = random.Random(f"generated-teams/{n}/{seed}")
    feds = federations()
    fide_ids = iter(rng.sample(range(100_000, 999_999_999), n * players))
    teams = []
    for i in range(1, n + 1):
        shape = rng.randrange(3)
        team_id = f"T{i}" if shape == 0 else f"club-{i:04d}_{rng.choice('abc')}" if shape == 1 else \
            f"{rng.choice(('Nord', 'Sud', 'Ost', 'West'))}-{i}-" + "x" * rng.randint(0, 40 - 7 - len(str(i)))
        strength = rng.randint(1000, 2850)
        roster = []
        for b in range(1, players + 1):
            player: dict[str, Any] = {"board_order": b, "name": f"{rng.choice(FAMILY)}, {rng.choice(GIVEN)} {i}.{b}"}
            if rng.random() < 0.8:
                player["fide_id"] = str(next(fide_ids))
            title = rng.choice(TITLES)
            if title:
                player["title"] = title
            if rng.random() < 0.9:
                player["rating"] = max(1000, min(2850, strength - 15 * b + rng.randint(-60, 60)))
            roster.append(player)
        teams.append({"team_id": team_id[:40], "name": f"{rng.choice(PLACES)} {rng.choice(('Chess Club', 'ШК', 'Σκάκι', '棋社'))} {i}",
                      "federation": rng.choice(feds) if rng.random() < 0.9 else "", "players": roster})
    return teams


def team_csv(teams: list[dict[str, Any]]) -> str:
    """``teams`` (``team_entries``) as the team CSV file of docs/arbiter.md, one row per player."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["team_id", "team", "federation", "board", "name", "fide_id", "title", "rating"])
    for t in teams:
        for p in t["players"]:
            w.writerow([t["team_id"], t["name"], t["federation"], p["board_order"], p["name"], p.get("fide_id", ""),
                        p.get("title", ""), p.get("rating", "")])
    return out.getvalue()
