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

Header records give the tournament's venue (022), dates (042/052) and chief arbiter (102). The
importer translates and judges nothing: its events enter a log as an ``ImportFacts`` command
(``producers.sources.load_log``), whose decider judges each by the event rules.

Read tolerantly: CR, LF or CRLF line ends, trailing blanks; UTF-8 (BOM or not), cp1252 or Latin-1
(``projections.trf.encoding``); ``362`` and ``299`` spacing
variants (trf-teams.md §1.4 traps 1-2; a ``299`` that only restates the forfeit values is accepted,
any other abnormal points assignment refused: no event represents one); ``###`` comments. The product's own ``### olympiad-events``
lines give back the tournament id, the exact rule profile, team ids and federations, names the records
cut or respell and a late entry's first round (its ``TeamRegistered`` placed before that round's
pairing); without them
the tournament id comes from the argument or the ``012`` name, the profile is ``olympiad-2022``'s
pairing switches with C.07 2026 unplayed rounds (``dummy-2026``) and the file's rounds (``142``), boards (``352``), match points (``362``), PAB award (``320``) and
tie-breaks (``212``/``202``); a scale the product cannot keep exactly (half match points, game points
other than 1/½/0) is refused. Errors are ``TrfError`` naming the line, the record, the columns and
the rule in the product's words; nothing is returned from a bad file. The records and their refusals:
``producers.importers.trf_fields``; the rule profile of the header records: ``producers.importers.trf_profile``.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError

from processors.tournament import RuleViolation, TournamentState
from producers.importers.common import team_id_for
from producers.importers.trf_fields import FIELD_RULES, TrfError, TrfRecords, build, int_field, points_field, split_records
from producers.importers.trf_profile import abnormal_points, agreed, profile_of
from projections.event_rules import ABSOLUTE, OVERRIDDEN, checker_report
from projections.trf import records as rec
from projections.trf.encoding import decode_trf
from projections.trf.export import COMMENT, NO_PLAYER
from schemas import event_ids, limits
from schemas.events import BoardResultRecorded, MatchForfeited, Player, RoundPaired, Table, TeamRegistered, TournamentCreated
from schemas.profile import RuleProfile

__all__ = ["TrfError", "load_file", "load_trf", "read_teams", "read_text"]

# 001 round results: board results, the same at under one move (W D L: scored alike, not rated), and the
# unplayed letters whose team round the 320/240 records give (U PAB, Z/blank absence, H/F byes).
PLAYED = {"1": "1", "0": "0", "=": "=", "+": "+", "-": "-", "W": "1", "D": "=", "L": "0"}
UNPLAYED = set("UZHF ")


@dataclass
class _Team:
    tpn: int
    name: str
    nickname: str
    members: list[int]
    line: int
    team_id: str = ""
    federation: str = ""
    from_round: int | None = None
    record: str = "310"


@dataclass
class _Game:
    opponent: int
    colour: str
    letter: str


def read_text(data: bytes, encoding: str | None = None) -> str:
    """Decode a TRF file: ``encoding`` or detected (UTF-8 with or without BOM, cp1252, Latin-1:
    ``projections.trf.encoding.decode_trf``). Raises ``TrfError`` for bytes that are not that text."""
    try:
        return decode_trf(data, encoding)[0]
    except ValueError as exc:
        raise TrfError(str(exc), rule="") from None


def load_file(path: Path, tournament_id: str | None = None, *, encoding: str | None = None) -> list[Any]:
    """``load_trf`` of the file at ``path`` (``read_text`` with ``encoding``)."""
    return load_trf(read_text(Path(path).read_bytes(), encoding), tournament_id)


