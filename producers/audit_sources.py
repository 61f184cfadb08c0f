"""Where an audit reads a tournament's log and what was published (``projections.audit``).

``audit_source(source, tournament_id=None)`` returns ``(tournament_id, records, published)``:

- an event log file (``.jsonl``, ``.jsonl.gz``): its lines as stored; nothing published but
  what the log itself holds (closed rounds' digests, checkpoints);
- a data folder or a shipped log name: the importer's events, imported (``producers.sources.load_log``);
- an event store's database (a SQLAlchemy URL: the embedded store's, or the Kafka projection
  worker's, SQLite or PostgreSQL): the ``events`` rows with their chain hashes, and the read
  models: ``standings_documents``, ``matches`` (the pairings), ``proposed_pairings``;
- ``kafka://HOST:PORT/TOURNAMENT`` (topics prefixed by ``$OLYMPIAD_TOPIC_PREFIX``): the
  tournament's ``tournament-log`` from offset 0 with each record's chain headers
  (``schemas.chain.CHAIN_HEADER``, ``PREV_HEADER``), the latest ``StandingsUpdated`` of each round
  on ``standings`` and ``PairingProposed`` on ``pairings``, up to the end offsets read when it
  starts, by a consumer of its own (assigned partitions, no group) that commits nothing.

Raises ``FileNotFoundError`` / ``ValueError`` naming what is wrong with the source.

``read_anchors(against, tournament_id)`` reads a copy of the published anchors
(``projections.anchors``): ``http(s)://`` the scoreboard's ``/api/tournaments/{tid}/checkpoints``
(a URL of the server alone gets that path), ``kafka://HOST:PORT`` the ``standings`` topic's
``{tid}/checkpoints`` record, a ``.trf`` file its ``### olympiad-events anchors`` line, another
file the JSON document as the API serves it.
"""
from __future__ import annotations

import gzip
import json
import urllib.error
import urllib.request
from pathlib import Path

import orjson

from projections.audit import LogRecord, Published
from projections.anchors import Anchors, anchors_from_trf, anchors_key, parse_anchors
from projections.eventlog import chain_ids, read_chain, read_log
from schemas.canonical import canonical_json
from schemas.chain import CHAIN_HEADER, PREV_HEADER


def audit_source(source: str, tournament_id: str | None = None) -> tuple[str, list[LogRecord], Published]:
    """The log and the published read models of ``source`` (see the module docstring)."""
    if source.startswith("kafka://"):
        rest = source.removeprefix("kafka://")
        bootstrap, _, tid = rest.partition("/")
        if not tid:
            raise ValueError(f"{source}: name the tournament: kafka://HOST:PORT/TOURNAMENT")
        return _kafka(bootstrap, tid)
    if "://" in source:
        return _database(source, tournament_id)
    path = Path(source)
    if path.is_file() and not path.suffix == ".trf":
        return _file(path, tournament_id)
    from producers.sources import load_log

    events = load_log(source)  # a data folder's facts imported (judged once); a shipped log as it is
    tid = tournament_id or events[0].tournament_id
    return tid, [LogRecord(canonical_json(e), None, f"event {i}") for i, e in enumerate(events, 1)
                 if e.tournament_id == tid], Published()


def _file(path: Path, tid: str | None) -> tuple[str, list[LogRecord], Published]:
    events = iter(read_log(path))  # refuses a file that is not a log, naming the line, before the audit
    hashes = read_chain(path)  # the chain file beside it, if any: each event's hashes
    chained = chain_ids(path)
    records = []
    with (gzip.open if path.suffix == ".gz" else open)(path, "rb") as fh:
        for n, raw in enumerate(fh, start=1):
            if raw.strip():  # the non-blank lines are read_log's events, in order
                prev, chain = hashes.get(next(events).event_id, (None, None))
                records.append(LogRecord(raw.rstrip(b"\r\n").decode("utf-8"), chain, f"line {n}", prev))
    if not records:
        raise ValueError(f"{path}: an empty log")
    first = json.loads(records[0].body).get("tournament_id", "")
    return tid or first, records, Published(chained=chained)


def _database(url: str, tid: str | None) -> tuple[str, list[LogRecord], Published]:
    from sqlalchemy import create_engine, inspect, select

    from projections.store import events_table, matches_table, proposed_pairings, standings_documents

    engine = create_engine(url)
    try:
        if "events" not in inspect(engine).get_table_names():
            raise ValueError(f"{url}: no events table (not an olympiad-events store)")
        columns = {c["name"] for c in inspect(engine).get_columns("events")}
        with engine.connect() as conn:
            ids = [r[0] for r in conn.execute(select(events_table.c.tournament_id).distinct())]
            if tid is None:
                if len(ids) != 1:
                    raise ValueError(f"{url} holds {len(ids)} tournaments ({', '.join(sorted(ids)[:5])}): name one with --tournament")
                tid = ids[0]
            chain = events_table.c.chain if "chain" in columns else None
            cols = [events_table.c.seq, events_table.c.body] + ([chain] if chain is not None else [])
            rows = conn.execute(select(*cols).where(events_table.c.tournament_id == tid).order_by(events_table.c.seq)).all()
            records = [LogRecord(r.body, getattr(r, "chain", None), f"seq {r.seq}") for r in rows]
            published = Published()
            for r in conn.execute(select(standings_documents).where(standings_documents.c.tournament_id == tid)):
                published.standings[r.round] = {**json.loads(r.body), "digest": r.digest}
            for r in conn.execute(select(matches_table).where(matches_table.c.tournament_id == tid)):
                published.pairings.setdefault(r.round, {})[r.table_no] = (r.home, r.away)
            for r in conn.execute(select(proposed_pairings).where(proposed_pairings.c.tournament_id == tid)):
                if r.body:
                    published.proposals[r.round] = {t["table"]: (t["home"], t["away"]) for t in json.loads(r.body)["tables"]}
    finally:
        engine.dispose()
    return tid, records, published


