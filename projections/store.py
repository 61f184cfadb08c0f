"""The embedded event store and read models (SQLAlchemy; SQLite by default, PostgreSQL by URL).

``events`` is append-only: a global sequence number, a unique event id (a second copy of the
same event is a no-op), the canonical JSON body. Read models: ``teams``, ``matches`` and
``standings`` per round (one row per team, plus the canonical document and digest in
``standings_documents``). A write is a decided command (``producers.doors.EmbeddedDoor``): its
events are written in one transaction, and a refused command leaves nothing behind.
"""
from __future__ import annotations

import json
import os
from decimal import Decimal
from functools import lru_cache
from typing import Any, Iterable

from sqlalchemy import (
    Boolean,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    insert,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Engine

from processors.tournament import RuleViolation, TournamentState
from projections.replay import ReplayResult, RoundStandings, replay
from projections.seeding import tournament_pairing_numbers
from projections.standings.catalogue import value_text
from schemas.canonical import canonical_json, text_digest
from schemas.chain import chain_next, chain_start
from schemas.events import parse_event
from schemas.points import fmt_points

DEFAULT_URL = "sqlite://"

metadata = MetaData()

events_table = Table(
    "events",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(200), nullable=False, unique=True),
    Column("tournament_id", String(100), nullable=False, index=True),
    Column("type", String(40), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("body", Text, nullable=False),
    # schemas.chain: the hash of the tournament's log through this event (None in stores written
    # before the chain existed; an auditor recomputes it)
    Column("chain", String(64)),
)

teams_table = Table(
    "teams",
    metadata,
    Column("tournament_id", String(100), primary_key=True),
    Column("team_id", String(40), primary_key=True),
    Column("pairing_number", Integer, nullable=False),
    Column("name", String(200), nullable=False),
    Column("federation", String(10), nullable=False),
)

matches_table = Table(
    "matches",
    metadata,
    Column("tournament_id", String(100), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("table_no", Integer, primary_key=True),
    Column("home", String(40), nullable=False),
    Column("away", String(40), nullable=False),
    Column("home_gp", String(8), nullable=False),
    Column("away_gp", String(8), nullable=False),
    Column("home_mp", Integer),
    Column("away_mp", Integer),
    Column("boards_in", Integer, nullable=False),
    Column("status", String(20), nullable=False),
)

standings_table = Table(
    "standings",
    metadata,
    Column("tournament_id", String(100), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("team_id", String(40), primary_key=True),
    Column("rank", Integer, nullable=False),
    Column("mp", Integer, nullable=False),
    Column("gp", String(8), nullable=False),
    Column("tiebreaks", Text, nullable=False),
)

standings_documents = Table(
    "standings_documents",
    metadata,
    Column("tournament_id", String(100), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("complete", Boolean, nullable=False),
    Column("digest", String(64), nullable=False),
    Column("body", Text, nullable=False),
    UniqueConstraint("tournament_id", "round"),
)


proposed_pairings = Table(
    "proposed_pairings",
    metadata,
    Column("tournament_id", String(100), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("digest", String(64)),
    Column("body", Text),
    Column("error", Text),
)


def database_url(url: str | None = None) -> str:
    """The read-model database: ``url``, else ``$DATABASE_URL``, else in-memory SQLite, with the
    driver ``with_driver`` gives it."""
    return with_driver(url or os.environ.get("DATABASE_URL") or DEFAULT_URL)


def with_driver(url: str) -> str:
    """``url`` naming the installed PostgreSQL driver: the common forms ``postgresql://...`` and
    ``postgres://...`` (libpq's, Heroku's) become ``postgresql+psycopg2://...`` (SQLAlchemy 2.1
    would look for psycopg 3, which is not installed). Other URLs are returned unchanged."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg2://" + url.removeprefix(scheme)
    return url


# Read-model rows: the one layout the embedded store and the Kafka projection worker both write.
def team_rows(state: TournamentState) -> list[dict[str, Any]]:
    """``teams`` rows of every registered team, with its pairing number (R-I1)."""
    numbers = tournament_pairing_numbers(state)
    return [{"tournament_id": state.tournament_id, "team_id": t.team_id, "pairing_number": numbers[t.team_id],
             "name": t.name, "federation": t.federation} for t in state.teams.values()]


def match_row(state: TournamentState, rnd: int, table: int) -> dict[str, Any]:
    """The ``matches`` row of one table: GP as decimal strings, MP once complete."""
    t = state.tables[(rnd, table)]
    m = state.match(rnd, table)
    return {"tournament_id": state.tournament_id, "round": rnd, "table_no": table, "home": t.home, "away": t.away,
            "home_gp": fmt_points(m.home_gp), "away_gp": fmt_points(m.away_gp), "home_mp": m.home_mp,
            "away_mp": m.away_mp, "boards_in": m.boards_in, "status": "complete" if m.complete else "in_progress"}


def standings_rows(tid: str, st: RoundStandings) -> list[dict[str, Any]]:
    """``standings`` rows of one round: rank, MP, GP and every tie-break value (JSON, decimal strings).

    A line's GP and tie-break texts are built once (``TeamLine.json_parts``, ``TeamLine.tiebreaks_text``):
    the projection worker writes a round's rows after every batch, and most lines did not change."""
    rnd = st.round
    return [{"tournament_id": tid, "round": rnd, "team_id": row.team_id, "rank": row.rank, "mp": row.mp,
             "gp": row.line.json_parts["gp"],
             "tiebreaks": _tiebreaks_text(tuple(row.tiebreaks.items())) if row.group_values else row.line.tiebreaks_text}
            for row in st.rows]


@lru_cache(maxsize=65536)
def _tiebreaks_text(values: tuple[tuple[str, Decimal], ...]) -> str:
    """The ``tiebreaks`` column of ``(name, value)`` pairs. Cached: the projection worker writes
    the rows after every batch, and most teams' values did not change."""
    return json.dumps({k: value_text(v) for k, v in values}, sort_keys=True)


def standings_document_row(tid: str, st: RoundStandings) -> dict[str, Any]:
    """The ``standings_documents`` row of one round: the canonical document and its SHA-256."""
    return {"tournament_id": tid, "round": st.round, "complete": st.complete, "digest": st.digest, "body": st.canonical}


def _proposal_row(state: TournamentState) -> dict[str, Any] | None:
    """The ``proposed_pairings`` row for ``state``: the engine's ``PairingProposed`` (issue 3), or
    the constraint that cannot be met, so that a projection never stops on an unpairable round."""
    # Imported here: the pairing engine (networkx) costs a reader of the tables (an audit, a
    # scoreboard) a fifth of a second of start-up it never uses.
    from projections.pairing.read_model import next_round_proposal

    try:
        event = next_round_proposal(state)
    except RuleViolation as exc:
        return {"tournament_id": state.tournament_id, "round": max(state.rounds, default=0) + 1, "digest": None, "body": None, "error": str(exc)}
    if event is None:
        return None
    body = canonical_json(event)
    return {"tournament_id": state.tournament_id, "round": event.round, "digest": text_digest(body), "body": body, "error": None}


def add_chain_column(engine: Engine) -> None:
    """Give an ``events`` table written before the hash chain its ``chain`` column (empty)."""
    if "chain" not in {c["name"] for c in inspect(engine).get_columns("events")}:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE events ADD COLUMN chain VARCHAR(64)"))


class EventStore:
    """Append-only event store of one tournament plus its read models, in one SQL database.

    One way in (issue 25): a command, decided. The store's only writer is
    ``producers.doors.EmbeddedDoor`` (``decide(command)`` raising ``RuleViolation``, ``submit(command)``
    returning an ``Outcome``): it runs ``processors.deciders.handle`` on ``state`` and stores the
    events the decider yielded with ``_append_decided``, in one transaction. An importer's facts (a
    data set, a TRF file, a log written elsewhere) enter as an ``ImportFacts`` command, judged by
    the event rules once. No public method appends raw events (the deciders sit above this
    module in the layers, so the door, not the store, calls them).
    Opening a store evolves the state from the stored events without re-checking them (decided
    once, evolved always).
    """

    def __init__(self, url: str | None = None, engine: Engine | None = None):
        self.engine = engine or create_engine(database_url(url))
        metadata.create_all(self.engine)
        add_chain_column(self.engine)
        self._state = self._load_state()

    def _load_state(self) -> TournamentState:
        self._seq = 0
        self._head: str | None = None
        state = TournamentState()
        for event in self._events_after(state):
            state.evolve(event)
        return state

    def _events_after(self, state: TournamentState) -> list[Any]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(events_table.c.seq, events_table.c.body, events_table.c.chain)
                                .where(events_table.c.seq > self._seq).order_by(events_table.c.seq)).all()
        if rows:
            self._seq = rows[-1].seq
        events = [parse_event(r.body) for r in rows]
        for row, event in zip(rows, events):
            self._head = row.chain or chain_next(self._head or chain_start(event.tournament_id), row.body)
        return events

    def refresh(self) -> TournamentState:
        """Evolve the state with the events stored since it was last read (another process's;
        this store's own are in the state already, and evolve skips them)."""
        for event in self._events_after(self._state):
            self._state.evolve(event)
        return self._state

    @property
    def state(self) -> TournamentState:
        """The tournament state after every stored event."""
        return self._state

    def events(self) -> list[Any]:
        """All stored events in sequence order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(events_table.c.body).order_by(events_table.c.seq)).all()
        return [parse_event(r.body) for r in rows]

    def _append_decided(self, events: Iterable[Any]) -> None:
        """Store ``events`` that ``processors.deciders.handle`` yielded on ``self.state`` (they have
        evolved it already), in one transaction. Only ``producers.doors.EmbeddedDoor`` calls it,
        right after deciding: the store's one way in. If the write fails the state is reloaded from
        the database, and the error is raised."""
        try:
            self._write(events)
        except BaseException:
            self._state = self._load_state()  # the state moved on, the database did not
            raise

    @property
    def chain_head(self) -> str | None:
        """The hash chain through the last stored event (``schemas.chain``), None when empty."""
        return self._head

    def _write(self, events: Iterable[Any]) -> None:
        self.refresh()  # the chain continues from the last stored event, whoever wrote it
        rows = []
        head = self._head
        for e in events:
            body = canonical_json(e)
            head = chain_next(head or chain_start(e.tournament_id), body)
            rows.append({"event_id": e.event_id, "tournament_id": e.tournament_id, "type": e.type,
                         "schema_version": e.schema_version, "body": body, "chain": head})
        if rows:
            with self.engine.begin() as conn:
                conn.execute(insert(events_table), rows)
            self._head = head

    def project(self) -> ReplayResult:
        """Rebuild the read models (teams, matches, standings per round) from the stored events.

        One transaction: readers see the old or the new read models, never a mix.
        """
        result = replay(self.events())
        state = result.state
        tid = state.tournament_id or ""
        with self.engine.begin() as conn:
            for table in (teams_table, matches_table, standings_table, standings_documents, proposed_pairings):
                conn.execute(delete(table).where(table.c.tournament_id == tid))
            if not state.teams:
                return result
            conn.execute(insert(teams_table), team_rows(state))
            matches = [match_row(state, rnd, t.table) for rnd, pairing in sorted(state.rounds.items()) for t in pairing.tables]
            if matches:
                conn.execute(insert(matches_table), matches)
            for st in result.rounds.values():
                conn.execute(insert(standings_table), standings_rows(tid, st))
                conn.execute(insert(standings_documents), standings_document_row(tid, st))
            proposal = _proposal_row(state)
            if proposal:
                conn.execute(insert(proposed_pairings), proposal)
        return result

    def proposed_pairing(self) -> dict[str, Any] | None:
        """The read model of the next round's proposed pairing: ``{"round", "digest", "event"}``
        (the ``PairingProposed`` event as JSON) or ``{"round", "error"}`` when no legal pairing
        exists; None while the last paired round is still being played."""
        with self.engine.connect() as conn:
            row = conn.execute(select(proposed_pairings)).first()
        if row is None:
            return None
        if row.error:
            return {"round": row.round, "error": row.error}
        return {"round": row.round, "digest": row.digest, "event": json.loads(row.body)}

    def standings_document(self, rnd: int) -> dict[str, Any] | None:
        """The stored canonical standings document after round ``rnd``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(standings_documents.c.body).where(standings_documents.c.round == rnd)
            ).first()
        return json.loads(row.body) if row else None
