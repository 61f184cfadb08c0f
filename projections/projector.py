"""The projector: ``tournament-log`` records into the SQL read models, one transaction per batch; no Kafka.

Input: records as a Kafka consumer hands them (anything with ``topic``, ``partition``,
``offset``, ``key``, ``value`` and ``headers``: kafka-python's ``ConsumerRecord``), each the
canonical JSON of an event the processors accepted. Output: the tables of ``projections.store``
(``events``, ``teams``, ``matches``, ``standings``, ``standings_documents``) and the positions
``projection_offsets``; the standings taken (``Snapshot``, ``standings_event``) and the dead
letters of records it could not project, for the caller (``projections.worker``) to publish.

Decide once, evolve always: every event on the log was decided when the processors accepted it,
so the projector applies it with ``TournamentState.evolve`` only, on load and live; no rule is
checked again, and a rule tightened since changes nothing already logged.

Exactly-once effect without Kafka transactions: the consumed position of each partition is kept
in the table ``projection_offsets`` and written in the same SQL transaction as the read-model
change of the batch it covers, so a batch is applied once or not at all, whatever crashes in
between. A redelivered or duplicated event id is also a no-op (``TournamentState.evolve``), so
replaying the topic from offset 0 changes nothing.

Bad input never stops the projection: each tournament's part of a batch is projected in a
savepoint; an event that cannot be projected (unreadable, an id reused for another event, or
failing in the standings or in the database: a value too long for its column, a NUL on
PostgreSQL) is rolled back alone and dead-lettered with the exception
(``schemas.dead_letters``); the positions move past it. A stored event that does not load is
skipped on load.

When standings are taken (the rule of ``projections.replay``): the standings after round r are
the state's just before the pairing of round r + 1 is applied, then frozen; a later correction
to round r changes the standings of the rounds after it. After every batch that changed a
tournament, the standings of its last paired round are recomputed and stored, so every match
result change is followed by a ``Snapshot`` that includes it, with its ``log-position``
(``<partition>:<offset>``: every tournament-log event of that partition before that offset).
Once the last paired round is complete (and the tournament has rounds left), ``proposal`` gives
the pairing engine's ``PairingProposed`` for the next round.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

from sqlalchemy import Column, Integer, MetaData, String, Table, and_, bindparam, delete, insert, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Update
from sqlalchemy.engine import Connection, Engine

from deploy import topics
from processors.tournament import RuleViolation, TournamentState
from projections.replay import fixes_standings_of, RoundStandings, standings_after
from projections.pairing.read_model import next_round_proposal
from projections.store import (
    events_table,
    match_row,
    matches_table,
    metadata,
    standings_document_row,
    standings_documents,
    standings_rows,
    standings_table,
    team_rows,
    teams_table,
)
from schemas.canonical import canonical_json
from schemas.chain import CHAIN_HEADER
from schemas import refusals
from schemas.dead_letters import MAX_REASON_CHARS, dead_letter
from schemas.events import StandingsUpdated, parse_event

log = logging.getLogger("olympiad.projections")

worker_metadata = MetaData()
offsets_table = Table(
    "projection_offsets",
    worker_metadata,
    Column("consumer", String(200), primary_key=True),
    Column("topic", String(250), primary_key=True),
    Column("partition", Integer, primary_key=True),
    Column("next_offset", Integer, nullable=False),
)


@lru_cache(maxsize=None)
def update_by_key(table: Table) -> Update:
    """``UPDATE table SET <the other columns> WHERE <primary key> = :pk_<column> ...``, built once
    per table (building a WHERE expression per batch cost more than running it), run with
    ``update_params``: one statement where a delete and an insert of the same rows were two."""
    return update(table).where(and_(*(c == bindparam(f"pk_{c.name}") for c in table.primary_key.columns)))


def update_params(table: Table, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``update_by_key(table)`` parameter sets of ``rows`` (whole rows): the key as ``pk_<column>``,
    the other columns as they are (the SET clause)."""
    keys = {c.name for c in table.primary_key.columns}
    return [{(f"pk_{k}" if k in keys else k): v for k, v in row.items()} for row in rows]


