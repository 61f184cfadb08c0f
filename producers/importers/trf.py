"""Importer of a team TRF (TRF-2026 ``310`` or TRF16 ``013``; Swiss-Manager, Sharly Chess, this product).

``load_trf(text)`` returns the tournament's events in log order: ``TournamentCreated``, one
``TeamRegistered`` per team (pairing number = TPN, the first ``boards + reserves`` members nominated in
their record order), then per round a ``RoundPaired`` (tables, the PAB from ``320``, absent teams) and a
``BoardResultRecorded`` per board (``MatchForfeited`` for a ``330`` match no ``001`` record holds).

How the records become matches (../shared/spec/trf-teams.md §1.2-1.4):

- a team's players of a round take the boards of its ``300`` record for that round, or else the
  default order: the members who played, in their ``310`` order, on boards 1, 2, ...;
- two teams whose players met in a round are a table; a player written ``0000 - +`` (an empty board
  facing them) plays at the table of its team's other boards, or of the ``300``/``330`` opponent;
- the home team (White on board 1, R-D4) is the team whose player has White on an odd board (or
  Black on an even one); tables are numbered by the lower TPN of their two teams;
- board codes come from the two letters (``1 = 0 + -``); a present player facing an empty board
  gets ``+/-`` or ``-/+`` and the empty side's name is ``no player``.

Read tolerantly: CR, LF or CRLF line ends; UTF-8, else Latin-1; ``362`` and ``299`` spacing
variants (trf-teams.md §1.4 traps 1-2; a ``299`` that only restates the forfeit values is accepted,
any other abnormal points assignment refused: no event represents one); ``###`` comments. The product's own ``### olympiad-events``
lines give back the tournament id, the exact rule profile, and team ids and federations; without them
the tournament id comes from the argument or the ``012`` name, the profile is ``olympiad-2022``'s
pairing switches with C.07 2026 unplayed rounds (``dummy-2026``) and the file's rounds (``142``), boards (``352``), match points (``362``), PAB award (``320``) and
tie-breaks (``212``/``202``). Errors are ``TrfError`` naming the line, the record, the columns and
the rule; nothing is returned from a bad file.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from producers.importers.common import team_id_for
from projections.trf import records as rec
from projections.trf.export import COMMENT, NO_PLAYER
from schemas import event_ids
from schemas.events import BoardResultRecorded, MatchForfeited, Player, RoundPaired, Table, TeamRegistered, TournamentCreated
from schemas.points import to_points
from schemas.profile import OLYMPIAD_2022, Award, MatchPointScale, RuleProfile
from schemas.tiebreak_codes import standings_codes


class TrfError(ValueError):
    """A TRF file that cannot be read: ``line`` (1-based, 0 for the whole file), ``record`` and the rule."""

    def __init__(self, message: str, *, line: int = 0, record: str = "", rule: str = "TRF-2026"):
        where = f"line {line}: record {record}: " if line else (f"record {record}: " if record else "")
        super().__init__(f"{where}{message}" + (f" [rule: {rule}]" if rule else ""))  # rule "": the message names it
        self.line, self.record, self.rule = line, record, rule


@dataclass
class _Team:
    tpn: int
    name: str
    nickname: str
    members: list[int]
    line: int
    team_id: str = ""
    federation: str = ""


@dataclass
class _Game:
    opponent: int
    colour: str
    letter: str


@dataclass
class _File:
    """The records of one file, by tag, with their line numbers."""

    records: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)


def read_text(data: bytes) -> str:
    """Decode a TRF file: UTF-8 (a BOM dropped), else Latin-1 (gacrux's default reading)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load_file(path: Path, tournament_id: str | None = None) -> list[Any]:
    """``load_trf`` of the file at ``path``."""
    return load_trf(read_text(Path(path).read_bytes()), tournament_id)


def _split(text: str) -> _File:
    out = _File()
    for n, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=1):
        if line.startswith(COMMENT + " "):
            out.comments.append(line[len(COMMENT) + 1:])
        elif line.startswith("###") or len(line.strip()) < 3:
            continue
        else:
            out.records.setdefault(line[:3], []).append((n, line))
    return out


def _int(line: str, cols: tuple[int, int], n: int, what: str) -> int:
    text = rec.field(line, cols)
    if not text:
        return 0
    if not text.isdigit():
        raise TrfError(f"columns {cols[0]}-{cols[1]} ({what}) hold {text!r}, not a number", line=n, record=line[:3])
    return int(text)