def load_trf(text: str, tournament_id: str | None = None) -> list[Any]:
    """The events of the team TRF ``text`` (see the module docstring), as facts to import (not yet
    judged: ``ImportFacts``). ``tournament_id`` overrides the file's. Raises ``TrfError`` naming the
    line, the record, the columns and the rule of what cannot be translated."""
    f = split_records(text)
    meta = _comments(f)
    players = _players(f, meta)
    teams = _teams(f, players, meta)
    profile = agreed(f, meta.get("profile"), profile_of(f))
    tid = tournament_id or meta.get("tournament") or _slug(_tournament_name(f))
    team_of = {srn: t.tpn for t in teams.values() for srn in t.members}
    _name_teams(teams, players)
    name_line = f.records.get("012", [(0, "")])[0][0]
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", tid):
        raise TrfError(f"tournament id {tid!r} is not accepted", rule=limits.TOURNAMENT_ID_RULE)
    header = _header(f, meta)
    created = build(TournamentCreated, name_line, "012", {"name": (5, 104)}, event_id=event_ids.created(tid), tournament_id=tid, name=meta.get("created", {}).get("name") or _tournament_name(f), profile=profile,
                     source="TRF import", **header)
    events: list[tuple[Any, int, str]] = [(created, name_line, "012")]
    late: dict[int, list[tuple[Any, int, str]]] = {}
    for t, entry in zip(sorted(teams.values(), key=lambda t: t.tpn), _entries(teams, players, profile.boards, profile.reserves)):
        event = build(TeamRegistered, t.line, t.record, {"team_id": rec.TEAM_NICKNAME, "name": rec.TEAM_NAME},
                       event_id=event_ids.team(tid, entry["team_id"]) if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", entry["team_id"]) else "x",
                       tournament_id=tid, from_round=t.from_round, **entry)
        late.setdefault(t.from_round or 1, []).append((event, t.line, t.record))
    events += late.pop(1, [])
    abnormal_points(f, profile)
    byes = _byes(f, teams)
    absent = _absent(f, teams)
    orders = _lineups(f, teams, profile.boards)
    forfeited = _forfeited(f, teams)
    last = max([r for p in players.values() for r in p["games"] if p["games"][r].letter not in UNPLAYED or p["games"][r].opponent]
               + list(byes) + [r for r, _, _, _, _ in forfeited] + [0])
    for r in range(1, last + 1):
        events += late.pop(r, [])
        events += _round(tid, r, profile, teams, players, team_of, byes.get(r, (None, 0)), absent.get(r, {}), orders,
                         [x for x in forfeited if x[0] == r])
    events += [e for r in sorted(late) for e in late[r]]
    return _published(events)


def _published(events: list[tuple[Any, int, str]]) -> list[Any]:
    """The events in order, each published pairing that breaks an absolute pairing rule
    (``projections.event_rules.ABSOLUTE``, found by the pairing checker) carrying the file as the
    chief arbiter's stated reason: a published pairing is the chief arbiter's decision, made and
    announced, and the file is its record. Nothing is judged here: the events enter a log as an
    ``ImportFacts`` command, whose decider judges each by the event rules. Raises ``TrfError``
    naming the line and record of an event whose id the file uses for two different events."""
    state = TournamentState()
    out = []
    for event, n, record in events:
        if isinstance(event, RoundPaired) and _breaks_absolute(state, event):
            reason = f"{OVERRIDDEN}as published in the imported TRF (line {n}, record {record})"
            event = event.model_copy(update={"note": f"{event.note}; {reason}" if event.note else reason})
        try:
            state.evolve(event)
        except RuleViolation as exc:
            raise TrfError(str(exc), line=n, record=record, rule="") from None
        out.append(event)
    return out


def _breaks_absolute(state: TournamentState, pairing: RoundPaired) -> bool:
    """True when the pairing checker finds ``pairing`` breaking an absolute rule; False too when
    the pairing cannot be checked (a team or round the file does not hold: the decider refuses it)."""
    try:
        report = checker_report(state, pairing.round, pairing.tables, pairing.bye, pairing.absent)
    except (KeyError, ValueError):
        return False
    return any(line.startswith(ABSOLUTE) for line in report)


def read_teams(text: str, boards: int = 4, reserves: int = 1) -> list[dict[str, Any]]:
    """The teams of a team TRF's ``001`` and ``310`` (or ``013``) records, as the ``teams`` of an
    ``ImportTeams`` command: team id, name, federation, pairing number (the TPN) and the first
    ``boards + reserves`` members as the nominated players in their record order. A file without
    rounds (a start list) is enough. Raises ``TrfError``."""
    f = split_records(text)
    meta = _comments(f)
    players = _players(f, meta)
    teams = _teams(f, players, meta)
    _name_teams(teams, players)
    return _entries(teams, players, boards, reserves)


