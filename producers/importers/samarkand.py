"""Importer for the 46th Olympiad, Samarkand 2026, Open section (chess-results scrape).

Reads ``raw/rosters.json`` and ``raw/round1..11.json`` of ``../shared/data/samarkand-2026-open``
(see its README) and returns the tournament's events in log order:
``TournamentCreated`` (profile ``olympiad-2022``), one ``TeamRegistered`` per team (pairing number =
the data's starting rank), then per round a ``RoundPaired`` (tables, the bye, absent teams) and a
``BoardResultRecorded`` per board. Facts the files imply but do not hold:

- colours are not in the data: the home team of a table is the one ranked higher before the
  round, and ``colours_known`` is False;
- table numbers are not in the data: tables are numbered in the order of the higher-ranked team's
  place before the round (the official publication order R-B2 starts the same way);
- the late correction of round 10 (Angola 3.5-0.5 Myanmar became 2.5-1.5, applied by the
  organisers after the round-10 standings were published) is a ``BoardResultCorrected`` logged
  right after the round-11 pairing; which board changed is not recorded, board 4 is used
  (docs/data-samarkand-2026.md).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from producers.importers.common import board_code, team_id_for
from schemas.events import (
    BoardResultCorrected,
    BoardResultRecorded,
    Player,
    RoundPaired,
    Table,
    TeamRegistered,
    TournamentCreated,
)
from schemas.profile import OLYMPIAD_2022

TOURNAMENT_ID = "samarkand-2026-open"
SOURCE = (
    "46th Chess Olympiad, Samarkand 2026, Open section; chess-results.com tournament 1469895, "
    "scraped copy IceBlue112vm/chess-olympiad-flow data/processed/open (see shared/data README)"
)
# Round 10, Angola v Myanmar: Angola 3.5-0.5 became 2.5-1.5; board 4 (Angola won it) is taken as lost.
LATE_CORRECTION = {"round": 10, "team": "Angola", "opponent": "Myanmar", "board": 4}


def is_samarkand_folder(path: Path) -> bool:
    """True if ``path`` looks like the Samarkand data folder (raw/rosters.json + raw/round1.json)."""
    return (path / "raw" / "rosters.json").is_file() and (path / "raw" / "round1.json").is_file()


def load_events(folder: Path) -> list[Any]:
    """Return the events of the Samarkand 2026 Open, in log order (see the module docstring).

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` (naming round, team and
    board) for data that is not a chess result.
    """
    raw = folder / "raw"
    rosters = json.loads((raw / "rosters.json").read_text(encoding="utf-8"))
    rounds = [json.loads((raw / f"round{r}.json").read_text(encoding="utf-8")) for r in range(1, 12)]
    federations = {row["id"]: row["federation"] for rnd in rounds for row in rnd}
    ids = {t["id"]: team_id_for(federations[t["id"]], t["name"]) for t in rosters["teams"]}
    t = TOURNAMENT_ID
    events: list[Any] = [
        TournamentCreated(event_id=f"{t}/created", tournament_id=t, name="46th Chess Olympiad 2026, Open", profile=OLYMPIAD_2022, source=SOURCE)
    ]
    for team in rosters["teams"]:
        events.append(
            TeamRegistered(
                event_id=f"{t}/team/{ids[team['id']]}",
                tournament_id=t,
                team_id=ids[team["id"]],
                name=team["name"],
                federation=federations[team["id"]],
                pairing_number=team["id"],
                players=tuple(Player(board_order=p["order"], name=p["name"], title=p["title"], rating=p["rating"] or None) for p in team["players"]),
            )
        )
    previous_order = [team["id"] for team in rosters["teams"]]  # before round 1: the start list
    correction = None
    for r, rows in enumerate(rounds, start=1):
        pairing, boards, table_of = _round_events(t, r, rows, ids, previous_order, set(ids))
        events.append(pairing)
        if correction is not None:
            events.append(correction)
            correction = None
        events.extend(boards)
        if r == LATE_CORRECTION["round"]:
            correction = _late_correction(t, r, table_of)
        previous_order = [row["id"] for row in rows]
    return events


def _round_events(t: str, r: int, rows: list[dict], ids: dict[int, str], previous_order: list[int], all_ids: set[int]):
    place = {team: i for i, team in enumerate(previous_order)}
    by_id = {row["id"]: row for row in rows}
    matches = []
    bye = None
    for row in rows:
        if row["status"] == "played" and place[row["id"]] < place[row["opponentId"]]:
            matches.append((row, by_id[row["opponentId"]]))
        elif row["status"] == "bye":
            bye = ids[row["id"]]
    matches.sort(key=lambda m: place[m[0]["id"]])
    absent = tuple(ids[i] for i in sorted(all_ids) if i not in by_id or by_id[i]["status"] == "notPaired")
    tables = tuple(Table(table=n, home=ids[h["id"]], away=ids[a["id"]]) for n, (h, a) in enumerate(matches, start=1))
    pairing = RoundPaired(event_id=f"{t}/r{r}/pairing", tournament_id=t, round=r, tables=tables, bye=bye, absent=absent, colours_known=False)
    boards = []
    table_of = {}
    for n, (home, away) in enumerate(matches, start=1):
        table_of[home["name"]] = (n, home, away)
        away_boards = {b["board"]: b for b in away["boards"]}
        for b in home["boards"]:
            number = b["board"]
            try:
                code = board_code(b["scoreFor"], b["scoreAgainst"], number)
            except ValueError as exc:
                raise ValueError(f"round {r}, {home['name']} v {away['name']}: {exc}") from None
            white, black = (b["player"], b["opponent"]) if number % 2 else (b["opponent"], b["player"])
            if away_boards[number]["player"] != b["opponent"]:
                raise ValueError(f"round {r}, {home['name']} v {away['name']} board {number}: the two sides name different players")
            boards.append(
                BoardResultRecorded(
                    event_id=f"{t}/r{r}/t{n}/b{number}", tournament_id=t, round=r, table=n, board=number,
                    white=white, black=black, result=code,
                )
            )
    return pairing, boards, table_of


def _late_correction(t: str, r: int, table_of: dict) -> BoardResultCorrected:
    team, opponent, board = LATE_CORRECTION["team"], LATE_CORRECTION["opponent"], LATE_CORRECTION["board"]
    if team in table_of:
        table, _, _ = table_of[team]
        code = board_code("0", "1", board)  # Angola is home and now loses the board
    else:
        table, _, _ = table_of[opponent]
        code = board_code("1", "0", board)
    return BoardResultCorrected(
        event_id=f"{t}/r{r}/t{table}/b{board}/correction",
        tournament_id=t,
        supersedes=f"{t}/r{r}/t{table}/b{board}",
        round=r,
        table=table,
        board=board,
        result=code,
        reason=(
            "late correction: Angola 3.5-0.5 Myanmar (round 10) was corrected to 2.5-1.5 after the "
            "round-10 standings were published; the board is not recorded in the source"
        ),
    )
