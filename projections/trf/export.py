"""TRF-2026 export of a team tournament: ``export_trf(events, through_round=None) -> str``.

What is written (../shared/spec/trf.md, ../shared/spec/trf-teams.md; exact columns in
``projections.trf.records``):

- tournament records ``012`` (name), ``022`` (venue), ``042``/``052`` (dates), ``102`` (chief arbiter)
  from ``TournamentCreated`` unless the ``TrfHeader`` gives others, ``032``/``112``/``122``/``132`` when
  the ``TrfHeader`` gives them, ``062``/``072``/``082``
  (players, rated players, teams), ``092`` (the profile's name), ``142`` (rounds), ``152`` (initial
  colour), ``162`` (game points W/D/L and ``P`` = the PAB's GP per board, written out because readers
  disagree on its default: trf-teams.md §1.3), ``192`` (encoded type), ``202``/``212`` (the profile's
  tie-breaks by their C.07 codes), ``352`` (board colours ``WBWB``: the home team is White on odd
  boards, R-D4), ``362`` (match points TW/TD/TL), ``250`` per range of virtual points when the
  profile accelerates (C.04.7 Baku or the 2008 constant: the teams and rounds the pairing used);
- one ``001`` per player, team by team in pairing-number order, each team's nominated players in
  board order, then anyone else its results name. Per round: opponent, colour, result letter
  (``1 = 0``, forfeits ``+``/``-``). Points (cols 81-84) are the TRF26 §1.6 standard score: the
  player's own results at W=1, D=1/2, L=0 plus forfeit wins; byes belong to the team records. A board
  whose result names no player ("no player") is empty: its present player is written
  ``0000 - +`` and the team's line-up gets a ``300`` record with ``0000`` on that board;
- ``310`` per team (TPN, name, nickname = team id when it fits 5 columns, strength = average rating
  of the best boards, MP, GP, rank after ``through_round``, members) and ``013`` for TRF16 readers;
- ``300`` for every line-up not in the team's ``310`` order (or with an empty board); ``320`` with the
  PAB's MP and GP and the team given it in each round; ``330`` for each match forfeited on every
  board (R-D7: not played over the board), its players still named against each other (TRF26 allows a
  player of the absent team as the opponent); ``240 Z`` per round for the teams not paired (absent);
- ``### olympiad-events`` comment lines (JSON with ASCII escapes) with the tournament id, the full
  rule profile, a team's id and federation where the nickname cannot hold them, the exact texts
  the records cut or respell (a name over its 32/33 columns, a character outside the encoding) and a
  late entry's first round, so ``import-trf`` gives back the same standings; the audit trail; the
  anchors (``projections.anchors``: the chief arbiter's public key and the signed checkpoints).

Line-ups come from the names in ``BoardResultRecorded``; where a result names nobody (a simulated
tournament, a ``MatchForfeited``) the team's default order is taken: its first players in board order.
Lines end with CR (TRF26 remark 1). The text holds only what the chosen encoding holds (Latin-1 by
default: what gacrux reads with its default options); other characters are respelled
(``projections.trf.encoding``) and their exact text kept in the comments.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable

from processors.tournament import TournamentState
from projections.anchors import trf_lines
from projections.audit import trail
from projections.history import History, build_history
from projections.pairing.acceleration import virtual_points
from projections.pairing.entrants import teams_to_pair
from projections.standings import compute_standings
from schemas.tiebreak_codes import c07_code
import projections.trf.records as rec
from projections.trf.encoding import encoding_name, transliterate
from schemas.profile import RuleProfile

COMMENT = "### olympiad-events"
NO_PLAYER = "no player"


@dataclass(frozen=True)
class TrfHeader:
    """Tournament facts written when given (022/042/052/102 otherwise from ``TournamentCreated``): ``city`` (022),
    ``federation`` (032), ``start_date``/``end_date`` (042/052, ``YYYY-MM-DD`` or ``YYYY/MM/DD``),
    ``chief_arbiter`` (102), ``deputies`` (112, one record each), ``time_control`` (122) and
    ``round_dates`` (132, one date per round)."""

    city: str = ""
    federation: str = ""
    start_date: str = ""
    end_date: str = ""
    chief_arbiter: str = ""
    deputies: tuple[str, ...] = ()
    time_control: str = ""
    round_dates: tuple[str, ...] = ()


def tournament_type_code(profile: RuleProfile) -> str:
    """Record 192 (ETT26) for ``profile``. A C.04.6 profile (``swiss_team`` set) is
    ``FIDE_TEAM[_TYPEA|_TYPEB]_<primary>[_<secondary>]`` (no type token: no colour preferences;
    the secondary score written when it is used for colours, trf-teams.md §1.2 record 192);
    the Olympiad profiles are a team Swiss on match points, not the C.04.6 system, since they
    pair by D.02 or the 2008 rules."""
    rules = profile.swiss_team
    if rules is None:
        return "CUSTOM_TEAM_SWISS_MP"
    colour = {"type-a": "_TYPEA", "type-b": "_TYPEB", "none": ""}[rules.colour_preferences]
    primary, secondary = ("MP", "GP") if rules.primary_score == "mp" else ("GP", "MP")
    return f"FIDE_TEAM{colour}_{primary}" + (f"_{secondary}" if rules.secondary_for_colours else "")


def state_through(events: Iterable[Any], through_round: int | None) -> TournamentState:
    """The tournament as it stood when round ``through_round`` ended: every event before the pairing
    of round ``through_round + 1`` (as ``projections.replay`` cuts the log), or the whole log.
    The events were judged when they entered the log: an export replays them (``evolve``) and never
    judges them again, so a rule tightened later cannot make an old log unexportable."""
    state = TournamentState()
    for event in events:
        if through_round is not None and event.type == "RoundPaired" and event.round > through_round:
            break
        state.evolve(event)
    return state


class TrfLimitError(ValueError):
    """A tournament TRF cannot hold: a number over the cap of its columns (``cap`` names it)."""

    def __init__(self, message: str, cap: str):
        super().__init__(f"{message} [rule: {cap}]")
        self.cap = cap


@dataclass(frozen=True)
class TrfFile:
    """An exported TRF: ``text`` (only characters ``encoding`` holds; lines end with ``line_end``),
    the ``encoding`` to write it in, and ``respelled`` {character: its spelling} for the characters
    of names and header texts that ``encoding`` cannot hold (their exact text travels in the
    ``### olympiad-events`` comments, JSON with ASCII escapes)."""

    text: str
    encoding: str
    respelled: dict[str, str] = field(default_factory=dict)

    def data(self) -> bytes:
        """The file's bytes."""
        return self.text.encode(self.encoding)


def export_trf(events: Iterable[Any], through_round: int | None = None, *, header: TrfHeader | None = None,
               type_code: str | None = None, line_end: str = "\r", encoding: str = "latin-1") -> str:
    """TRF-2026 text of the tournament in ``events`` after round ``through_round`` (default: the last
    paired round; a tournament with no round paired gives its start list), with the team records
    listed in the module docstring: ``render_trf(...).text``.

    ``events``: an event log in order (``TournamentCreated`` first). ``type_code`` overrides record 192
    (default ``tournament_type_code``). ``encoding`` (``latin-1``, gacrux's default reading;
    ``cp1252``; ``utf-8``): characters it cannot hold are respelled (``projections.trf.encoding``).
    Raises ``processors.tournament.RuleViolation`` for a log that breaks a rule, ``ValueError`` if
    ``through_round`` was never paired, ``TrfLimitError`` for more than 999 teams or 9999 players.
    """
    return render_trf(events, through_round, header=header, type_code=type_code, line_end=line_end, encoding=encoding).text


def render_trf(events: Iterable[Any], through_round: int | None = None, *, header: TrfHeader | None = None,
               type_code: str | None = None, line_end: str = "\r", encoding: str = "latin-1") -> TrfFile:
    """The ``TrfFile`` of ``export_trf`` (same arguments and errors): its text, encoding and the
    characters respelled for that encoding."""
    encoding = encoding_name(encoding)
    state = state_through(events, through_round)
    last = max(state.rounds, default=0)
    rnd = last if through_round is None else through_round
    if rnd > last:
        raise ValueError(f"round {rnd} has not been paired in this log (last paired round: {last})")
    writer = _Writer(state, build_history(state, rnd), header or TrfHeader(), type_code, line_end, encoding)
    return TrfFile(writer.write(), encoding, writer.respelled)


def strength(rating: Decimal) -> int:
    """The 310 strength factor (columns 48-53, an integer): the team's average rating (R-I1) rounded
    to the nearest whole number, 0.5 upward, as FIDE rounds rating averages (FIDE B.01 Title
    Regulations art. 1.4.8: "the fraction 0.5 is rounded upward"); 2300.5 -> 2301."""
    return int(rating.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _ascii_json(value: Any) -> str:
    """JSON with ASCII escapes (``\\u2019``): a comment line survives any of the file's encodings."""
    return json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))