def _entries(teams: dict[int, _Team], players: dict[int, dict[str, Any]], boards: int, reserves: int) -> list[dict[str, Any]]:
    out = []
    for t in sorted(teams.values(), key=lambda t: t.tpn):
        nominated = t.members[: boards + reserves]
        if len(nominated) < boards:
            raise TrfError(f"team {t.tpn} ({t.name}) lists {len(nominated)} players; a team has at least {boards}",
                           line=t.line, record=t.record, rule=f"R-D1 team of {boards} boards + {reserves} reserve")
        out.append({"team_id": t.team_id, "name": t.name, "federation": t.federation, "pairing_number": t.tpn,
                    "players": tuple(players[s]["player"].model_copy(update={"board_order": k}) for k, s in enumerate(nominated, start=1))})
    return out


def _comments(f: TrfRecords) -> dict[str, Any]:
    """The product's ``### olympiad-events`` comments: tournament id, profile, the exact texts of
    the tournament (``created``), of a team (id, federation, full name, the round a late entry
    starts in) and of a player whose name the 001 record cuts or respells."""
    out: dict[str, Any] = {"teams": {}, "players": {}}
    for n, text in f.comments:
        key, _, value = text.partition(" ")
        try:
            if key == "tournament":
                out["tournament"] = value.strip()
            elif key == "profile":
                out["profile"] = RuleProfile.model_validate_json(value)
            elif key == "created":
                out["created"] = dict(json.loads(value))
            elif key in ("team", "player"):
                number, _, body = value.partition(" ")
                data = json.loads(body)
                if not isinstance(data, dict) or not number.isdigit():
                    raise ValueError
                out[key + "s"][int(number)] = data
        except (ValueError, TypeError, ValidationError):
            raise TrfError(f"the {key} comment of olympiad-events is not the product's form ({COMMENT} {key} ...)", line=n,
                           record="###", rule="TRF-2026 comment lines; olympiad-events comments") from None
    return out


def _tournament_name(f: TrfRecords) -> str:
    return f.records.get("012", [(0, "012 TRF import")])[0][1][4:].strip() or "TRF import"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-") or "trf-import"


def _date(n: int, line: str) -> date:
    """A 042/052 date: ``YYYY/MM/DD`` (TRF-2026), also with ``-`` or ``.``, or ``DD.MM.YYYY``."""
    text = line[4:].strip()
    m = re.fullmatch(r"(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})", text) or None
    d = re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})", text) if m is None else None
    try:
        if m is not None:
            return date(int(m[1]), int(m[2]), int(m[3]))
        if d is not None:
            return date(int(d[3]), int(d[2]), int(d[1]))
    except ValueError:
        pass
    raise TrfError(f"columns 5-{max(len(line), 14)} hold {text!r}, not a date YYYY/MM/DD", line=n, record=line[:3],
                   rule="TRF-2026 042/052 dates YYYY/MM/DD")


def _header(f: TrfRecords, meta: dict[str, Any]) -> dict[str, Any]:
    """TournamentCreated's venue (022), start and end (042/052) and chief arbiter (102); the product's
    ``created`` comment gives the exact texts the records respell."""
    out: dict[str, Any] = {}
    for tag, key in (("022", "venue"), ("102", "chief_arbiter")):
        if tag in f.records:
            out[key] = meta.get("created", {}).get(key) or f.records[tag][0][1][4:].strip()
    for tag, key in (("042", "starts"), ("052", "ends")):
        if tag in f.records and f.records[tag][0][1][4:].strip():
            out[key] = _date(*f.records[tag][0])
    if "starts" in out and "ends" in out and out["ends"] < out["starts"]:
        raise TrfError(f"the end date {out['ends']} is before the start date {out['starts']}", line=f.records["052"][0][0],
                       record="052", rule="TRF-2026 042/052 dates")
    return out


