"""Importer for the chess-results scrape format of an Olympiad section (Samarkand 2026 Open).

Reads ``raw/rosters.json``, ``raw/round1.json``, ``raw/round2.json`` ... and ``event.json`` of a
data folder such as ``../shared/data/samarkand-2026-open`` (see its README) and returns the
tournament's events in log order: ``TournamentCreated`` (identity and profile from
``event.json``, ``producers.importers.event_facts``), one ``TeamRegistered`` per team (pairing
number = the data's starting rank), then per round a ``RoundPaired`` (tables, the bye, absent
teams) and a ``BoardResultRecorded`` per board. Facts the files imply but do not hold:

- colours are not in the data: the home team of a table is the one ranked higher before the
  round, and ``colours_known`` is False;
- table numbers are not in the data: tables are numbered in the order of the higher-ranked team's
  place before the round (the official publication order R-B2 starts the same way);
- a late correction of ``event.json`` is a ``BoardResultCorrected`` logged right after the
  pairing it names; where the data does not say which board changed, the highest-numbered board
  whose change alone gives the corrected score is used (docs/data-samarkand-2026.md).
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from producers.importers.common import board_code, name_key, team_id_for
from producers.importers.event_facts import EventFacts, LateCorrection, read_event_facts
from producers.importers.text_files import read_json
from schemas import event_ids
from schemas.events import (
    BoardResultCorrected,
    BoardResultRecorded,
    Player,
    RoundPaired,
    Table,
    TeamRegistered,
    TournamentCreated,
)
from schemas.profile import get_profile

POINTS = {"1": Decimal(1), "+": Decimal(1), "½": Decimal("0.5"), "0": Decimal(0), "-": Decimal(0)}
SCORE_OF = {Decimal(1): "1", Decimal("0.5"): "½", Decimal(0): "0"}


def is_samarkand_folder(path: Path) -> bool:
    """True if ``path`` looks like a folder of this format (raw/rosters.json + raw/round1.json)."""
    return (path / "raw" / "rosters.json").is_file() and (path / "raw" / "round1.json").is_file()


def load_events(folder: Path) -> list[Any]:
    """Return the events of the data folder ``folder``, in log order (see the module docstring).

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` naming the file, round,
    team or field for data that does not fit: a team of a round file missing from
    ``rosters.json``, a board that is not a chess result, a bad ``event.json`` or a correction
    that names a match the data does not have.
    """
    facts = read_event_facts(folder)
    try:
        profile = get_profile(facts.profile)
    except KeyError as exc:
        raise ValueError(f"{folder / 'event.json'}: profile: {exc.args[0]}") from None
    raw = folder / "raw"
    rosters = read_json(raw / "rosters.json")
    rounds = []
    while (raw / f"round{len(rounds) + 1}.json").is_file():
        rounds.append(read_json(raw / f"round{len(rounds) + 1}.json"))
    try:
        return _events(facts, profile, rosters, rounds)
    except KeyError as exc:
        raise ValueError(f"{raw}: a record has no field {exc.args[0]!r} (see the folder's README)") from None


def _events(facts: EventFacts, profile: Any, rosters: dict, rounds: list[list[dict]]) -> list[Any]:
    roster_ids = {t["id"] for t in rosters["teams"]}
    for r, rows in enumerate(rounds, start=1):
        for row in rows:
            if row["id"] not in roster_ids:
                raise ValueError(f"raw/round{r}.json: team {row['id']} ({row.get('name', '?')}) is not in raw/rosters.json")
    federations = {row["id"]: row["federation"] for rnd in rounds for row in rnd}
    for team in rosters["teams"]:
        if team["id"] not in federations:
            raise ValueError(f"raw/rosters.json: team {team['id']} ({team['name']}) plays in no round file, "
                             "so its federation is unknown")
    ids = {t["id"]: team_id_for(federations[t["id"]], t["name"]) for t in rosters["teams"]}
    names = {t["id"]: t["name"] for t in rosters["teams"]}
    t = facts.tournament_id
    corrections = {c.logged_after_pairing_of_round: [] for c in facts.late_corrections}
    for i, c in enumerate(facts.late_corrections):
        if not c.round < c.logged_after_pairing_of_round <= len(rounds):
            raise ValueError(f"event.json: late_corrections[{i}]: logged_after_pairing_of_round must be after round "
                             f"{c.round} and at most {len(rounds)}, the last round of the data")
        for team in c.teams:
            if team not in ids:
                raise ValueError(f"event.json: late_corrections[{i}]: team {team} is not in raw/rosters.json")
        corrections[c.logged_after_pairing_of_round].append((i, c))
    events: list[Any] = [
        TournamentCreated(event_id=event_ids.created(t), tournament_id=t, name=facts.name, profile=profile, source=facts.source)
    ]
    for team in rosters["teams"]:
        events.append(
            TeamRegistered(
                event_id=event_ids.team(t, ids[team["id"]]),
                tournament_id=t,
                team_id=ids[team["id"]],
                name=team["name"],
                federation=federations[team["id"]],
                pairing_number=team["id"],
                players=tuple(Player(board_order=p["order"], name=p["name"], title=p["title"], rating=p["rating"] or None) for p in team["players"]),
            )
        )
    previous_order = [team["id"] for team in rosters["teams"]]  # before round 1: the start list
    tables_of: dict[int, dict[int, tuple[int, dict, dict]]] = {}
    for r, rows in enumerate(rounds, start=1):
        pairing, boards, tables_of[r] = _round_events(t, r, rows, ids, previous_order, set(ids))
        events.append(pairing)
        for i, c in corrections.get(r, []):
            events.append(_late_correction(t, i, c, tables_of[c.round], names))
        events.extend(boards)
        previous_order = [row["id"] for row in rows]
    return events


def _round_events(t: str, r: int, rows: list[dict], ids: dict[int, str], previous_order: list[int], all_ids: set[int]):
    place = {team: i for i, team in enumerate(previous_order)}
    by_id = {row["id"]: row for row in rows}
    matches = []
    bye = None
    for row in rows:
        if row["status"] == "played":
            if row["opponentId"] not in by_id:
                raise ValueError(f"raw/round{r}.json: {row['name']} plays team {row['opponentId']}, which the round file does not have")
            if place[row["id"]] < place[row["opponentId"]]:
                matches.append((row, by_id[row["opponentId"]]))
        elif row["status"] == "bye":
            bye = ids[row["id"]]
    matches.sort(key=lambda m: place[m[0]["id"]])
    absent = tuple(ids[i] for i in sorted(all_ids) if i not in by_id or by_id[i]["status"] == "notPaired")
    tables = tuple(Table(table=n, home=ids[h["id"]], away=ids[a["id"]]) for n, (h, a) in enumerate(matches, start=1))
    pairing = RoundPaired(event_id=event_ids.pairing(t, r), tournament_id=t, round=r, tables=tables, bye=bye, absent=absent, colours_known=False)
    boards = []
    table_of = {}
    for n, (home, away) in enumerate(matches, start=1):
        table_of[home["id"]] = table_of[away["id"]] = (n, home, away)
        away_boards = {b["board"]: b for b in away["boards"]}
        for b in home["boards"]:
            number = b["board"]
            try:
                code = board_code(b["scoreFor"], b["scoreAgainst"], number)
            except ValueError as exc:
                raise ValueError(f"round {r}, {home['name']} v {away['name']}: {exc}") from None
            white, black = (b["player"], b["opponent"]) if number % 2 else (b["opponent"], b["player"])
            if name_key(away_boards[number]["player"]) != name_key(b["opponent"]):
                raise ValueError(f"round {r}, {home['name']} v {away['name']} board {number}: the two sides name different players")
            boards.append(
                BoardResultRecorded(
                    event_id=event_ids.board(t, r, n, number), tournament_id=t, round=r, table=n, board=number,
                    white=white, black=black, result=code,
                )
            )
    return pairing, boards, table_of


def _score(text: str) -> tuple[Decimal, Decimal]:
    first, second = text.split("-")
    return Decimal(first), Decimal(second)


def _late_correction(t: str, i: int, c: LateCorrection, table_of: dict, names: dict[int, str]) -> BoardResultCorrected:
    """The ``BoardResultCorrected`` of late correction ``c`` (entry ``i`` of event.json) on the
    round's tables ``table_of`` (data id -> (table, home row, away row))."""
    where = f"event.json: late_corrections[{i}]"
    first, second = c.teams
    if first not in table_of or {table_of[first][1]["id"], table_of[first][2]["id"]} != {first, second}:
        raise ValueError(f"{where}: {names[first]} and {names[second]} did not meet in round {c.round}")
    table, home, away = table_of[first]
    row = home if home["id"] == first else away  # the first team's own view of the match
    boards = {b["board"]: (POINTS[b["scoreFor"]], POINTS[b["scoreAgainst"]]) for b in row["boards"]}
    published, corrected = _score(c.published), _score(c.corrected)
    now = (sum(p for p, _ in boards.values()), sum(q for _, q in boards.values()))
    if now != published:
        raise ValueError(f"{where}: published {c.published}, but round {c.round} of the data has "
                         f"{names[first]} {now[0]}-{now[1]} {names[second]}")
    candidates = [c.board] if c.board is not None else sorted(boards, reverse=True)
    change = None
    for board in candidates:
        if board not in boards:
            raise ValueError(f"{where}: board {board} is not a board of the match (boards {', '.join(map(str, sorted(boards)))})")
        old = boards[board]
        new_first = corrected[0] - (published[0] - old[0])
        new_second = corrected[1] - (published[1] - old[1])
        if new_first in SCORE_OF and new_second in SCORE_OF and new_first + new_second == 1 and (new_first, new_second) != old:
            change = (board, SCORE_OF[new_first], SCORE_OF[new_second])
            break
    if change is None:
        raise ValueError(f"{where}: {c.published} -> {c.corrected} is not a change of one board"
                         + (f" (board {c.board})" if c.board is not None else ""))
    board, mine, theirs = change
    code = board_code(mine, theirs, board) if home["id"] == first else board_code(theirs, mine, board)
    standings_round = c.logged_after_pairing_of_round - 1
    which = "the board is not recorded in the source" if c.board is None else f"board {board} changed"
    return BoardResultCorrected(
        event_id=f"{t}/r{c.round}/t{table}/b{board}/correction",
        tournament_id=t,
        supersedes=f"{t}/r{c.round}/t{table}/b{board}",
        round=c.round,
        table=table,
        board=board,
        result=code,
        reason=(f"late correction: {names[first]} {c.published} {names[second]} (round {c.round}) was corrected to "
                f"{c.corrected} after the round-{standings_round} standings were published; {which}"),
    )