def _kafka(bootstrap: str, tid: str) -> tuple[str, list[LogRecord], Published]:
    from kafka import KafkaConsumer, TopicPartition

    from deploy import topics
    from deploy.kafka_security import client_config

    log = topics.name(topics.TOURNAMENT_LOG)
    # The tournament's partition of the log (keyed by tournament id) and every partition of the
    # compacted standings and pairings topics (keyed by tournament and round), all assigned at
    # once: one fetch per broker round trip for all of them, no group, nothing committed, and
    # the end offsets read up front say where to stop.
    tps = [TopicPartition(log, topics.partition_for(tid.encode(), topics.TOURNAMENT_LOG.partitions))]
    tps += [TopicPartition(topics.name(spec), p) for spec in (topics.STANDINGS, topics.PAIRINGS) for p in range(spec.partitions)]
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, group_id=None, fetch_max_wait_ms=50,
                             auto_offset_reset="earliest", max_poll_records=5000, max_partition_fetch_bytes=8 * 1024 * 1024,
                             **client_config())
    records: list[LogRecord] = []
    published = Published()
    key, head, anchors = tid.encode(), f"{tid}/".encode(), anchors_key(tid)
    standings, pairings = topics.name(topics.STANDINGS), topics.name(topics.PAIRINGS)
    try:
        consumer.assign(tps)
        ends = consumer.end_offsets(tps)
        for tp in tps:
            consumer.seek(tp, 0)  # offset 0, or (deleted records) the earliest: auto_offset_reset
        while any(consumer.position(tp) < ends[tp] for tp in tps):
            for tp, recs in consumer.poll(timeout_ms=500).items():
                for rec in recs:
                    if rec.offset >= ends[tp]:
                        continue  # written after the audit started: not part of what it audits
                    if tp.topic == log:
                        if rec.key == key:
                            headers = dict(rec.headers or ())
                            chain, prev = headers.get(CHAIN_HEADER), headers.get(PREV_HEADER)
                            records.append(LogRecord(rec.value.decode(), chain and chain.decode(), f"{log} {tp.partition}:{rec.offset}",
                                                     prev and prev.decode()))
                    elif rec.key and rec.key.startswith(head) and rec.value and rec.key != anchors:
                        body = orjson.loads(rec.value)
                        if tp.topic == standings:
                            published.standings[body["round"]] = body  # the latest per round (compacted topic)
                        elif tp.topic == pairings:
                            published.proposals[body["round"]] = {t["table"]: (t["home"], t["away"]) for t in body["tables"]}
    finally:
        consumer.close()
    if not records:
        raise ValueError(f"kafka://{bootstrap}: no event of tournament {tid!r} on {log}")
    return tid, records, published


def read_anchors(against: str, tournament_id: str) -> Anchors:
    """The anchors published for ``tournament_id`` at ``against`` (see the module docstring).
    Raises ``FileNotFoundError`` / ``ValueError`` naming what is wrong, ``OSError`` for a server
    that does not answer."""
    if against.startswith(("http://", "https://")):
        url = against if against.rstrip("/").endswith("/checkpoints") else \
            f"{against.rstrip('/')}/api/tournaments/{tournament_id}/checkpoints"
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                body = r.read()
        except urllib.error.HTTPError as exc:
            raise ValueError(f"{url}: HTTP {exc.code}") from None
        try:
            doc = json.loads(body)
        except ValueError:
            raise ValueError(f"{url}: not JSON (the published checkpoints)") from None
        return parse_anchors(doc, url, tournament_id)
    if against.startswith("kafka://"):
        return _kafka_anchors(against.removeprefix("kafka://").partition("/")[0], tournament_id)
    path = Path(against)
    if not path.is_file():
        raise FileNotFoundError(f"{against}: no such file (the published checkpoints: a URL, a JSON file, a TRF export)")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".trf":
        return anchors_from_trf(text, against, tournament_id)
    try:
        doc = json.loads(text)
    except ValueError:
        raise ValueError(f"{against}: not JSON (the published checkpoints, as /api/tournaments/T/checkpoints serves them)") from None
    return parse_anchors(doc, against, tournament_id)


def _kafka_anchors(bootstrap: str, tid: str) -> Anchors:
    """The latest ``{tid}/checkpoints`` record of the ``standings`` topic (compacted)."""
    from kafka import KafkaConsumer, TopicPartition

    from deploy import topics
    from deploy.kafka_security import client_config

    name = topics.name(topics.STANDINGS)
    key = anchors_key(tid)
    tp = TopicPartition(name, topics.partition_for(key, topics.STANDINGS.partitions))
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, group_id=None, fetch_max_wait_ms=50,
                             auto_offset_reset="earliest", **client_config())
    doc = None
    try:
        consumer.assign([tp])
        end = consumer.end_offsets([tp])[tp]
        consumer.seek(tp, 0)
        while consumer.position(tp) < end:
            for recs in consumer.poll(timeout_ms=500).values():
                for rec in recs:
                    if rec.key == key and rec.value and rec.offset < end:
                        doc = orjson.loads(rec.value)
    finally:
        consumer.close()
    source = f"kafka://{bootstrap} {name} {tid}/checkpoints"
    if doc is None:
        raise ValueError(f"{source}: no published checkpoints of {tid!r}")
    return parse_anchors(doc, source, tid)
