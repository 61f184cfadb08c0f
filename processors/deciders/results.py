"""Results: a board's result, a forfeited board or match, the chief arbiter's correction.

Zero tolerance (R-D6, FIDE Olympiad regulations): a player who is late at the start, or who
refuses the handshake, loses the game by default; a team that does not arrive loses the match
by default. A forfeit names its reason. A correction replaces a board's current result; logged
after the next round is published it is a late correction: the standings already published
stay as they were (``projections.replay``: standings after round r are those of the log before
round r + 1 was published).
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import processors.deciders.identity as identity
from processors.rules import board_key, note_rule, winner_at_table
from processors.tournament import RuleViolation, TournamentState
from schemas import event_ids
from schemas.commands import NOT_ENTERED, BoardEntry
from schemas.events import FORFEIT_CODES, BoardResultCorrected, BoardResultRecorded, MatchForfeited

def player_names(state: TournamentState, rnd: int, table: int, board: int) -> tuple[str, str]:
    """(White's name, Black's name) on ``board`` of ``table``: the players of both line-ups
    (the home team has White on odd boards, R-D4)."""
    t = state.tables.get((rnd, table))
    if t is None:
        return "", ""
    names = []
    for team in (t.home, t.away):
        players = {p.board_order: p.name for p in state.teams[team].players}
        line = state.lineup(rnd, team)
        names.append(players.get(line[board - 1], "") if board <= len(line) else "")
    home, away = names
    return (home, away) if board % 2 == 1 else (away, home)


def board_result(state: TournamentState, c: Any, board: int, code: str, forfeit: str | None = None,
                 note: str = "", field: str = "") -> BoardResultRecorded:
    """The ``BoardResultRecorded`` of one board of ``c``'s table: the players' names from the
    line-ups; a forfeit code needs its reason (and a note as ``note_rule`` says)."""
    board_key(state, SimpleNamespace(round=c.round, table=c.table, board=board))
    if code in FORFEIT_CODES:
        if forfeit is None:
            raise RuleViolation(f"board {board}: a forfeit ({code}) needs its reason: late-arrival, handshake-refusal, "
                                "absence or other", field=f"{field}forfeit", rule="a forfeit says why")
        note_rule(forfeit, note, f"{field}note")
    white, black = player_names(state, c.round, c.table, board)
    return BoardResultRecorded(event_id=event_ids.board(c.tournament_id, c.round, c.table, board), **identity.stamp(c),
                               round=c.round, table=c.table, board=board, white=white, black=black, result=code,
                               forfeit=forfeit if code in FORFEIT_CODES else None, note=note)


def record(state: TournamentState, c: Any) -> list[Any]:
    """``RecordResult`` -> ``BoardResultRecorded`` with the players' names from the line-ups."""
    return [board_result(state, c, c.board, c.result)]


def by_position(state: TournamentState, c: Any) -> list[Any]:
    """The boards of a ``RecordResults``: its named ``boards``, or its ``codes`` by position.

    Given by position, a table's results hold exactly one code per board of the match (the
    profile's ``boards``, R-D1), board 1 first, ``-`` (``schemas.commands.NOT_ENTERED``) for a
    board not entered: a missing or extra code would put results on the wrong boards. Raises
    ``RuleViolation`` (field ``codes`` or ``boards``) for both forms or neither, another count of
    codes, or no board entered.
    """
    if c.codes is None:
        if not c.boards:
            raise RuleViolation("no board given: name the boards, or give one code per board by position", field="boards",
                                rule="a table's results name one board at least")
        return list(c.boards)
    n = state.profile.boards
    rule = f"results by position: one code per board, board 1 first, '{NOT_ENTERED}' for a board not entered"
    if c.boards:
        raise RuleViolation("boards are named or given by position (codes), not both", field="codes", rule=rule)
    if len(c.codes) != n:
        raise RuleViolation(f"{len(c.codes)} code{'s' * (len(c.codes) != 1)} given for a {n}-board match; give {n}",
                            field="codes", rule=rule)
    entries = [BoardEntry(board=b, result=code) for b, code in enumerate(c.codes, start=1) if code != NOT_ENTERED]
    if not entries:
        raise RuleViolation(f"every code is '{NOT_ENTERED}': no board entered", field="codes",
                            rule="a table's results name one board at least")
    return entries


