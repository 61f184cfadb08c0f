"""What if: hypothetical results of the open round over a tournament's state, standings and next pairing.

A scratch branch of the log. The state is forked (``TournamentState.fork``: the real one is not
touched), each hypothetical board result evolves the fork as a ``BoardResultRecorded`` that never
leaves it (its id under ``<tournament>/whatif/``, its note "hypothetical"), and the branch is
folded by the same pure functions as the log: the standings the scoreboard would show
(``projections.scoreboard``: the round complete, provisional, or the last complete round's) with
every tie-break and "decided by", and, once every match of the round has a result on the branch,
the next round's pairing by the tournament's own profile (``projections.pairing.proposal.
propose_round``, as the arbiter's ``round pair`` makes it). Nothing is appended to a store or a
topic and no command is sent: every door (``olympiad whatif``, the HTTP API, the scoreboard
page) calls ``what_if`` on a snapshot of the state it reads.

A setting names one table of the open round (the last paired one) whose match is not complete:
a match score ("2.5-1.5", "2-2", "3½-½": home first, over the board, ``projections.match_scores``)
or every board's result ("1-0,1/2-1/2,0-1,1-0", White-Black). Boards already recorded stay as
they are: a score is completed around them, board results must agree with them.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Iterable, Mapping

from processors.tournament import RuleViolation, TournamentState
from projections.match_scores import home_score, score_codes
from projections.pairing.proposal import propose_round
from projections.pairing.proposed import Pairing
from projections.replay import RoundStandings, standings_after
from projections.scoreboard import Scoreboard, scoreboard
from schemas.events import RESULT_CODES, BoardResultRecorded
from schemas.points import to_points

HYPOTHETICAL = "hypothetical"
"""The note of every board result of a what-if branch (never stored: the branch is in memory)."""


@dataclass(frozen=True)
class Setting:
    """A hypothetical result of table ``table`` of round ``round``: ``codes`` ``{board: code}``
    (White-Black) for every board, recorded boards included as they are."""

    round: int
    table: int
    codes: Mapping[int, str]

    @property
    def score(self) -> tuple[Decimal, Decimal]:
        """``(home GP, away GP)`` of the setting (R-D2)."""
        return home_score(self.codes)


def parse_setting(text: str) -> tuple[int, int, str]:
    """``"R/TABLE=RESULT"`` -> ``(round, table, result text)``; the result is read by ``setting``.
    Raises ``RuleViolation`` (field ``set``) for another shape."""
    where, sep, result = text.partition("=")
    rnd, slash, table = where.partition("/")
    if not (sep and slash and rnd.strip().isdigit() and table.strip().isdigit() and result.strip()):
        raise RuleViolation(f"{text!r}: write ROUND/TABLE=SCORE (11/5=2.5-1.5) or ROUND/TABLE=the board results "
                            "(11/5=1-0,1/2-1/2,0-1,1-0)", field="set", rule="a what-if setting")
    return int(rnd), int(table), result.strip()


def setting(state: TournamentState, rnd: int, table: int, result: str) -> Setting:
    """The ``Setting`` of ``result`` (a match score, home first, or the board results, comma-
    separated) at table ``table`` of round ``rnd`` of ``state``.

    Raises ``RuleViolation``: field ``round`` for a round that is not the open one (the last
    paired round), ``table`` for a table it does not have or whose match is complete (a what-if
    sets pending matches), ``result`` for a score that does not add up to the boards or cannot be
    reached over the boards already recorded, a code that is not a result code, or a board result
    that contradicts a recorded one.
    """
    open_round = state.last_round
    if rnd != open_round:
        raise RuleViolation(f"round {rnd} is not the round in play (round {open_round or 'none'})", field="round",
                            rule="a what-if sets the round in play")
    if (rnd, table) not in state.tables:
        raise RuleViolation(f"round {rnd} has no table {table} (tables 1..{len(state.rounds[rnd].tables)})", field="table",
                            rule="a what-if sets the round in play")
    if state.match(rnd, table).complete:
        raise RuleViolation(f"table {table} of round {rnd} is decided: every board has its result", field="table",
                            rule="a what-if sets pending matches")
    boards = state.profile.boards
    recorded = state.board_codes(rnd, table)
    if "," in result:
        codes = [c.strip() for c in result.split(",")]
        if len(codes) != boards or any(c not in RESULT_CODES for c in codes):
            raise RuleViolation(f"{result!r}: {boards} board results, each one of {', '.join(RESULT_CODES)}", field="result",
                                rule="result codes")
        given = dict(enumerate(codes, start=1))
        for board, code in recorded.items():
            if given[board] != code:
                raise RuleViolation(f"board {board} of table {table} is recorded as {code}, not {given[board]}",
                                    field="result", rule="a what-if keeps the recorded results")
        return Setting(rnd, table, given)
    home_text, dash, away_text = result.replace("–", "-").partition("-")
    try:
        home, away = to_points(home_text), to_points(away_text)
    except ValueError:
        home = away = None
    if not dash or home is None or home < 0 or away < 0 or home + away != boards:
        raise RuleViolation(f"{result!r}: a match score is home-away game points adding up to {boards} (2.5-1.5, 2-2)",
                            field="result", rule="a match score sums to the boards")
    try:
        return Setting(rnd, table, score_codes(home, boards, recorded))
    except ValueError as exc:
        raise RuleViolation(f"table {table}: {exc}", field="result", rule="a what-if keeps the recorded results") from None


def settings_of(state: TournamentState, texts: Iterable[str]) -> tuple[Setting, ...]:
    """The ``Setting`` of each ``"R/TABLE=RESULT"`` text (``parse_setting``, ``setting``); a later
    text for the same table replaces an earlier one. Raises ``RuleViolation`` as they do."""
    out: dict[tuple[int, int], Setting] = {}
    for text in texts:
        rnd, table, result = parse_setting(text)
        out[(rnd, table)] = setting(state, rnd, table, result)
    return tuple(out.values())


@lru_cache(maxsize=65_536)
def hypothetical_result(tournament_id: str, rnd: int, table: int, board: int, code: str) -> BoardResultRecorded:
    """The ``BoardResultRecorded`` of a what-if branch for one board (built once per board and
    code: the chances' simulations play the same boards again and again)."""
    return BoardResultRecorded(event_id=f"{tournament_id}/whatif/r{rnd}/t{table}/b{board}/{code}",
                               tournament_id=tournament_id, round=rnd, table=table, board=board, result=code,
                               note=HYPOTHETICAL)


def lay(branch: TournamentState, rnd: int, table: int, codes: Mapping[int, str]) -> None:
    """Evolve ``branch`` (a fork, never a store's state) with the board results ``codes`` of one
    table that it does not hold yet."""
    tid = branch.tournament_id or ""
    for board, code in codes.items():
        if (rnd, table, board) not in branch.results:
            branch.evolve(hypothetical_result(tid, rnd, table, board, code))


def branch_of(state: TournamentState, settings: Iterable[Setting]) -> TournamentState:
    """A fork of ``state`` with ``settings`` laid over it; ``state`` does not change."""
    branch = state.fork()
    for s in settings:
        lay(branch, s.round, s.table, s.codes)
    return branch


@dataclass(frozen=True)
class WhatIf:
    """A what-if's answer: ``state``, the branch (the real state with the ``settings`` laid over
    it); ``board``, the standings the scoreboard would show on it (``projections.scoreboard``);
    ``next_round`` and ``pairing``, the engine's pairing of the next round once every match of the
    round in play has a result on the branch (None before, or after the last round);
    ``pairing_refused``, why that round cannot be paired (no legal pairing), else empty.
    Hypothetical, always: nothing of it is recorded."""

    state: TournamentState
    round: int
    settings: tuple[Setting, ...]
    board: Scoreboard
    next_round: int | None
    pairing: Pairing | None
    pairing_refused: str = ""


def what_if(state: TournamentState, settings: Iterable[Setting] = (),
            official: Mapping[int, RoundStandings] | None = None) -> WhatIf:
    """The standings and the next pairing of ``state`` with ``settings`` (``setting``) laid over
    it on a branch; ``state`` is not changed and nothing is written.

    ``official[r]``: the standings after round r as they stood when round r + 1 was paired (a
    deployment's ``Snapshot.standings``, ``projections.replay.replay``'s rounds), shown for the
    last complete round while no match of the round in play has a result; the round in play's
    are always the branch's own. Without them those standings are computed on ``state``.
    The settings were checked when they were made (``setting``); a next round that cannot be
    paired is no error but the answer's ``pairing_refused``.
    """
    settings = tuple(settings)
    branch = branch_of(state, settings)
    rnd = branch.last_round
    before = {r: s for r, s in (official or {}).items() if r < rnd}
    if rnd > 1 and rnd - 1 not in before:
        before[rnd - 1] = standings_after(state, rnd - 1)
    board = scoreboard(branch, before)
    pairing, refused, nxt = None, "", None
    if rnd and branch.round_complete(rnd) and rnd < branch.profile.rounds:
        nxt = rnd + 1
        try:
            pairing = propose_round(branch, nxt)
        except RuleViolation as exc:
            refused = str(exc)
    return WhatIf(branch, rnd, settings, board, nxt, pairing, refused)