def _points(text: str, n: int, record: str, what: str) -> Decimal:
    try:
        return to_points(text.strip() or "0")
    except ValueError:
        raise TrfError(f"{what} {text.strip()!r} is not a point value", line=n, record=record) from None


def load_trf(text: str, tournament_id: str | None = None) -> list[Any]:
    """The events of the team TRF ``text`` (see the module docstring). ``tournament_id`` overrides
    the file's. Raises ``TrfError``."""
    f = _split(text)
    meta = _comments(f)
    players = _players(f)
    teams = _teams(f, players)
    profile = meta.get("profile") or _profile(f)
    tid = tournament_id or meta.get("tournament") or _slug(_tournament_name(f))
    team_of = {srn: t.tpn for t in teams.values() for srn in t.members}
    for tpn, extra in meta.get("teams", {}).items():
        if tpn in teams:
            teams[tpn].team_id, teams[tpn].federation = extra["team_id"], extra["federation"]
    _name_teams(teams, players)
    events: list[Any] = [TournamentCreated(event_id=event_ids.created(tid), tournament_id=tid, name=_tournament_name(f), profile=profile,
                                           source="TRF import")]
    for entry in _entries(teams, players, profile.boards, profile.reserves):
        events.append(TeamRegistered(event_id=event_ids.team(tid, entry["team_id"]), tournament_id=tid, **entry))
    _abnormal_points(f, profile)
    byes = _byes(f, teams)
    orders = _lineups(f)
    forfeited = _forfeited(f)
    last = max([r for p in players.values() for r in p["games"]] + list(byes) + [r for r, _, _, _ in forfeited] + [0])
    for r in range(1, last + 1):
        events += _round(tid, r, profile, teams, players, team_of, byes.get(r), orders, [x for x in forfeited if x[0] == r])
    return events


def read_teams(text: str, boards: int = 4, reserves: int = 1) -> list[dict[str, Any]]:
    """The teams of a team TRF's ``001`` and ``310`` (or ``013``) records, as the ``teams`` of an
    ``ImportTeams`` command: team id, name, federation, pairing number (the TPN) and the first
    ``boards + reserves`` members as the nominated players in their record order. A file without
    rounds (a start list) is enough. Raises ``TrfError``."""
    f = _split(text)
    players = _players(f)
    teams = _teams(f, players)
    for tpn, extra in _comments(f).get("teams", {}).items():
        if tpn in teams:
            teams[tpn].team_id, teams[tpn].federation = extra["team_id"], extra["federation"]
    _name_teams(teams, players)
    return _entries(teams, players, boards, reserves)


def _entries(teams: dict[int, _Team], players: dict[int, dict[str, Any]], boards: int, reserves: int) -> list[dict[str, Any]]:
    out = []
    for t in sorted(teams.values(), key=lambda t: t.tpn):
        nominated = t.members[: boards + reserves]
        if len(nominated) < boards:
            raise TrfError(f"team {t.tpn} ({t.name}) lists {len(nominated)} players; a team has at least {boards}",
                           line=t.line, record="310", rule="R-D1 team of 4 boards + 1 reserve")
        out.append({"team_id": t.team_id, "name": t.name, "federation": t.federation, "pairing_number": t.tpn,
                    "players": tuple(Player(board_order=k, name=players[s]["name"], title=players[s]["title"],
                                            rating=players[s]["rating"], fide_id=players[s]["fide_id"])
                                     for k, s in enumerate(nominated, start=1))})
    return out


def _comments(f: _File) -> dict[str, Any]:
    out: dict[str, Any] = {"teams": {}}
    for text in f.comments:
        key, _, value = text.partition(" ")
        if key == "tournament":
            out["tournament"] = value.strip()
        elif key == "profile":
            out["profile"] = RuleProfile.model_validate_json(value)
        elif key == "team":
            tpn, _, body = value.partition(" ")
            out["teams"][int(tpn)] = json.loads(body)
    return out


def _tournament_name(f: _File) -> str:
    return f.records.get("012", [(0, "012 TRF import")])[0][1][4:].strip() or "TRF import"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:100] or "trf-import"