class _Writer:
    """One export: numbers the players, collects each player's games, writes the records."""

    def __init__(self, state: TournamentState, history: History, header: TrfHeader, type_code: str | None, line_end: str,
                 encoding: str):
        self.state, self.history, self.header, self.line_end, self.encoding = state, history, header, line_end, encoding
        self.respelled: dict[str, str] = {}
        self.profile = state.profile
        self.type_code = type_code or tournament_type_code(self.profile)
        self.tpn = {t: info.pairing_number for t, info in history.teams.items()}
        self.order = sorted(history.teams, key=self.tpn.get)
        self.rank = {row.team_id: row.rank for row in compute_standings(history, self.profile)}
        self.members: dict[str, list[str]] = {t: [p.name for p in sorted(state.teams[t].players, key=lambda p: p.board_order)] for t in self.order}
        self.games: dict[tuple[str, str], dict[int, tuple[int, str, str]]] = {}
        self.lineups: list[tuple[int, str, str, list[tuple[str, str] | None]]] = []
        self._collect()
        self.srn: dict[tuple[str, str], int] = {}
        for team in self.order:
            for name in self.members[team]:
                self.srn[(team, name)] = len(self.srn) + 1
        # The team cap first: a team file over 999 teams is refused for its teams, whatever its players.
        over = [t for t in self.order if self.tpn[t] > 999]
        if over:
            raise TrfLimitError(f"{len(self.order)} teams: team {over[0]} has pairing number {self.tpn[over[0]]}, and record 310 "
                                "columns 5-7 hold team pairing numbers 1 to 999", "TRF-2026 310 team pairing number 1 to 999")
        if len(self.srn) > 9999:
            raise TrfLimitError(f"{len(self.srn)} players: record 001 columns 5-8 hold start numbers 1 to 9999",
                                "TRF-2026 001 starting rank 1 to 9999")

    def _text(self, value: str) -> str:
        """``value`` as the file's encoding holds it (what was respelled is kept for the warning)."""
        out, changed = transliterate(value, self.encoding)
        self.respelled.update(changed)
        return out

    # ------------------------------------------------------------ games and line-ups
    def _names(self, event_id: str) -> tuple[str, str]:
        """White's and Black's names of the result event ``event_id`` (a correction: of the result it replaces)."""
        event = self.state.applied.get(event_id)
        while event is not None and event.type == "BoardResultCorrected":
            event = self.state.applied.get(event.supersedes)
        if event is None or event.type != "BoardResultRecorded":
            return "", ""
        return event.white, event.black

    def _player(self, team: str, name: str, board: int) -> str | None:
        """The member of ``team`` on ``board``: the named one (added to the team if not nominated),
        None for "no player", the default order's player when the result names nobody."""
        if name == NO_PLAYER:
            return None
        if not name:
            roster = self.members[team]
            return roster[board - 1] if board <= len(roster) else None
        if name not in self.members[team]:
            self.members[team].append(name)
        return name

    def _collect(self) -> None:
        boards = self.profile.boards
        for r in range(1, self.history.through_round + 1):
            for t in self.state.rounds[r].tables:
                sides: dict[str, list[tuple[str, str] | None]] = {t.home: [None] * boards, t.away: [None] * boards}
                for b in range(1, boards + 1):
                    held = self.state.results.get((r, t.table, b))
                    if held is None:
                        continue
                    event_id, code = held
                    white_team, black_team = (t.home, t.away) if b % 2 else (t.away, t.home)
                    white_name, black_name = self._names(event_id)
                    white = self._player(white_team, white_name, b)
                    black = self._player(black_team, black_name, b)
                    letters = rec.LETTERS[code]
                    for team, me, other, colour, letter in ((white_team, white, black, "w", letters[0]), (black_team, black, white, "b", letters[1])):
                        if me is not None:
                            sides[team][b - 1] = (team, me)
                            self.games.setdefault((team, me), {})[r] = (other, colour if other is not None else "-", letter)
                self.lineups.append((r, t.home, t.away, sides[t.home]))
                self.lineups.append((r, t.away, t.home, sides[t.away]))

    # ------------------------------------------------------------ records
    def write(self) -> str:
        lines = self._tournament() + self._comments() + self._players() + self._teams() + self._lineups() + self._byes()
        return self.line_end.join(lines) + self.line_end

    def _tournament(self) -> list[str]:
        h, p, s = self.header, self.profile, self.state
        c = s.created
        # The tournament's own facts (TournamentCreated), unless the options give others.
        city, chief = h.city or c.venue, h.chief_arbiter or c.chief_arbiter
        starts, ends = h.start_date or (c.starts.isoformat() if c.starts else ""), h.end_date or (c.ends.isoformat() if c.ends else "")
        out = [f"012 {self._text(c.name)}"]
        for tag, value in (("022", self._text(city)), ("032", h.federation), ("042", _date(starts)), ("052", _date(ends)),
                           ("102", self._text(chief))):
            if value:
                out.append(f"{tag} {value}")
        out += [f"112 {self._text(d)}" for d in h.deputies]
        players = [pl for team in s.teams.values() for pl in team.players]
        out += [f"062 {sum(len(m) for m in self.members.values())}", f"072 {sum(1 for pl in players if pl.rating)}",
                f"082 {len(s.teams)}", f"092 Team Swiss, rule profile {p.name}"]
        if h.time_control:
            out.append(f"122 {self._text(h.time_control)}")
        if h.round_dates:
            line = rec.Line("132")
            for r, d in enumerate(h.round_dates, start=1):
                first = 92 + 10 * (r - 1)
                line.put((first, first + 7), _date(d)[2:], left=True)
            out.append(line.text())
        mp = p.match_points
        pab_game = p.bye_award.gp / p.boards
        out += [f"142 {p.rounds}", f"152 {p.first_colour[0].upper()}",
                "162  " + "    ".join(f"{sym}{rec.points_text(v, 4)}" for sym, v in
                                     (("W", 1), ("D", Decimal("0.5")), ("L", 0), ("P", pab_game))),
                f"192 {self.type_code}"]
        codes = [c07_code(name) for name in p.tiebreaks]
        primary = "GPTS" if p.primary_score == "gp" else "MPTS"  # 212 leads with the primary score (C.04.6 art. 1.2)
        out += [f"202 {','.join(codes)}", f"212 {','.join([primary, *codes])}",
                "352 " + "".join("W" if b % 2 else "B" for b in range(1, p.boards + 1)),
                "362 " + "   ".join(f"{sym}{rec.points_text(v, 4)}" for sym, v in (("TW", mp.win), ("TD", mp.draw), ("TL", mp.loss)))]
        return out + self._acceleration()

    def _acceleration(self) -> list[str]:
        """250 per range of virtual points (``projections.pairing.acceleration.virtual_points``): MP in
        columns 5-8 and, written out (trf-teams.md §1.4 trap 4), 0.0 GP in 10-13, since the virtual
        points enter the pairing score (MP) only; rounds in 15-17 / 19-21, team TPNs in 23-26 / 28-31.
        A reader re-pairing the file (gacrux) then accelerates the teams the engine accelerated."""
        present = teams_to_pair(self.history, 1) if self.history.through_round == 0 else ()
        return [rec.Line("250").put((5, 8), rec.points_text(v.mp, 4)).put((10, 13), rec.points_text(0, 4))
                .put((15, 17), f"{v.first_round:03d}").put((19, 21), f"{v.last_round:03d}")
                .put((23, 26), f"{v.first_tpn:04d}").put((28, 31), f"{v.last_tpn:04d}").text()
                for v in virtual_points(self.history, self.profile, present)]

    def _comments(self) -> list[str]:
        c = self.state.created
        out = [f"{COMMENT} tournament {self.state.tournament_id}", f"{COMMENT} profile {_ascii_json(self.profile.model_dump(mode='json'))}"]
        exact = {k: v for k, v in (("name", c.name), ("venue", c.venue), ("chief_arbiter", c.chief_arbiter)) if v and transliterate(v, self.encoding)[1]}
        if exact:  # the texts the 012/022/102 records respell
            out.append(f"{COMMENT} created {_ascii_json(exact)}")
        for team in self.order:
            reg = self.state.teams[team]
            extra: dict[str, Any] = {}
            if len(reg.name) > rec.TEAM_NAME[1] - rec.TEAM_NAME[0] + 1 or transliterate(reg.name, self.encoding)[1]:
                extra["name"] = reg.name  # the 310/013 name is cut to its 32 columns or respelled
            entered = self.history.teams[team].entered
            if entered > 1:
                extra["from_round"] = entered  # a late entry: TRF has no field for the round it starts in
            if extra or len(team) > 5 or " " in team or reg.federation != self._federation(team):
                out.append(f"{COMMENT} team {self.tpn[team]} {_ascii_json({'team_id': team, 'federation': reg.federation, **extra})}")
        width = rec.PLAYER_NAME[1] - rec.PLAYER_NAME[0] + 1
        for (team, name), srn in self.srn.items():
            if len(name) > width or transliterate(name, self.encoding)[1]:
                out.append(f"{COMMENT} player {srn} {_ascii_json({'name': name})}")
        # The audit trail (issue 16): every arbiter action with who, when and the reason, for the
        # rating officer; a reader that does not know these lines skips them.
        for a in trail(self.state):
            out.append(self._text(f"{COMMENT} audit {a.when or '-'} | {a.who} | round {a.round or '-'} | {a.what} | {a.reason or '-'}"))
        # The anchors (issue 27): the chief arbiter's public key and every signed checkpoint, a
        # copy an auditor checks the log against (olympiad audit SOURCE --against FILE.trf).
        out.extend(trf_lines(self.state))
        return out

    def _federation(self, team: str) -> str:
        """The federation written in the team's 001 records (3 columns)."""
        return self.state.teams[team].federation[:3]

    def _players(self) -> list[str]:
        out = []
        for team in self.order:
            nominated = {p.name: p for p in self.state.teams[team].players}
            for name in self.members[team]:
                p = nominated.get(name)
                games = self.games.get((team, name), {})
                points = sum((rec.STANDARD_POINTS[g[2]] for g in games.values()), Decimal(0))
                line = rec.Line("001").put(rec.PLAYER_SRN, self.srn[(team, name)]).put(rec.PLAYER_NAME, self._text(name)[:33], left=True)
                if p is not None and p.title:
                    line.put(rec.PLAYER_TITLE, rec.TITLES.get(p.title, p.title[:3]))
                if p is not None and p.rating:
                    line.put(rec.PLAYER_RATING, p.rating)
                line.put(rec.PLAYER_FEDERATION, self._federation(team), left=True)
                if p is not None and p.fide_id and p.fide_id.isdigit() and len(p.fide_id) <= 11:
                    line.put(rec.PLAYER_FIDE_ID, p.fide_id)
                line.put(rec.PLAYER_POINTS, rec.points_text(points, 4)).put(rec.PLAYER_RANK, self.rank.get(team, ""))
                for r in range(1, self.history.through_round + 1):
                    opp, colour, letter = games.get(r, (None, " ", " "))
                    first, c_col, r_col = rec.round_columns(r)
                    if colour != " ":
                        line.put((first, first + 3), f"{self._srn_of(opp, team, r):04d}").put((c_col, c_col), colour).put((r_col, r_col), letter)
                out.append(line.text())
        return out

    def _srn_of(self, opponent: str | None, team: str, r: int) -> int:
        """Start number of the opponent ``opponent`` (a member of the team ``team`` met in round ``r``)."""
        if opponent is None:
            return 0
        other = self.history.rounds[r][team].opponent
        return self.srn[(other, opponent)]

    def _teams(self) -> list[str]:
        out = []
        for team in self.order:
            reg, rounds = self.state.teams[team], self.history.team_rounds(team)
            ids = [self.srn[(team, n)] for n in self.members[team]][: rec.TEAM_MAX_MEMBERS]
            line = rec.Line("310").put(rec.TEAM_TPN, self.tpn[team]).put(rec.TEAM_NAME, self._text(reg.name)[:32], left=True)
            if len(team) <= 5 and " " not in team:
                line.put(rec.TEAM_NICKNAME, team, left=True)
            line.put(rec.TEAM_STRENGTH, strength(self.history.teams[team].rating))
            line.put(rec.TEAM_MP, rec.points_text(sum(tr.mp for tr in rounds), 6))
            line.put(rec.TEAM_GP, rec.points_text(sum((tr.gp for tr in rounds), Decimal(0)), 6))
            line.put(rec.TEAM_RANK, self.rank.get(team, ""))
            for k, srn in enumerate(ids):
                first = rec.TEAM_FIRST_MEMBER + 5 * k
                line.put((first, first + 3), srn)
            out.append(line.text())
        for team in self.order:
            line = rec.Line("013").put(rec.TEAM013_NAME, self._text(self.state.teams[team].name)[:32], left=True)
            for k, name in enumerate(self.members[team][: rec.TEAM_MAX_MEMBERS]):
                first = rec.TEAM013_FIRST_MEMBER + 5 * k
                line.put((first, first + 3), self.srn[(team, name)])
            out.append(line.text())
        return out

    def _lineups(self) -> list[str]:
        """300 for each line-up out of the 310 order or with an empty board; 330 per match forfeited on every board."""
        out = []
        for r, team, opponent, sides in self.lineups:
            if not any(sides):
                continue
            positions = [self.members[team].index(s[1]) if s else -1 for s in sides]
            if -1 in positions or positions != sorted(positions):
                line = rec.Line("300").put((5, 7), r).put((9, 11), self.tpn[team]).put((13, 15), self.tpn[opponent])
                for k, s in enumerate(sides):
                    first = 17 + 5 * k
                    line.put((first, first + 3), f"{self.srn[s] if s else 0:04d}")
                out.append(line.text())
        for r in range(1, self.history.through_round + 1):
            for t in self.state.rounds[r].tables:
                m = self.state.match(r, t.table)
                if m.complete and not m.played:
                    kind = "+-" if m.home_gp > m.away_gp else "-+" if m.home_gp < m.away_gp else "--"
                    out.append(rec.Line("330").put((5, 6), kind).put((8, 10), r).put((12, 14), self.tpn[t.home]).put((16, 18), self.tpn[t.away]).text())
        return out

    def _byes(self) -> list[str]:
        out = []
        through = self.history.through_round
        byes = [self.state.rounds[r].bye for r in range(1, through + 1)]
        if any(byes):
            award = self.profile.bye_award
            line = rec.Line("320").put((5, 8), rec.points_text(award.mp, 4)).put((10, 13), rec.points_text(award.gp, 4))
            for r, team in enumerate(byes, start=1):
                first = 15 + 4 * (r - 1)
                line.put((first, first + 2), f"{self.tpn[team] if team else 0:03d}")
            out.append(line.text())
        for r in range(1, through + 1):
            # A late entry's rounds before it entered ("not-entered") are not absences: it was not in the
            # tournament yet (its first round is in the team's comment, from_round).
            absent = [self.tpn[t] for t in self.order if self.history.rounds[r][t].kind == "absent"]
            if absent:
                line = rec.Line("240").put((5, 5), "Z").put((7, 9), f"{r:03d}")
                for k, tpn in enumerate(absent):
                    first = 11 + 5 * k
                    line.put((first, first + 3), f"{tpn:04d}")
                out.append(line.text())
        return out


def _date(text: str) -> str:
    """A date as TRF writes it, ``YYYY/MM/DD`` (``-`` separators accepted)."""
    return text.replace("-", "/")
