"""Importer for an Olympiad section given as board results of its broadcast PGN (Chennai 2022 Open).

Reads ``matches.json`` and ``rosters.csv`` of a data folder such as
``../shared/data/olympiad-2022-chennai-open`` (see its README) and its facts
(``producers.importers.event_facts``: the folder's ``event.json``, or the project's copy for a
read-only folder) and returns the tournament's events in log order: ``TournamentCreated``
(identity and profile from the facts), one ``TeamRegistered`` per team that played, then per round a
``RoundPaired`` (tables with the data's home team = White on board 1, the bye, absent teams) and one
``BoardResultRecorded`` per board. The PGN holds only games that were played; what it cannot hold
is decided as follows, the decisions for Chennai with their evidence in ``docs/data-chennai-2022.md``:

- board order (R-D1): the official team lists are not in the data. Every line-up of a team is in
  its fixed board order, so the order is the one that agrees with all of the team's line-ups; where
  two players never played in the same match, the lower mean board number comes first, then the
  higher rating, then the name;
- pairing numbers (R-I1): not in the data. The official round-1 pairing gives them (D.02 round 1:
  number k meets k + N/2 at table k, except the tables of the facts' ``round1_table_numbers``, a
  host put on table 1; R-C1 colours tell which team of a table is k); the teams that arrived after
  round 1 follow in R-I1 order;
- teams without a match in the PGN: the facts' ``absent`` (not paired) or ``byes``
  (pairing-allocated bye); a team the facts do not name is absent (what the PGN shows: no match);
- boards missing from a match: the facts' ``forfeited_boards``; a board they do not name is not
  played by either side (``-/-``, what the PGN shows); the ``0-0`` game is a double forfeit (``-/-``).

Without facts (a folder without ``event.json`` and without a copy) the tournament id is the
folder's name, the name the data's ``event``, and the PGN is read as it stands by the rules above.
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from processors.scoring import home_is_white
from producers.importers.common import name_key, team_id_for
from producers.importers.event_facts import EventFacts, read_event_facts
from producers.importers.federations import federation_of
from producers.importers.text_files import read_csv, read_json
from schemas import event_ids
from schemas.events import BoardResultRecorded, Player, RoundPaired, Table, TeamRegistered, TournamentCreated
from schemas.profile import get_profile

# PGN result -> board result code (White-Black); "0-0" is a game nobody played.
_PGN_CODES = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "0-0": "-/-"}
UNDECIDED_BOARD = ("-/-", "board missing from the PGN, no decision in event.json: not played by either side")


def is_chennai_folder(path: Path) -> bool:
    """True if ``path`` looks like a folder of this format (matches.json + rosters.csv)."""
    return (path / "matches.json").is_file() and (path / "rosters.csv").is_file()


def load_events(folder: Path) -> list[Any]:
    """Return the events of the data folder ``folder``, in log order (see the module docstring).

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` for data that breaks what the
    module relies on: a result that is not a chess result, a board colour against R-D4, line-ups
    that contradict one board order, a bad ``event.json``, or a decision of it that names a team,
    round or board the data does not have (or a team that had a match, a board that was played).
    """
    data = read_json(folder / "matches.json")
    roster = read_csv(folder / "rosters.csv")
    facts = read_event_facts(folder, default_name=data.get("event"))
    try:
        profile = get_profile(facts.profile)
    except KeyError as exc:
        raise ValueError(f"{folder / 'event.json'}: profile: {exc.args[0]}") from None
    rounds = data["rounds"]
    names = data["teams"]
    _check_facts(facts, rounds, names)
    ids = {name: team_id_for(federation_of(name), name) for name in names}
    numbers = _round1_pairing_numbers(rounds[0]["matches"], facts.round1_table_numbers)
    fide_ids = _fide_ids(rounds)
    orders = _board_orders(rounds, fide_ids)
    t = facts.tournament_id
    source = facts.source or data.get("source", "")
    events: list[Any] = [
        TournamentCreated(event_id=event_ids.created(t), tournament_id=t, name=facts.name, profile=profile, source=source)
    ]
    players = defaultdict(list)
    for line, row in enumerate(roster, start=2):
        players[name_key(row.get("team", ""))].append((line, row))
    events.extend(_team_event(t, name, ids[name], numbers.get(name), orders.get(name, []), players[name_key(name)],
                              fide_ids[name]) for name in names)
    for rnd in rounds:
        events.extend(_round_events(t, rnd, ids, facts, profile.boards))
    return events


def _check_facts(facts: EventFacts, rounds: list[dict], names: list[str]) -> None:
    """Raise ``ValueError`` naming the entry of ``event.json`` whose round, team, table or board the
    data does not have, or that decides a team that had a match or a board that was played."""
    by_round = {rnd["round"]: rnd for rnd in rounds}
    for key, decided in (("absent", facts.absent), ("byes", facts.byes)):
        for r, teams in decided.items():
            if r not in by_round:
                raise ValueError(f"event.json: {key}: round {r} is not a round of matches.json (1..{len(rounds)})")
            for team in (teams,) if isinstance(teams, str) else teams:
                if team not in names:
                    raise ValueError(f"event.json: {key}: round {r}: {team!r} is not a team of matches.json")
                if team not in by_round[r]["teams_without_a_match_in_pgn"]:
                    raise ValueError(f"event.json: {key}: round {r}: {team!r} has a match in the PGN")
    for i, f in enumerate(facts.forfeited_boards):
        match = next((m for m in by_round.get(f.round, {"matches": []})["matches"] if m["table"] == f.table), None)
        if match is None:
            raise ValueError(f"event.json: forfeited_boards[{i}]: round {f.round} has no table {f.table} in matches.json")
        if any(b["board"] == f.board for b in match["boards"]):
            raise ValueError(f"event.json: forfeited_boards[{i}]: round {f.round} table {f.table} board {f.board} "
                             "was played (it is in the PGN)")


def _team_event(t: str, name: str, team_id: str, number: int | None, order: list[str],
                roster: list[tuple[int, dict[str, str]]], fide_ids: dict[str, str]) -> TeamRegistered:
    """``TeamRegistered`` of one team: its players seen in the PGN (``rosters.csv`` rows with their
    line numbers) in ``order`` (player keys, ``_player_key``; ``fide_ids``: the team's name key ->
    FIDE id in ``matches.json``). A row is matched to the games by FIDE id where both carry one, else
    by name (``name_key``). Raises ``ValueError`` naming the line of a row whose player has no game."""
    place = {key: i for i, key in enumerate(order, start=1)}
    players = []
    for line, p in roster:
        where = f"rosters.csv line {line}"
        for column in ("name", "fide_id", "title", "elo_in_pgn"):
            if column not in p:
                raise ValueError(f"{where}: no column {column!r} (see the folder's README)")
        key = _player_key(p, fide_ids)
        board_order = place.get(key) or place.get(f"name:{name_key(p['name'])}")
        if board_order is None:
            raise ValueError(f"{where}: {p['name']} ({name}) has no game in matches.json")
        if p["elo_in_pgn"] and not p["elo_in_pgn"].isdigit():
            raise ValueError(f"{where}: elo_in_pgn: {p['elo_in_pgn']!r} is not a whole number")
        players.append(Player(board_order=board_order, name=p["name"], fide_id=p["fide_id"] or None, title=p["title"],
                              rating=int(p["elo_in_pgn"]) if p["elo_in_pgn"] else None))
    players.sort(key=lambda p: p.board_order)
    return TeamRegistered(
        event_id=event_ids.team(t, team_id), tournament_id=t, team_id=team_id, name=name,
        federation=federation_of(name), pairing_number=number, players=tuple(players),
    )


def _fide_ids(rounds: list[dict]) -> dict[str, dict[str, str]]:
    """Team -> name key (``name_key``) -> FIDE id, for every player ``matches.json`` gives an id."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for rnd in rounds:
        for m in rnd["matches"]:
            for b in m["boards"]:
                for side in ("white", "black"):
                    p = b[side]
                    if (p.get("fide_id") or "").strip():
                        out[p["team"]][name_key(p["name"])] = p["fide_id"].strip()
    return out


def _player_key(player: dict[str, Any], fide_ids: dict[str, str]) -> str:
    """The key one player is known by in a team: FIDE id first (``id:<id>``, the player's own or the
    one the same name carries in another game, ``fide_ids``: name key -> id), else the name
    (``name:<name_key>``), so that a game without the id and one with it are one player."""
    fide = (player.get("fide_id") or "").strip() or fide_ids.get(name_key(player["name"]))
    return f"id:{fide}" if fide else f"name:{name_key(player['name'])}"


def _round1_pairing_numbers(matches: list[dict], table_numbers: dict[int, int]) -> dict[str, int]:
    """Pairing numbers of the teams paired in round 1, read off the official round-1 pairing.

    D.02 2022 round 1 pairs number k with k + N/2 at table k, or at the table that
    ``table_numbers`` (table -> k) gives it. R-C1: the lot gave number 1 Black, so the top-half
    team has White when k is even and Black when k is odd. Raises ``ValueError`` if the tables are
    not 1..N/2.
    """
    half = len(matches)
    if sorted(m["table"] for m in matches) != list(range(1, half + 1)):
        raise ValueError(f"round 1: tables are not numbered 1..{half}")
    numbers = {}
    for m in matches:
        k = table_numbers.get(m["table"], m["table"])
        top, bottom = (m["home"], m["away"]) if k % 2 == 0 else (m["away"], m["home"])
        numbers[top], numbers[bottom] = k, k + half
    return numbers


def _board_orders(rounds: list[dict], fide_ids: dict[str, dict[str, str]]) -> dict[str, list[str]]:
    """Board order of every team (player keys, ``_player_key``, board 1 first) that agrees with
    all its line-ups (``fide_ids``: ``_fide_ids``).

    A line-up is in the fixed board order (R-D1), so each match says "who played a higher board
    comes first". Players never seen in one match are ordered by their mean board, then their
    rating (higher first), then name. Raises ``ValueError`` if two line-ups contradict each other.
    """
    before: dict[str, set[tuple[str, str]]] = defaultdict(set)
    boards: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    rating: dict[str, int] = {}
    label: dict[str, str] = {}  # the FIDE id, else the name: the last tie-break of the order
    for rnd in rounds:
        for m in rnd["matches"]:
            lineup: dict[str, list[tuple[int, str]]] = defaultdict(list)
            for b in m["boards"]:
                for side in ("white", "black"):
                    p = b[side]
                    key = _player_key(p, fide_ids[p["team"]])
                    lineup[p["team"]].append((b["board"], key))
                    boards[p["team"]][key].append(b["board"])
                    rating[key] = p["elo"] or 0
                    label[key] = key.split(":", 1)[1] if key.startswith("id:") else p["name"]
            for team, seats in lineup.items():
                seats.sort()
                before[team].update((a, b) for i, (_, a) in enumerate(seats) for _, b in seats[i + 1:])
    orders = {}
    for team, seen in boards.items():
        rule = before[team]
        todo = sorted(seen, key=lambda k: (sum(seen[k]) / len(seen[k]), -rating[k], label[k]))
        order: list[str] = []
        while todo:
            free = next((k for k in todo if not any((o, k) in rule for o in todo if o != k)), None)
            if free is None:
                raise ValueError(f"{team}: line-ups contradict one fixed board order (R-D1)")
            order.append(free)
            todo.remove(free)
        orders[team] = order
    return orders


def _round_events(t: str, rnd: dict, ids: dict[str, str], facts: EventFacts, boards: int) -> list[Any]:
    """``RoundPaired`` and the ``BoardResultRecorded`` events of one round of ``matches.json``."""
    r = rnd["round"]
    bye = facts.byes.get(r)
    absent = [name for name in rnd["teams_without_a_match_in_pgn"] if name != bye]  # undecided: absent
    forfeited = {(f.table, f.board): f for f in facts.forfeited_boards if f.round == r}
    matches = sorted(rnd["matches"], key=lambda m: m["table"])
    pairing = RoundPaired(
        event_id=event_ids.pairing(t, r),
        tournament_id=t,
        round=r,
        tables=tuple(Table(table=m["table"], home=ids[m["home"]], away=ids[m["away"]]) for m in matches),
        bye=ids[bye] if bye else None,
        absent=tuple(ids[name] for name in _in_order(absent, facts.absent.get(r, ()))),
    )
    events: list[Any] = [pairing]
    for m in matches:
        played = {b["board"]: b for b in m["boards"]}
        for number in range(1, boards + 1):
            code, white, black, reason = _board_result(r, m, number, played.get(number), forfeited)
            events.append(
                BoardResultRecorded(
                    event_id=event_ids.board(t, r, m["table"], number), tournament_id=t, round=r, table=m["table"],
                    board=number, white=white, black=black, result=code,
                    forfeit="other" if reason else None, note=reason or "",
                )
            )
    return events


def _in_order(teams: list[str], decided: tuple[str, ...]) -> list[str]:
    """``teams`` in the order the facts list them (the rest after them, in the data's order)."""
    return [t for t in decided if t in teams] + [t for t in teams if t not in decided]


def _board_result(r: int, match: dict, number: int, board: dict | None, forfeited: dict) -> tuple[str, str, str, str | None]:
    """(code White-Black, White's name, Black's name, reason) of board ``number`` of ``match``:
    the PGN game, or for a board the PGN does not hold the facts' decision (``forfeited``:
    (table, board) -> ``ForfeitedBoard``), else ``UNDECIDED_BOARD``."""
    where = f"round {r} table {match['table']} {match['home']} v {match['away']} board {number}"
    if board is None:
        decided = forfeited.get((match["table"], number))
        if decided is None:
            return UNDECIDED_BOARD[0], "", "", UNDECIDED_BOARD[1]
        return decided.result, "", "", decided.note or "board missing from the PGN: forfeit"
    if (board["white"]["team"] == match["home"]) != home_is_white(number):
        raise ValueError(f"{where}: the home team is not White on the odd boards (R-D4)")
    if board["result"] not in _PGN_CODES:
        raise ValueError(f"{where}: {board['result']!r} is not a PGN result")
    code = _PGN_CODES[board["result"]]
    reason = "0-0 in the PGN: the game was not played (double forfeit)" if code == "-/-" else None
    return code, board["white"]["name"], board["black"]["name"], reason