def _players(f: _File) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for n, line in f.records.get("001", []):
        srn = _int(line, rec.PLAYER_SRN, n, "starting rank")
        games: dict[int, _Game] = {}
        r = 1
        while len(line) >= rec.round_columns(r)[0]:
            first, c_col, r_col = rec.round_columns(r)
            chunk = line[first - 1:r_col]
            if chunk.strip():
                opp = chunk[:4].strip()
                if opp and not opp.isdigit():
                    raise TrfError(f"round {r}: opponent {opp!r} (columns {first}-{first + 3}) is not a start number", line=n, record="001")
                letter = line[r_col - 1] if len(line) >= r_col else " "
                games[r] = _Game(int(opp or 0), line[c_col - 1].lower() if len(line) >= c_col else "-", letter)
            r += 1
        rating = _int(line, rec.PLAYER_RATING, n, "rating")
        fide_id = rec.field(line, rec.PLAYER_FIDE_ID)
        out[srn] = {"name": rec.field(line, rec.PLAYER_NAME), "title": rec.TITLE_NAMES.get(rec.field(line, rec.PLAYER_TITLE), rec.field(line, rec.PLAYER_TITLE).upper()),
                    "rating": rating or None, "fide_id": fide_id or None, "federation": rec.field(line, rec.PLAYER_FEDERATION),
                    "games": games, "line": n}
    return out


def _teams(f: _File, players: dict[int, dict[str, Any]]) -> dict[int, _Team]:
    teams: dict[int, _Team] = {}
    if "310" in f.records:
        for n, line in f.records["310"]:
            tpn = _int(line, rec.TEAM_TPN, n, "team pairing number")
            members = _members(line, rec.TEAM_FIRST_MEMBER, n)
            teams[tpn] = _Team(tpn, rec.field(line, rec.TEAM_NAME), rec.field(line, rec.TEAM_NICKNAME), members, n)
    else:
        for k, (n, line) in enumerate(f.records.get("013", []), start=1):
            teams[k] = _Team(k, rec.field(line, rec.TEAM013_NAME), "", _members(line, rec.TEAM013_FIRST_MEMBER, n), n)
    if not teams:
        raise TrfError("no 310 or 013 record: not a team tournament", rule="TRF-2026 310 team section")
    for t in teams.values():
        for srn in t.members:
            if srn not in players:
                raise TrfError(f"team {t.tpn} names player {srn}, who has no 001 record", line=t.line, record="310")
    return teams


def _members(line: str, first: int, n: int) -> list[int]:
    out = []
    for k in range(rec.TEAM_MAX_MEMBERS):
        cols = (first + 5 * k, first + 5 * k + 3)
        srn = _int(line, cols, n, f"member {k + 1}")
        if srn:
            out.append(srn)
    return out


def _name_teams(teams: dict[int, _Team], players: dict[int, dict[str, Any]]) -> None:
    """Team ids and federations: the product's comment, else the nickname (or the federation with the
    team's number, or the name) and the members' most common federation."""
    used: set[str] = {t.team_id for t in teams.values() if t.team_id}
    for t in sorted(teams.values(), key=lambda t: t.tpn):
        if not t.federation:
            feds = Counter(players[s]["federation"] for s in t.members if players[s]["federation"])
            t.federation = feds.most_common(1)[0][0] if feds else t.nickname
        if not t.team_id:
            base = (t.nickname or (team_id_for(t.federation, t.name) if t.federation else "")
                    or re.sub(r"[^A-Za-z0-9]+", "-", t.name).strip("-")[:40] or f"T{t.tpn}")
            t.team_id = base if base not in used else f"{base}-{t.tpn}"
            used.add(t.team_id)


def _profile(f: _File) -> RuleProfile:
    """A profile from the file's records, on the ``olympiad-2022`` switches (module docstring)."""
    update: dict[str, Any] = {"name": "trf-import", "unplayed": "dummy-2026", "forfeited_match_in_tiebreaks": False,
                              "description": "read from a TRF file: C.07 2026 unplayed rounds; pairing switches of olympiad-2022"}
    if "142" in f.records:
        n, line = f.records["142"][0]
        update["rounds"] = _int(line, (5, 8), n, "number of rounds")
    if "352" in f.records:
        update["boards"] = len(f.records["352"][0][1][4:].strip())
    if "362" in f.records:
        n, line = f.records["362"][0]
        found = dict(re.findall(r"T([WDL])\s*(-?\d+(?:\.\d+)?)", line[4:]))  # either spacing (trap 2)
        values = {k: int(_points(found[k], n, "362", f"T{k}")) for k in found}
        update["match_points"] = MatchPointScale(win=values.get("W", 2), draw=values.get("D", 1), loss=values.get("L", 0))
    if "320" in f.records:
        n, line = f.records["320"][0]
        update["bye_award"] = Award(mp=int(_points(line[4:8], n, "320", "PAB MP")), gp=_points(line[9:13], n, "320", "PAB GP"))
    for tag in ("212", "202"):
        if tag in f.records:
            codes = [c for c in re.split(r"[,\s]+", f.records[tag][0][1][4:]) if c]
            try:
                update["tiebreaks"] = standings_codes(codes)
            except ValueError as exc:
                raise TrfError(str(exc), line=f.records[tag][0][0], record=tag, rule="") from None
            break
    return OLYMPIAD_2022.model_copy(update=update)