def _key_number(line: str, cols: tuple[int, int], n: int, record: str, what: str, bounds: str,
                seen: dict[int, Any], line_of: Callable[[Any], int], rule: str) -> int:
    """The number in ``cols`` that keys a ``record`` (a starting rank, a team pairing number):
    ``TrfError`` when it is blank or 0 (``bounds`` says what it may be) or already keys an entry of
    ``seen``, read from line ``line_of(entry)`` (``rule``)."""
    number = int_field(line, cols, n, what)
    if not number:
        raise TrfError(f"columns {cols[0]}-{cols[1]} ({what}) are blank or 0; {bounds}", line=n, record=record)
    if number in seen:
        raise TrfError(f"{what} {number} is given twice (also on line {line_of(seen[number])})", line=n, record=record, rule=rule)
    return number


def _players(f: TrfRecords, meta: dict[str, Any]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for n, line in f.records.get("001", []):
        srn = _key_number(line, rec.PLAYER_SRN, n, "001", "starting rank", "a player's starting rank is 1 to 9999",
                          out, lambda p: p["line"], "TRF-2026 001 one record per starting rank")
        games: dict[int, _Game] = {}
        r = 1
        while len(line) >= rec.round_columns(r)[0]:
            first, c_col, r_col = rec.round_columns(r)
            chunk = line[first - 1:r_col].ljust(r_col - first + 1)
            if chunk.strip():
                opp = chunk[:4].strip()
                if opp and not opp.isdigit():
                    raise TrfError(f"round {r}: columns {first}-{first + 3} (opponent) hold {opp!r}, not a starting rank", line=n, record="001")
                colour = (line[c_col - 1] if len(line) >= c_col else " ").lower()
                letter = (line[r_col - 1] if len(line) >= r_col else " ").upper()
                if colour not in "wb- ":
                    raise TrfError(f"round {r}: column {c_col} (colour) holds {colour!r}; expected w, b or -", line=n, record="001")
                if letter not in PLAYED and letter not in UNPLAYED:
                    raise TrfError(f"round {r}: column {r_col} (result) holds {letter!r}; expected 1 = 0 + - W D L U Z H F",
                                   line=n, record="001")
                if chunk[4] != " " or chunk[6] != " ":
                    raise TrfError(f"round {r}: columns {first + 4} and {first + 6} are not blank: the round's fields are shifted",
                                   line=n, record="001", rule="TRF-2026 001 round fields at 92+10(r-1)")
                games[r] = _Game(int(opp or 0), colour.strip() or "-", letter)
            r += 1
        rating = int_field(line, rec.PLAYER_RATING, n, "rating")
        fide_id = rec.field(line, rec.PLAYER_FIDE_ID)
        if fide_id and not fide_id.isdigit():
            raise TrfError(f"columns 58-68 (FIDE id) hold {fide_id!r}, not a FIDE id", line=n, record="001", rule=FIELD_RULES["fide_id"])
        title = rec.field(line, rec.PLAYER_TITLE)
        name = meta["players"].get(srn, {}).get("name") or rec.field(line, rec.PLAYER_NAME)
        if not name:
            raise TrfError("columns 15-47 (name) are blank", line=n, record="001", rule=FIELD_RULES["name"])
        player = build(Player, n, "001", {"name": rec.PLAYER_NAME, "title": rec.PLAYER_TITLE, "rating": rec.PLAYER_RATING,
                                           "fide_id": rec.PLAYER_FIDE_ID},
                        board_order=1, name=name, title=rec.TITLE_NAMES.get(title, title.upper()), rating=rating or None, fide_id=fide_id or None)
        out[srn] = {"name": player.name, "player": player, "federation": rec.field(line, rec.PLAYER_FEDERATION), "games": games, "line": n}
    return out


def _teams(f: TrfRecords, players: dict[int, dict[str, Any]], meta: dict[str, Any]) -> dict[int, _Team]:
    teams: dict[int, _Team] = {}
    if "310" in f.records:
        for n, line in f.records["310"]:
            tpn = _key_number(line, rec.TEAM_TPN, n, "310", "team pairing number", "a team pairing number is 1 to 999",
                              teams, lambda t: t.line, "TRF-2026 310 one record per team")
            for cols, what in ((rec.TEAM_MP, "match points"), (rec.TEAM_GP, "game points")):
                if rec.field(line, cols):
                    points_field(rec.field(line, cols), n, "310", f"columns {cols[0]}-{cols[1]} ({what})")
            int_field(line, rec.TEAM_STRENGTH, n, "strength factor")
            int_field(line, rec.TEAM_RANK, n, "team rank")
            teams[tpn] = _Team(tpn, rec.field(line, rec.TEAM_NAME), rec.field(line, rec.TEAM_NICKNAME), _members(line, rec.TEAM_FIRST_MEMBER, n), n)
    else:
        for k, (n, line) in enumerate(f.records.get("013", []), start=1):
            teams[k] = _Team(k, rec.field(line, rec.TEAM013_NAME), "", _members(line, rec.TEAM013_FIRST_MEMBER, n), n, record="013")
    if not teams:
        raise TrfError("no 310 or 013 record: not a team tournament", rule="TRF-2026 310 team section")
    named: dict[str, _Team] = {}
    member_of: dict[int, _Team] = {}
    for t in teams.values():
        extra = meta["teams"].get(t.tpn, {})
        t.name = extra.get("name") or t.name
        if not t.name:
            raise TrfError(f"team {t.tpn}: the team name ({'columns 9-40' if t.record == '310' else 'columns 5-36'}) is blank",
                           line=t.line, record=t.record, rule=FIELD_RULES["name"])
        if t.name.casefold() in named:
            raise TrfError(f"team {t.tpn}: the team name {t.name!r} is also team {named[t.name.casefold()].tpn}'s (line "
                           f"{named[t.name.casefold()].line}): the same team twice", line=t.line, record=t.record,
                           rule="TRF-2026 one team record per team")
        named[t.name.casefold()] = t
        if extra:
            t.team_id, t.federation = str(extra.get("team_id", "")), str(extra.get("federation", ""))
            t.from_round = extra.get("from_round")
        for srn in t.members:
            if srn not in players:
                raise TrfError(f"team {t.tpn} names player {srn}, who has no 001 record", line=t.line, record=t.record)
            if srn in member_of:
                other = member_of[srn]
                raise TrfError(f"team {t.tpn} names player {srn}, who is already in team {other.tpn} (line {other.line})",
                               line=t.line, record=t.record, rule="a player plays for one team")
            member_of[srn] = t
    return teams


def _members(line: str, first: int, n: int) -> list[int]:
    out: list[int] = []
    for k in range(rec.TEAM_MAX_MEMBERS):
        cols = (first + 5 * k, first + 5 * k + 3)
        srn = int_field(line, cols, n, f"member {k + 1}")
        if srn and srn in out:
            raise TrfError(f"columns {cols[0]}-{cols[1]} (member {k + 1}): player {srn} is listed twice in this team", line=n,
                           record=line[:3], rule="a player plays for one team")
        if srn:
            out.append(srn)
    return out


def _name_teams(teams: dict[int, _Team], players: dict[int, dict[str, Any]]) -> None:
    """Team ids and federations: the product's comment, else the nickname (or the federation with the
    team's number, or the name) and the members' most common federation."""
    used: set[str] = {t.team_id for t in teams.values() if t.team_id}
    for t in sorted(teams.values(), key=lambda t: t.tpn):
        if not t.federation:
            feds = Counter(players[s]["federation"].upper() for s in t.members if players[s]["federation"])
            nickname = t.nickname.upper() if re.fullmatch(r"[A-Za-z]{3}", t.nickname) else ""
            t.federation = feds.most_common(1)[0][0] if feds else nickname
        if not t.team_id:
            base = (re.sub(r"[^A-Za-z0-9_-]+", "", t.nickname) or (team_id_for(t.federation, t.name) if t.federation else "")
                    or re.sub(r"[^A-Za-z0-9]+", "-", t.name).strip("-")[:40] or f"T{t.tpn}")
            t.team_id = base if base not in used else f"{base}-{t.tpn}"
            used.add(t.team_id)
        if not re.fullmatch(r"[A-Z0-9]{0,10}", t.federation):
            raise TrfError(f"team {t.tpn}: federation {t.federation!r} (001 columns 54-56 of its players) is not a federation code",
                           line=t.line, record=t.record, rule=FIELD_RULES["federation"])


def _byes(f: TrfRecords, teams: dict[int, _Team]) -> dict[int, tuple[int, int]]:
    """round -> (TPN given the PAB, line of the 320 record)."""
    if "320" not in f.records:
        return {}
    n, line = f.records["320"][0]
    out = {}
    for r in range(1, (len(line) - 14 + 4) // 4 + 1):
        first = 15 + 4 * (r - 1)
        tpn = int_field(line, (first, first + 2), n, f"PAB of round {r}")
        if tpn:
            if tpn not in teams:
                raise TrfError(f"round {r}: team {tpn} is not in the team section", line=n, record="320")
            out[r] = (tpn, n)
    return out


def _absent(f: TrfRecords, teams: dict[int, _Team]) -> dict[int, dict[int, int]]:
    """round -> {TPN: line} of the 240 ``Z`` records (known absences). ``F``/``H`` (a full- or
    half-point bye) have no event in this product: a team round is a match, the PAB or an absence."""
    out: dict[int, dict[int, int]] = {}
    for n, line in f.records.get("240", []):
        kind = line[4:5]
        if kind in ("F", "H"):
            raise TrfError(f"column 5: a {'full' if kind == 'F' else 'half'}-point bye has no event in this product; a team "
                           "round is a match, the pairing-allocated bye (320) or an absence (Z)", line=n, record="240",
                           rule="R-D9 byes: the PAB only")
        if kind != "Z":
            raise TrfError(f"column 5 holds {kind!r}; expected F, H or Z", line=n, record="240")
        r = int_field(line, (7, 9), n, "round")
        if not r:
            raise TrfError("columns 7-9 (round) are blank or 0", line=n, record="240")
        k = 0
        while len(line) >= 11 + 5 * k:
            tpn = int_field(line, (11 + 5 * k, 14 + 5 * k), n, f"team {k + 1}")
            if tpn and tpn not in teams:
                raise TrfError(f"columns {11 + 5 * k}-{14 + 5 * k}: team {tpn} is not in the team section", line=n, record="240")
            if tpn:
                out.setdefault(r, {})[tpn] = n
            k += 1
    return out


def _lineups(f: TrfRecords, teams: dict[int, _Team], boards: int) -> dict[tuple[int, int], tuple[int, list[int], int]]:
    """(round, TPN) -> (scheduled opponent TPN, player per board (0 = empty board), line) from the 300 records."""
    out: dict[tuple[int, int], tuple[int, list[int], int]] = {}
    for n, line in f.records.get("300", []):
        r, team, opp = (int_field(line, c, n, w) for c, w in (((5, 7), "round"), ((9, 11), "team"), ((13, 15), "opponent")))
        if not r:
            raise TrfError("columns 5-7 (round) are blank or 0", line=n, record="300")
        for cols, tpn in (("9-11", team), ("13-15", opp)):
            if tpn not in teams:
                raise TrfError(f"columns {cols}: team {tpn} is not in the team section", line=n, record="300")
        if (r, team) in out:
            raise TrfError(f"round {r}: team {team} has a second line-up (the first on line {out[(r, team)][2]})", line=n,
                           record="300", rule="TRF-2026 300 one line-up per team and round")
        order, k = [], 0
        while len(line) >= 17 + 5 * k:
            order.append(int_field(line, (17 + 5 * k, 20 + 5 * k), n, f"board {k + 1}"))
            k += 1
        if len(order) > boards:
            raise TrfError(f"{len(order)} boards in a {boards}-board match (352)", line=n, record="300", rule="R-D1 boards")
        for b, srn in enumerate(order, start=1):
            if srn and srn not in teams[team].members:
                raise TrfError(f"columns {12 + 5 * b}-{15 + 5 * b} (board {b}): player {srn} is not a member of team {team}",
                               line=n, record="300", rule="a team fields its own players")
        out[(r, team)] = (opp, order, n)
    return out


def _forfeited(f: TrfRecords, teams: dict[int, _Team]) -> list[tuple[int, int, int, str, int]]:
    """(round, White team, Black team, ``+-``/``-+``/``--``, line) of each 330 record (gacrux's variants too)."""
    kinds = {"+-": "+-", "10": "+-", "WL": "+-", "WZ": "+-", "-+": "-+", "01": "-+", "LW": "-+", "ZW": "-+",
             "--": "--", "00": "--", "LL": "--", "ZZ": "--"}
    out: list[tuple[int, int, int, str, int]] = []
    for n, line in f.records.get("330", []):
        kind = kinds.get(line[4:6].upper())
        if kind is None:
            raise TrfError(f"columns 5-6 hold {line[4:6]!r}; expected +-, -+ or --", line=n, record="330")
        r, white, black = int_field(line, (8, 10), n, "round"), int_field(line, (12, 14), n, "White team"), int_field(line, (16, 18), n, "Black team")
        if not r:
            raise TrfError("columns 8-10 (round) are blank or 0", line=n, record="330")
        for cols, tpn in (("12-14", white), ("16-18", black)):
            if tpn not in teams:
                raise TrfError(f"columns {cols}: team {tpn} is not in the team section", line=n, record="330")
        if white == black:
            raise TrfError(f"team {white} forfeits against itself", line=n, record="330", rule="a match is two teams")
        for x in out:
            if x[0] == r and {white, black} & {x[1], x[2]}:
                raise TrfError(f"round {r}: a second forfeited match of team {({white, black} & {x[1], x[2]}).pop()} (the first "
                               f"on line {x[4]})", line=n, record="330", rule="a team is paired once per round")
        out.append((r, white, black, kind, n))
    return out


def _round(tid: str, r: int, profile: RuleProfile, teams: dict[int, _Team], players: dict[int, dict[str, Any]],
           team_of: dict[int, int], pab: tuple[int | None, int], absent: dict[int, int], orders: dict, forfeited: list) -> list[tuple[Any, int, str]]:
    """The ``RoundPaired`` and board results of round ``r``, each with the line and record it was read from.
    ``pab``: (TPN given the PAB or None, line of its 320 record)."""
    bye, bye_line = pab
    boards = profile.boards
    # Each team's boards this round: {board: srn} (0 = empty board), and the opponent team.
    seats: dict[int, dict[int, int]] = {}
    opponent: dict[int, int] = {}
    source: dict[int, tuple[int, str]] = {}  # TPN -> where its opponent was read
    for t in teams.values():
        playing = [s for s in t.members if r in players[s]["games"] and players[s]["games"][r].letter in PLAYED]
        if (r, t.tpn) in orders:
            opp, order, n = orders[(r, t.tpn)]
            seats[t.tpn] = {b: s for b, s in enumerate(order, start=1)}
            opponent[t.tpn], source[t.tpn] = opp, (n, "300")
        elif playing:
            if len(playing) > boards:
                raise TrfError(f"round {r}: team {t.tpn} has {len(playing)} players with a result in a {boards}-board match and no 300 "
                               "line-up", line=players[playing[boards]]["line"], record="001", rule="R-D1 boards")
            seats[t.tpn] = {b: s for b, s in enumerate(playing, start=1)}
        for s in playing:
            game = players[s]["games"][r]
            if not game.opponent:
                continue
            if game.opponent not in team_of:
                raise TrfError(f"round {r}: opponent {game.opponent} is in no team", line=players[s]["line"], record="001")
            other = team_of[game.opponent]
            if other == t.tpn:
                raise TrfError(f"round {r}: player {s} faces player {game.opponent} of the same team", line=players[s]["line"],
                               record="001", rule="a match is two teams")
            if opponent.setdefault(t.tpn, other) != other:
                raise TrfError(f"round {r}: team {t.tpn} meets team {other} here and team {opponent[t.tpn]} on another board",
                               line=players[s]["line"], record="001", rule="a team meets one team per round")
            source.setdefault(t.tpn, (players[s]["line"], "001"))
    for _, white, black, _, n in forfeited:
        for a, b in ((white, black), (black, white)):
            if opponent.setdefault(a, b) != b:
                raise TrfError(f"round {r}: team {a} forfeits against team {b} and plays team {opponent[a]}", line=n, record="330",
                               rule="a team meets one team per round")
    for a, b in opponent.items():
        if b and opponent.get(b, a) != a:
            n, tag = source.get(b, (0, ""))
            raise TrfError(f"round {r}: team {a} meets team {b}, who meets team {opponent[b]}", line=n, record=tag,
                           rule="a team meets one team per round")
    pairs = sorted({tuple(sorted((a, b))) for a, b in opponent.items() if b})
    paired_teams = {x for pair in pairs for x in pair}
    for tpn, n in absent.items():
        if tpn in paired_teams or tpn == bye:
            raise TrfError(f"round {r}: team {tpn} is absent (240 Z) and {'has the PAB' if tpn == bye else 'plays'}", line=n,
                           record="240", rule="a team is paired once per round")
    if bye in paired_teams:
        raise TrfError(f"round {r}: team {bye} has the PAB (320) and plays", line=bye_line, record="320", rule="a team is paired once per round")
    out: list[tuple[Any, int, str]] = []
    tables = []
    for number, (a, b) in enumerate(pairs, start=1):
        home, away = _home(r, a, b, seats, players, forfeited)
        n, tag = source.get(a) or source.get(b) or (0, "")
        tables.append(build(Table, n, tag, {}, table=number, home=teams[home].team_id, away=teams[away].team_id))
        if a not in seats and b not in seats:
            white, kind, n = next((w, k, ln) for _, w, bl, k, ln in forfeited if {w, bl} == {a, b})
            winner = {"+-": white, "-+": a + b - white}.get(kind)
            out.append((MatchForfeited(event_id=event_ids.match_forfeit(tid, r, number), tournament_id=tid, round=r, table=number,
                                       winner=teams[winner].team_id if winner else None, forfeit="other", note="TRF 330 forfeited match"), n, "330"))
            continue
        for board in range(1, boards + 1):
            white_team, black_team = (home, away) if board % 2 else (away, home)
            w, bl = seats.get(white_team, {}).get(board, 0), seats.get(black_team, {}).get(board, 0)
            code = _code(r, w, bl, players)
            if code is None:
                continue
            out.append((BoardResultRecorded(
                event_id=event_ids.board(tid, r, number, board), tournament_id=tid, round=r, table=number, board=board,
                white=players[w]["name"] if w else NO_PLAYER, black=players[bl]["name"] if bl else NO_PLAYER, result=code),
                players[w or bl]["line"], "001"))
    paired = paired_teams | ({bye} if bye else set())
    absent_ids = tuple(teams[t].team_id for t in sorted(teams) if t not in paired and (teams[t].from_round or 1) <= r)
    pairing = build(RoundPaired, 0, "", {}, event_id=event_ids.pairing(tid, r), tournament_id=tid, round=r, tables=tuple(tables),
                     bye=teams[bye].team_id if bye else None, absent=absent_ids, note="TRF import")
    return [(pairing, next((n for _, n, _ in out), 0), "001"), *out]


def _home(r: int, a: int, b: int, seats: dict, players: dict, forfeited: list) -> tuple[int, int]:
    """(home, away): the team with White on an odd board or Black on an even one (R-D4); a 330 record's White team."""
    for team, other in ((a, b), (b, a)):
        for board, srn in seats.get(team, {}).items():
            game = players[srn]["games"].get(r) if srn else None
            if game is not None and game.colour in ("w", "b"):
                white_on_odd = (game.colour == "w") == (board % 2 == 1)
                return (team, other) if white_on_odd else (other, team)
    for _, white, black, _, _ in forfeited:
        if {white, black} == {a, b}:
            return white, black
    return a, b


def _code(r: int, white: int, black: int, players: dict) -> str | None:
    """The White-Black code of a board from its two players' letters (an empty side: the other's letter)."""
    def letter(srn: int) -> str:
        game = players[srn]["games"].get(r) if srn else None
        return PLAYED.get(game.letter, "") if game is not None else ""

    wl, bl = letter(white), letter(black)
    if white and black:
        code = rec.CODES.get((wl, bl))
        if code is None:
            raise TrfError(f"round {r}: players {white} and {black} have results {wl!r} and {bl!r}, which do not fit one game",
                           line=players[white]["line"], record="001", rule="a game's two results")
        return code
    present = wl or bl
    if not present:
        return None
    wins = present in "+1"
    return ("+/-" if wins else "-/+") if white else ("-/+" if wins else "+/-")