def record_table(state: TournamentState, c: Any) -> list[Any]:
    """``RecordResults`` -> one ``BoardResultRecorded`` per board of the table (named, or by
    position: ``by_position``), all or none."""
    entries = by_position(state, c)
    boards = [e.board for e in entries]
    if len(set(boards)) != len(boards):
        raise RuleViolation(f"boards {boards}: a board is given twice", field="boards", rule="one result per board")
    # a code is named by its board, as the arbiter counts it (schemas.refusals.COUNTED)
    where = (lambda i, e: f"boards.{i}.") if c.codes is None else (lambda i, e: f"codes[board {e.board}].")
    return [board_result(state, c, e.board, e.result, e.forfeit, e.note, where(i, e)) for i, e in enumerate(entries)]


def forfeit(state: TournamentState, c: Any) -> list[Any]:
    """``RecordForfeit`` -> a ``BoardResultRecorded`` forfeit code (board given) or a
    ``MatchForfeited`` (whole match), with the reason; the teams in ``forfeiting`` lose, or the
    team at the table that is not ``winner`` (refused, field ``winner``, unless it plays there)."""
    board_key(state, SimpleNamespace(round=c.round, table=c.table, **({"board": c.board} if c.board else {})))
    t = state.tables[(c.round, c.table)]
    if (c.winner is None) == (not c.forfeiting):
        raise RuleViolation("a forfeit names either the teams that forfeit or the winner, one of the two",
                            field="forfeiting" if c.forfeiting else "winner",
                            rule="a forfeit names who loses it")
    if c.winner is not None:
        winner_at_table(t, c.winner)
        c = c.model_copy(update={"forfeiting": (t.away if c.winner == t.home else t.home,)})
    for i, team in enumerate(c.forfeiting):
        if team not in (t.home, t.away):
            raise RuleViolation(f"{team!r} does not play at table {c.table} ({t.home} v {t.away})",
                                field=f"forfeiting.{i}", rule="a forfeit is of a team at the table")
    both = set(c.forfeiting) == {t.home, t.away}
    note_rule(c.reason, c.note, "note")
    if c.board is None:
        winner = None if both else (t.away if c.forfeiting[0] == t.home else t.home)
        return [MatchForfeited(event_id=event_ids.match_forfeit(c.tournament_id, c.round, c.table), **identity.stamp(c),
                               round=c.round, table=c.table, winner=winner, forfeit=c.reason, note=c.note)]
    if both:
        code = "-/-"
    else:
        home_white = c.board % 2 == 1
        white_forfeits = (c.forfeiting[0] == t.home) == home_white
        code = "-/+" if white_forfeits else "+/-"
    return [board_result(state, c, c.board, code, c.reason, c.note)]


def correct(state: TournamentState, c: Any) -> list[Any]:
    """``CorrectResult`` -> ``BoardResultCorrected`` superseding the board's current result. The
    same correction again (board, result and reason), whenever it comes, is already recorded."""
    key = board_key(state, c)
    current = state.results.get(key)
    if current is None:
        raise RuleViolation(f"round {c.round} table {c.table} board {c.board} has no result to correct", field="board",
                            rule="a correction replaces a result")
    current_id, code = current
    prefix = event_ids.correction(c.tournament_id, c.round, c.table, c.board)
    for event_id, prior in state.applied.items():
        # A correction's identity is its board, result and reason: the same request again, even
        # after a later correction of the board, is a retry (already recorded), never a revert.
        if event_id.startswith(prefix) and (prior.result, prior.reason) == (c.result, c.reason):
            return [prior]
    if code == c.result:
        raise RuleViolation(f"round {c.round} table {c.table} board {c.board} already has {code}", field="result",
                            rule="a correction changes the result")
    n = identity.count(state, prefix) + 1
    return [BoardResultCorrected(event_id=f"{prefix}{n}", **identity.stamp(c), supersedes=current_id, round=c.round,
                                 table=c.table, board=c.board, result=c.result, reason=c.reason)]