def upsert_each(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` (whole rows of ``table``): each updated by its key, those no row was there for
    inserted (a result's match, a pairing's tables, a partition's position). One UPDATE per row:
    its count of rows is reliable one statement at a time (SQLite and PostgreSQL count matched
    rows); a pairing's tables are written once per round."""
    missing = [row for row, params in zip(rows, update_params(table, rows))
               if conn.execute(update_by_key(table), params).rowcount == 0]
    if missing:
        conn.execute(insert(table), missing)


def create_tables(engine: Engine, attempts: int = 5) -> None:
    """Create the read models' and the worker's tables that do not exist yet. Workers of one group
    start together on one database: PostgreSQL refuses the second of two concurrent ``CREATE
    TABLE`` of one name (a unique violation in its catalogue, seen with two workers started at
    once), so a failed attempt is tried again, and then finds the other's tables."""
    for attempt in range(attempts):
        try:
            metadata.create_all(engine)
            worker_metadata.create_all(engine)
            return
        except DBAPIError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.1 * (attempt + 1))


@dataclass
class TournamentProjection:
    """One tournament's state and what the current batch changed in it."""

    state: TournamentState = field(default_factory=TournamentState)
    dirty: bool = False  # changed since its standings were last taken
    teams_changed: bool = False
    tables: set[tuple[int, int]] = field(default_factory=set)  # (round, table) whose match changed


@dataclass(frozen=True)
class Snapshot:
    """Standings taken during a batch, to publish once the batch is committed."""

    tournament_id: str
    standings: RoundStandings
    position: str  # "<partition>:<offset>" of tournament-log: every event before it is included


class Projector:
    """Applies tournament-log records to the read models, one SQL transaction per batch."""

    def __init__(self, engine: Engine, consumer_name: str, load: bool = True):
        self.engine = engine
        self.consumer_name = consumer_name
        create_tables(engine)
        self.tournaments: dict[str, TournamentProjection] = {}
        # (tournament, round) -> {team: standings row} as last written, to write only what changed
        self._written: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
        self.dead_letters: list[bytes] = []  # envelopes of records that could not be projected, to publish
        if load:
            self._load()

    def _load(self, keep: Callable[[str], bool] | None = None) -> None:
        """Rebuild the state of every tournament (those ``keep(tournament_id)`` is true of, if
        given) from the stored events, in sequence order."""
        with self.engine.connect() as conn:
            for row in conn.execute(select(events_table.c.tournament_id, events_table.c.body).order_by(events_table.c.seq)):
                if keep is None or keep(row.tournament_id):
                    replay_stored(self._projection(row.tournament_id).state, row.body)

    def load_only(self, keep: Callable[[str], bool]) -> None:
        """Forget every tournament and rebuild, from the stored events, those ``keep(tournament_id)``
        is true of: a worker's state after its consumer group gave it partitions (another worker
        may have projected them since, into the same database). Forgets the rows last written too,
        so the next standings of a tournament are written whole."""
        self.tournaments.clear()
        self._written.clear()
        self._load(keep)

    def _projection(self, tournament_id: str) -> TournamentProjection:
        return self.tournaments.setdefault(tournament_id, TournamentProjection())

    def positions(self, topic: str) -> dict[int, int]:
        """Stored next offset per partition of ``topic`` for this consumer."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(offsets_table.c.partition, offsets_table.c.next_offset).where(
                offsets_table.c.consumer == self.consumer_name, offsets_table.c.topic == topic))
            return {r.partition: r.next_offset for r in rows}

    def apply_batch(self, records: Iterable[Any]) -> list[Snapshot]:
        """Apply ``records`` (kafka-python ``ConsumerRecord``s, in partition order) in one transaction.

        Returns the standings taken, to be published after the commit. Each tournament's part of
        the batch runs in a savepoint of its own: if anything fails while projecting it (an
        exception of the rules, of the standings or of the database: a value its column cannot
        hold), that part is rolled back and projected again one event at a time, and the event
        that fails is dead-lettered with the exception (``dead_letters``, published by the
        worker after the commit). Other tournaments never notice, and the stored positions move
        past every record of the batch, so a restart does not meet the bad event again.
        """
        snapshots: list[Snapshot] = []
        ends: dict[tuple[str, int], int] = {}
        parts: dict[str, list[tuple[Any, Any]]] = {}  # tournament -> its (record, event)s, in log order
        for rec in records:
            ends[(rec.topic, rec.partition)] = rec.offset + 1
            try:
                event = parse_event(rec.value)
            except Exception as exc:  # noqa: BLE001 - a record no build of ours wrote: dead-letter it, go on
                self._refuse(rec, exc)
                continue
            parts.setdefault(event.tournament_id, []).append((rec, event))
        written: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
        with self.engine.begin() as conn:
            for tid, part in parts.items():
                mine = dict(written)  # taken only once its savepoint holds: a rolled-back write is not "written"
                try:
                    with conn.begin_nested():
                        done = self._project(conn, tid, part, mine)
                    written.update(mine)
                except Exception:  # noqa: BLE001 - find the event that fails, project the others
                    log.exception("tournament %s: batch of %d events failed; projecting them one by one", tid, len(part))
                    self._reload(conn, tid)
                    done = self._project_one_by_one(conn, tid, part, written)
                snapshots += done
            if ends:
                positions = [{"consumer": self.consumer_name, "topic": topic, "partition": partition, "next_offset": next_offset}
                             for (topic, partition), next_offset in ends.items()]
                upsert_each(conn, offsets_table, positions)
        self._written.update(written)  # only once committed
        return snapshots

    def _project_one_by_one(self, conn: Connection, tid: str, part: list[tuple[Any, Any]],
                            written: dict[tuple[str, int], dict[str, dict[str, Any]]]) -> list[Snapshot]:
        """Project ``part`` one event per savepoint; an event that fails is rolled back and dead-lettered."""
        snapshots: list[Snapshot] = []
        for rec, event in part:
            mine: dict[tuple[str, int], dict[str, dict[str, Any]]] = dict(written)
            try:
                with conn.begin_nested():
                    done = self._project(conn, tid, [(rec, event)], mine)
            except Exception as exc:  # noqa: BLE001 - the event cannot be projected: it alone is dropped
                self._reload(conn, tid)
                self._refuse(rec, exc)
                continue
            written.update(mine)
            snapshots += done
        return snapshots

    def _project(self, conn: Connection, tid: str, part: list[tuple[Any, Any]],
                 written: dict[tuple[str, int], dict[str, dict[str, Any]]]) -> list[Snapshot]:
        """Apply one tournament's events of the batch and write its read-model changes and standings.

        ``written`` gets the standings rows written (and gives those written earlier in this
        transaction). An event ``evolve`` cannot take (an id reused for another event, a derived
        type: a log written by another build) is dead-lettered; no rule is checked again (the
        processors decided it). Raises whatever
        the projection raises; the caller rolls the savepoint back and reloads the state.
        """
        snapshots: list[Snapshot] = []
        refused: list[tuple[Any, Exception]] = []
        new_events: list[dict[str, Any]] = []
        last_position = ""
        proj = self._projection(tid)
        for rec, event in part:
            fixed = fixes_standings_of(event)
            if fixed is not None and proj.dirty and event.event_id not in proj.state.applied:
                # The standings after the previous round are those of the state before this pairing.
                snapshots.append(Snapshot(tid, standings_after(proj.state, fixed), f"{rec.partition}:{rec.offset}"))
                proj.dirty = False
            try:
                new = proj.state.evolve(event)
            except RuleViolation as exc:
                refused.append((rec, exc))
                continue
            last_position = f"{rec.partition}:{rec.offset + 1}"
            if not new:
                continue
            new_events.append({
                "event_id": event.event_id, "tournament_id": tid, "type": event.type,
                "schema_version": event.schema_version, "body": canonical_json(event),  # as parsed (the processors wrote the same bytes)
                "chain": _chain_header(rec),
            })
            proj.dirty = True
            if event.type == "TeamRegistered":
                proj.teams_changed = True
            elif event.type == "RoundPaired":
                proj.tables.update((event.round, t.table) for t in event.tables)
            elif event.type in topics.BOARD_LEVEL:
                proj.tables.add((event.round, event.table))
        if new_events:
            conn.execute(insert(events_table), new_events)
        self._write_changes(conn, tid, proj)
        if proj.dirty and proj.state.rounds:
            snapshots.append(Snapshot(tid, standings_after(proj.state, max(proj.state.rounds)), last_position))
            proj.dirty = False
        for snap in snapshots:
            key = (tid, snap.standings.round)
            written[key] = self._write_standings(conn, tid, snap.standings, written.get(key, self._written.get(key)))
        for rec, exc in refused:
            self._refuse(rec, exc)
        return snapshots

    def _reload(self, conn: Connection, tid: str) -> None:
        """Rebuild the state of ``tid`` from its stored events as ``conn`` sees them (after a rollback)."""
        self.tournaments.pop(tid, None)
        proj = self._projection(tid)
        for row in conn.execute(select(events_table.c.body).where(events_table.c.tournament_id == tid).order_by(events_table.c.seq)):
            replay_stored(proj.state, row.body)

    def _refuse(self, rec: Any, exc: Exception) -> None:
        """Queue the dead letter of a record the projection could not take (published after the commit)."""
        field = getattr(exc, "field", "") or "(event)"
        rule = getattr(exc, "rule", "") or "projected without error"
        reason = refusals.exception_text(exc)  # never a library's text or link (docs/reliability.md)
        log.error("tournament-log %s:%s dead-lettered by the projection: %s", rec.partition, rec.offset,
                  reason[:MAX_REASON_CHARS])
        self.dead_letters.append(dead_letter({"topic": rec.topic, "partition": rec.partition, "offset": rec.offset,
                                              "refused_by": self.consumer_name}, rec.key, rec.value, field, rule, reason))

    def _write_changes(self, conn: Connection, tid: str, proj: TournamentProjection) -> None:
        """Upsert the teams and the changed matches of one tournament (rows as ``projections.store`` lays them)."""
        state = proj.state
        if proj.teams_changed:
            conn.execute(delete(teams_table).where(teams_table.c.tournament_id == tid))
            conn.execute(insert(teams_table), team_rows(state))
        if proj.tables:
            rows = [match_row(state, rnd, table_no) for rnd, table_no in sorted(proj.tables)]
            upsert_each(conn, matches_table, rows)
        proj.teams_changed = False
        proj.tables.clear()

    def _write_standings(self, conn: Connection, tid: str, st: RoundStandings,
                         before: dict[str, dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
        """Replace the standings document of (tournament, round) and the standings rows that changed;
        return the rows ``{team: row}`` as the read model now holds them.

        A result usually moves a few teams, so only the rows that differ from ``before`` (the rows
        this worker last wrote for the round, and with them its document) are updated, and rows
        of teams not in ``before`` inserted; with no ``before`` (after a start) all of them replaced.
        """
        rows = {row["team_id"]: row for row in standings_rows(tid, st)}
        upsert_each(conn, standings_documents, [standings_document_row(tid, st)])
        if before is None:
            conn.execute(delete(standings_table).where(
                (standings_table.c.tournament_id == tid) & (standings_table.c.round == st.round)))
            conn.execute(insert(standings_table), list(rows.values()))
            return rows
        changed = [row for team, row in rows.items() if team in before and before[team] != row]
        new = [row for team, row in rows.items() if team not in before]
        if changed:
            conn.execute(update_by_key(standings_table), update_params(standings_table, changed))
        if new:
            conn.execute(insert(standings_table), new)
        return rows

    def latest_standings(self, log_topic: str, partition_of: Callable[[str], int]) -> list[Snapshot]:
        """The standings of every tournament's last paired round, as the stored state gives them;
        their position is the stored one of the tournament's partition of ``log_topic``
        (``partition_of(tournament_id)``: where the broker keeps its events)."""
        stored = self.positions(log_topic)
        out = []
        for tid, p in self.tournaments.items():
            if p.state.rounds:
                partition = partition_of(tid)
                try:
                    standings = standings_after(p.state, max(p.state.rounds))
                except Exception:  # noqa: BLE001 - one tournament's standings never stop the others'
                    log.exception("tournament %s: no standings to republish", tid)
                    continue
                out.append(Snapshot(tid, standings, f"{partition}:{stored.get(partition, 0)}"))
        return out

    def proposal(self, tid: str) -> Any | None:
        """``PairingProposed`` for the round after the last paired one, once that round is complete; else None."""
        state = self.tournaments[tid].state
        return next_round_proposal(state) if state.rounds else None


def _chain_header(rec: Any) -> str | None:
    """The tournament-log record's chain hash (``schemas.chain.CHAIN_HEADER``, set by the
    processors), kept with the event as the embedded store keeps it; None for a record without one."""
    value = dict(rec.headers or ()).get(CHAIN_HEADER)
    return value.decode("ascii", "replace") if value else None


def replay_stored(state: TournamentState, body: str) -> None:
    """Replay one stored event into ``state`` on load (``parse_event``, ``TournamentState.evolve``:
    it was judged when it was logged); one that does not load (an unreadable body, an id reused
    for another event: stored by another build) is logged and skipped: a restart never stops on it."""
    try:
        state.evolve(parse_event(body))
    except Exception as exc:  # noqa: BLE001 - whatever it is, the other events and tournaments go on
        log.error("stored event skipped on load: %s: %s", type(exc).__name__, str(exc)[:MAX_REASON_CHARS])


def standings_event(snap: Snapshot) -> StandingsUpdated:
    """The ``StandingsUpdated`` of a snapshot; its id names the round and the digest, so equal
    standings give the same event.

    Its rows are those of the standings document without the per-opponent ``breakdown`` (a
    seventh of the size: every update is serialized, sent and parsed by every subscriber); the
    full document, whose SHA-256 ``digest`` is, stays in the read model ``standings_documents``.
    The worker publishes its canonical JSON as ``standings_payload`` builds it.
    """
    rows = tuple({k: v for k, v in row.items() if k != "breakdown"} for row in snap.standings.document["rows"])
    return StandingsUpdated(**_standings_header(snap), rows=rows)


def _standings_header(snap: Snapshot) -> dict[str, Any]:
    """The fields of a snapshot's ``StandingsUpdated`` but its rows."""
    st = snap.standings
    return {"event_id": f"{snap.tournament_id}/r{st.round}/standings/{st.digest[:16]}", "tournament_id": snap.tournament_id,
            "round": st.round, "complete": st.complete, "digest": st.digest}


def standings_payload(snap: Snapshot) -> str:
    """``canonical_json(standings_event(snap))``, the bytes the worker publishes, without pydantic's
    serializer walking the rows: the header is validated and dumped by the model, the rows (built by
    ``StandingRow.as_dict`` from the standings engine: plain strings, ints, bools, dicts) are put in
    as they are. Equal by construction and by test (tests/unit/test_standings_payload.py); pydantic's
    ``model_dump`` of 206 rows took 9 % of the worker's CPU per update (docs/live.md)."""
    body = StandingsUpdated(**_standings_header(snap), rows=()).model_dump(mode="json")
    body["rows"] = [row.as_dict(breakdown=False) for row in snap.standings.rows]
    return canonical_json(body)
