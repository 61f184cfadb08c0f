"""Small hand-built tournaments for tests: events built through the real schemas."""
from __future__ import annotations

from schemas import event_ids
from schemas.events import BoardResultRecorded, Player, RoundPaired, Table, TeamRegistered, TournamentCreated
from schemas.profile import OLYMPIAD_2022, RuleProfile, named

TID = "test-open"


def created(profile: RuleProfile = OLYMPIAD_2022) -> TournamentCreated:
    return TournamentCreated(event_id=event_ids.created(TID), tournament_id=TID, name="Test Open", profile=named(profile))


def team(code: str, number: int, rating: int = 2000) -> TeamRegistered:
    players = tuple(Player(board_order=i, name=f"{code} player {i}", rating=rating - 10 * i) for i in range(1, 6))
    return TeamRegistered(event_id=event_ids.team(TID, code), tournament_id=TID, team_id=code, name=f"Team {code}",
                          federation=code[:3], players=players, pairing_number=number)


def paired(rnd: int, pairs: list[tuple[str, str]], bye: str | None = None, absent: tuple[str, ...] = ()) -> RoundPaired:
    tables = tuple(Table(table=i, home=h, away=a) for i, (h, a) in enumerate(pairs, start=1))
    return RoundPaired(event_id=event_ids.pairing(TID, rnd), tournament_id=TID, round=rnd, tables=tables, bye=bye, absent=absent)


def board(rnd: int, table: int, number: int, result: str, event_id: str | None = None) -> BoardResultRecorded:
    return BoardResultRecorded(event_id=event_id or event_ids.board(TID, rnd, table, number), tournament_id=TID, round=rnd,
                               table=table, board=number, result=result)


def match(rnd: int, table: int, results: tuple[str, str, str, str]) -> list[BoardResultRecorded]:
    """Four board results of one table, White-Black codes for boards 1..4."""
    return [board(rnd, table, b, code) for b, code in enumerate(results, start=1)]


def four_team_round_one() -> list:
    """Teams A..D; round 1: A-C 3-1 (A home), D-B 2-2."""
    return [
        created(),
        *(team(c, n) for n, c in enumerate("ABCD", start=1)),
        paired(1, [("A", "C"), ("D", "B")]),
        *match(1, 1, ("1-0", "0-1", "1-0", "1-0")),  # home A is Black on boards 2 and 4: A 3, C 1
        *match(1, 2, ("1/2-1/2", "1/2-1/2", "1-0", "1-0")),
    ]


def imported(store, events, actor=None):
    """Import ``events`` into ``store`` (a ``projections.store.EventStore``) the one way facts enter
    a log: an ``ImportFacts`` command by ``actor`` (default the importer), decided on the store
    (``producers.doors.EmbeddedDoor.decide``). Returns the ``Decision``; raises ``RuleViolation``."""
    from producers.doors import EmbeddedDoor
    from producers.sources import IMPORTER, Source, import_command

    return EmbeddedDoor(store).decide(import_command(Source("fixture", list(events), False), actor or IMPORTER))


def stored(events, url: str = "sqlite://"):
    """A fresh ``EventStore`` at ``url`` holding ``events`` (``imported``)."""
    from projections.store import EventStore

    store = EventStore(url)
    imported(store, events)
    return store


def written_earlier(url: str, events):
    """The ``EventStore`` at ``url`` holding ``events`` as a release with other rules decided and
    wrote them: the rows written as they stand (no door: today's rules may refuse some of them),
    then the store opened again (opening evolves, it judges nothing)."""
    from projections.store import EventStore

    EventStore(url)._append_decided(list(events))  # noqa: SLF001 - an older release's rows, not a write of today's
    return EventStore(url)


def judged(state, event) -> bool:
    """``event`` imported into ``state`` as a one-fact ``ImportFacts`` (``processors.deciders.handle``:
    the event rules judge it): True if recorded, False if already recorded (the same fact again).
    Raises ``RuleViolation``; ``state`` is then unchanged."""
    from processors.deciders import handle
    from producers.sources import IMPORTER
    from schemas.commands import ImportFacts

    decision = handle(state, ImportFacts(tournament_id=event.tournament_id, actor=IMPORTER, source="test", facts=[event]))
    return not decision.already_recorded
