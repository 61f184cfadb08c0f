"""Event ids derived from a command's identity: equal for a retry, different for a new decision.

One scheme for every door (CLI, HTTP, Kafka), the importers and the simulator, which use the same
ids for the same facts: ``T/created``, ``T/team/<team>``, ``T/r<round>/t<table>/b<board>`` ... A
command that may be repeated with new content (a line-up resubmitted before the round is
published, a second proposal) numbers its events ``/1``, ``/2`` ... in the order they were
accepted: for those, ``roster``, ``starting_ranks``, ``lineup``, ``proposal``, ``amendment`` and
``correction`` give the series' prefix (``next_in_series`` the next event).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from schemas import game_ids


def created(t: str) -> str:
    """``TournamentCreated``."""
    return f"{t}/created"


def team(t: str, team_id: str) -> str:
    """``TeamRegistered``."""
    return f"{t}/team/{team_id}"


def roster(t: str, team_id: str) -> str:
    """Prefix of the ``RosterChanged`` series of a team."""
    return f"{t}/team/{team_id}/roster/"


def starting_ranks(t: str) -> str:
    """Prefix of the ``StartingRanksSet`` series."""
    return f"{t}/starting-ranks/"


def withdrawn(t: str, team_id: str) -> str:
    """``TeamWithdrawn``."""
    return f"{t}/team/{team_id}/withdrawn"


def lineup(t: str, rnd: int, team_id: str) -> str:
    """Prefix of the ``LineupSubmitted`` series of a team in a round."""
    return f"{t}/r{rnd}/lineup/{team_id}/"


def absence(t: str, rnd: int, team_id: str) -> str:
    """``AbsenceAnnounced``."""
    return f"{t}/r{rnd}/absent/{team_id}"


def proposal(t: str, rnd: int) -> str:
    """Prefix of the ``PairingProposed`` series of a round."""
    return f"{t}/r{rnd}/proposal/"


def amendment(t: str, rnd: int) -> str:
    """Prefix of the ``PairingAmended`` series of a round."""
    return f"{t}/r{rnd}/amendment/"


def pairing(t: str, rnd: int) -> str:
    """``RoundPaired`` (the published pairing)."""
    return f"{t}/r{rnd}/pairing"


def board(t: str, rnd: int, table: int, board_no: int) -> str:
    """A board's first result (``BoardResultRecorded``, a forfeited board too)."""
    return f"{t}/r{rnd}/t{table}/b{board_no}"


def match_forfeit(t: str, rnd: int, table: int) -> str:
    """``MatchForfeited``."""
    return f"{t}/r{rnd}/t{table}/forfeit"


def correction(t: str, rnd: int, table: int, board_no: int) -> str:
    """Prefix of the ``BoardResultCorrected`` series of a board."""
    return f"{t}/r{rnd}/t{table}/b{board_no}/correction/"


def closed(t: str, rnd: int) -> str:
    """``RoundClosed``."""
    return f"{t}/r{rnd}/closed"


def checkpoint(t: str, rnd: int) -> str:
    """``CheckpointSigned`` (the round's signed checkpoint)."""
    return f"{t}/r{rnd}/checkpoint"


def of_event(event) -> tuple[str, bool]:
    """The id an input event must carry, derived from what it says: ``(id, False)``, or
    ``(prefix, True)`` for an event of a numbered series (its id is ``prefix<n>``, n >= 1).
    ``event`` is any input event of ``schemas.events``; raises ``KeyError`` for a derived one."""
    t, kind = event.tournament_id, event.type
    e = event
    if kind in game_ids.KINDS:
        return game_ids.of_event(event)
    fixed = {
        "TournamentCreated": lambda: created(t),
        "TeamRegistered": lambda: team(t, e.team_id),
        "AbsenceAnnounced": lambda: absence(t, e.round, e.team_id),
        "RoundPaired": lambda: pairing(t, e.round),
        "BoardResultRecorded": lambda: board(t, e.round, e.table, e.board),
        "MatchForfeited": lambda: match_forfeit(t, e.round, e.table),
        "TeamWithdrawn": lambda: withdrawn(t, e.team_id),
        "RoundClosed": lambda: closed(t, e.round),
        "CheckpointSigned": lambda: checkpoint(t, e.round),
    }
    series = {
        "RosterChanged": lambda: roster(t, e.team_id),
        "StartingRanksSet": lambda: starting_ranks(t),
        "LineupSubmitted": lambda: lineup(t, e.round, e.team_id),
        "PairingProposed": lambda: proposal(t, e.round),
        "PairingAmended": lambda: amendment(t, e.round),
        "BoardResultCorrected": lambda: correction(t, e.round, e.table, e.board),
    }
    if kind in series:
        return series[kind](), True
    return fixed[kind](), False


def matches(event) -> bool:
    """True if ``event.event_id`` is the id ``of_event`` derives: for a series ``prefix<n>`` (n =
    1, 2, ...) or the series' name alone (``prefix`` less its ``/``: a lone imported fact, as the
    shipped Samarkand log's late correction ``.../b4/correction``)."""
    want, numbered = of_event(event)
    if not numbered:
        return event.event_id == want
    if event.type == "FeedProblemReported":  # a problem's key: 16 hex digits (schemas.game_ids)
        key = event.event_id[len(want):]
        return event.event_id.startswith(want) and len(key) == 16 and all(c in "0123456789abcdef" for c in key)
    if event.event_id == want.rstrip("/"):
        return True
    n = event.event_id[len(want):]
    return event.event_id.startswith(want) and n.isdigit() and n == str(int(n)) and int(n) >= 1


def series_count(applied: Iterable[str], prefix: str) -> int:
    """How many of the event ids ``applied`` are ``prefix<n>``: the series' next event is number count + 1."""
    return sum(1 for event_id in applied if event_id.startswith(prefix) and event_id[len(prefix):].isdigit())


def next_in_series(applied: Mapping[str, Any], prefix: str, build: Callable[[str], Any],
                   same: Callable[[Any, Any], bool]) -> Any:
    """The event ``build(prefix + n)`` of a series whose events so far are in ``applied`` (id ->
    event): n is the next number, unless the latest event says the same (``same(latest, built)``:
    a retry), whose number it keeps."""
    n = series_count(applied, prefix)
    if n:
        again = build(f"{prefix}{n}")
        if same(applied[f"{prefix}{n}"], again):
            return again
    return build(f"{prefix}{n + 1}")