def _abnormal_points(f: _File, profile: RuleProfile) -> None:
    """299 records, read in the table's columns or Sharly's (one column left: trf-teams.md §1.4 trap 1)
    by their blank-separated fields: type, MP, GP, round, IDs. A record that restates what the profile
    gives anyway (``+``/``-`` forfeit values without round or team: win MP with every board, or 0 and 0)
    is accepted; any other assignment has no event to become and is refused."""
    boards = Decimal(profile.boards)
    for n, line in f.records.get("299", []):
        kind = line[4:5]
        fields = line[5:].split()
        try:
            mp, gp = Decimal(fields[0]), Decimal(fields[1])
        except (IndexError, ArithmeticError):
            raise TrfError("expected the MP and GP of an abnormal points assignment", line=n, record="299") from None
        restated = {"+": (Decimal(profile.match_points.win), boards), "-": (Decimal(profile.match_points.loss), Decimal(0))}
        if len(fields) == 2 and restated.get(kind) == (mp, gp):
            continue
        raise TrfError(f"an abnormal points assignment ({line.strip()!r}) has no event in this product; correct the results "
                       "or the profile instead", line=n, record="299", rule="TRF-2026 299 abnormal points")


def _byes(f: _File, teams: dict[int, _Team]) -> dict[int, int]:
    if "320" not in f.records:
        return {}
    n, line = f.records["320"][0]
    out = {}
    for r in range(1, (len(line) - 14 + 4) // 4 + 1):
        first = 15 + 4 * (r - 1)
        tpn = _int(line, (first, first + 2), n, f"PAB of round {r}")
        if tpn:
            if tpn not in teams:
                raise TrfError(f"round {r}: team {tpn} is not in the team section", line=n, record="320")
            out[r] = tpn
    return out


def _lineups(f: _File) -> dict[tuple[int, int], tuple[int, list[int]]]:
    """(round, TPN) -> (scheduled opponent TPN, player per board, 0 = empty board) from the 300 records."""
    out = {}
    for n, line in f.records.get("300", []):
        r, team, opp = (_int(line, c, n, w) for c, w in (((5, 7), "round"), ((9, 11), "team"), ((13, 15), "opponent")))
        boards, k = [], 0
        while len(line) >= 17 + 5 * k:
            boards.append(_int(line, (17 + 5 * k, 20 + 5 * k), n, f"board {k + 1}"))
            k += 1
        out[(r, team)] = (opp, boards)
    return out


def _forfeited(f: _File) -> list[tuple[int, int, int, str]]:
    """(round, White team, Black team, ``+-``/``-+``/``--``) of each 330 record (gacrux's variants too)."""
    kinds = {"+-": "+-", "10": "+-", "WL": "+-", "WZ": "+-", "-+": "-+", "01": "-+", "LW": "-+", "ZW": "-+",
             "--": "--", "00": "--", "LL": "--", "ZZ": "--"}
    out = []
    for n, line in f.records.get("330", []):
        kind = kinds.get(line[4:6].upper())
        if kind is None:
            raise TrfError(f"columns 5-6 hold {line[4:6]!r}; expected +-, -+ or --", line=n, record="330")
        out.append((_int(line, (8, 10), n, "round"), _int(line, (12, 14), n, "White team"), _int(line, (16, 18), n, "Black team"), kind))
    return out


def _round(tid: str, r: int, profile: RuleProfile, teams: dict[int, _Team], players: dict[int, dict[str, Any]],
           team_of: dict[int, int], bye: int | None, orders: dict, forfeited: list) -> list[Any]:
    """The ``RoundPaired`` and board results of round ``r``."""
    boards = profile.boards
    # Each team's boards this round: {board: srn} (0 = empty board), and the opponent team.
    seats: dict[int, dict[int, int]] = {}
    opponent: dict[int, int] = {}
    for t in teams.values():
        playing = [s for s in t.members if r in players[s]["games"] and players[s]["games"][r].letter.strip()]
        if (r, t.tpn) in orders:
            opp, order = orders[(r, t.tpn)]
            seats[t.tpn] = {b: s for b, s in enumerate(order, start=1)}
            opponent[t.tpn] = opp
        elif playing:
            seats[t.tpn] = {b: s for b, s in enumerate(playing, start=1)}
        for s in playing:
            opp_srn = players[s]["games"][r].opponent
            if opp_srn:
                if opp_srn not in team_of:
                    raise TrfError(f"round {r}: opponent {opp_srn} is in no team", line=players[s]["line"], record="001")
                opponent.setdefault(t.tpn, team_of[opp_srn])
    for _, white, black, _ in forfeited:
        opponent.setdefault(white, black)
        opponent.setdefault(black, white)
    pairs = sorted({tuple(sorted((a, b))) for a, b in opponent.items() if b})
    events: list[Any] = []
    tables = []
    results = []
    for number, (a, b) in enumerate(pairs, start=1):
        home, away = _home(r, a, b, seats, players, forfeited)
        tables.append(Table(table=number, home=teams[home].team_id, away=teams[away].team_id))
        if a not in seats and b not in seats:
            white, kind = next((w, k) for _, w, bl, k in forfeited if {w, bl} == {a, b})
            winner = {"+-": white, "-+": a + b - white}.get(kind)
            results.append(MatchForfeited(event_id=event_ids.match_forfeit(tid, r, number), tournament_id=tid, round=r, table=number,
                                          winner=teams[winner].team_id if winner else None, forfeit="other", note="TRF 330 forfeited match"))
            continue
        for board in range(1, boards + 1):
            white_team, black_team = (home, away) if board % 2 else (away, home)
            w, bl = seats.get(white_team, {}).get(board, 0), seats.get(black_team, {}).get(board, 0)
            code = _code(r, w, bl, players)
            if code is None:
                continue
            results.append(BoardResultRecorded(
                event_id=event_ids.board(tid, r, number, board), tournament_id=tid, round=r, table=number, board=board,
                white=players[w]["name"] if w else NO_PLAYER, black=players[bl]["name"] if bl else NO_PLAYER, result=code))
    paired = {x for pair in pairs for x in pair} | ({bye} if bye else set())
    absent = tuple(teams[t].team_id for t in sorted(teams) if t not in paired)
    events.append(RoundPaired(event_id=event_ids.pairing(tid, r), tournament_id=tid, round=r, tables=tuple(tables),
                              bye=teams[bye].team_id if bye else None, absent=absent, note="TRF import"))
    return events + results


def _home(r: int, a: int, b: int, seats: dict, players: dict, forfeited: list) -> tuple[int, int]:
    """(home, away): the team with White on an odd board or Black on an even one (R-D4); a 330 record's White team."""
    for team, other in ((a, b), (b, a)):
        for board, srn in seats.get(team, {}).items():
            game = players[srn]["games"].get(r) if srn else None
            if game is not None and game.colour in ("w", "b"):
                white_on_odd = (game.colour == "w") == (board % 2 == 1)
                return (team, other) if white_on_odd else (other, team)
    for _, white, black, _ in forfeited:
        if {white, black} == {a, b}:
            return white, black
    return a, b


def _code(r: int, white: int, black: int, players: dict) -> str | None:
    """The White-Black code of a board from its two players' letters (an empty side: the other's letter)."""
    wl = players[white]["games"][r].letter if white and r in players[white]["games"] else ""
    bl = players[black]["games"][r].letter if black and r in players[black]["games"] else ""
    if white and black:
        code = rec.CODES.get((wl, bl))
        if code is None:
            raise TrfError(f"round {r}: players {white} and {black} have results {wl!r} and {bl!r}, which do not fit one game",
                           line=players[white]["line"], record="001", rule="a game's two results")
        return code
    present = wl or bl
    if not present:
        return None
    if present not in "+-1=0":
        raise TrfError(f"round {r}: result {present!r} is not a board result", line=players[white or black]["line"], record="001")
    wins = present in "+1"
    return ("+/-" if wins else "-/+") if white else ("-/+" if wins else "+/-")
