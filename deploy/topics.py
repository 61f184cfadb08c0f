"""The Kafka topic layout of the live pipeline: names, partitions, keys, retention; and their creation.

Every producer and consumer takes its topic names and message keys from here, so that the keying
contract (which events share a partition, hence an order) is written down once.

===========================  ==========================  ==========  ============================
topic                        key                         partitions  retention
===========================  ==========================  ==========  ============================
tournament-events            ``T`` (tournament id)       P           forever (input commands)
board-results                ``T`` (tournament id)       P           forever (input commands)
tournament-log               ``T``                       P           forever (accepted events)
standings                    ``T/round``                 P           compacted: latest per round
pairings                     ``T/round``                 P           compacted: latest per round
dead-letters                 key of the refused message  1           30 days
verdicts                     ``T``                       P           7 days
===========================  ==========================  ==========  ============================

``P``, the partition count of every keyed topic, is the setting ``OLYMPIAD_PARTITIONS`` (``partitions()``:
12 by default; 12-24 is the range meant for a cluster, ``docs/scaling.md``). It bounds how many
processor and projection-worker instances share the work (a partition has one owner in a consumer
group), and it is fixed once the topics exist: every process of one pipeline must run with the
same value, because a key's partition is ``murmur2(key) % P`` (``partition_for``) and the
processors' table and the readers take ``P`` from here. Never a topic per tournament: the
tournaments share the partitions, each tournament on one (its key's), so its order is kept.

Inputs carry commands only (``schemas.commands``, as JSON): the processors decide each with
``processors.deciders.handle``, the same function the CLI and the web app call in-process, and a
raw event on an input topic is a dead letter (``processors.judge.COMMANDS_ONLY``): an event
enters ``tournament-log`` only as a command's decision, an importer's facts as ``ImportFacts``.
``board-results`` carries the commands about boards (``BOARD_COMMANDS``: results, forfeits,
corrections), keyed by tournament, so the four boards of a match, their corrections and a
whole-match forfeit share a partition, hence an order; ``tournament-events`` every other command
(``command_topic``), one tournament's structure and imports in order on one partition. The two
input topics are co-partitioned (same key, same partition count), so the processors judge all
commands of a tournament in one agent against one state, without a re-keying hop.

Processors (``processors.app``): every accepted event is appended to ``tournament-log`` in the
order it was accepted: the Kafka form of the embedded event log, what the projection worker and
auditors read from offset 0; each record's headers ``chain`` and ``chain-prev`` hold the hash chain
through its event and the hash before it (``processors.log_chain``). ``standings`` carries
StandingsUpdated and ``pairings`` PairingProposed (the projection worker's); ``dead-letters`` a
JSON envelope ``{"topic", "partition", "offset", "key", "value", "field", "rule", "reason"}`` for
every refused message; ``verdicts`` the decision on every command that carried a ``command_id``:
``{"command_id", "accepted", "already_recorded", "event_ids", "field", "rule", "reason"}``.

On a broker with authentication (``docs/security.md``) each principal has a commands topic of its
own, ``commands.<principal>`` (``principal_topic``; P partitions, keyed by tournament, kept
forever), which only that principal may write (topic ACLs): the processors take the command's
actor from the topic it came on, never from the message, and commands on the two shared input
topics are refused there.

``OLYMPIAD_TOPIC_PREFIX`` (default empty) is put before every name, so that several pipelines (or
test runs) share one cluster without reading each other's events.

Run as ``python deploy/topics.py`` (``KAFKA_BOOTSTRAP_SERVERS``, default ``127.0.0.1:9092``) to
create missing topics; an existing topic is left as it is and its partition count checked.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

DAY_MS = 24 * 3600 * 1000
DEFAULT_PARTITIONS = 12


def partitions() -> int:
    """``OLYMPIAD_PARTITIONS``: the partition count of the keyed topics (default 12; 12-24 for a
    cluster, fewer only for a small local broker). Raises ``ValueError`` naming the variable if it
    is not a whole number from 1 to 1000."""
    given = os.environ.get("OLYMPIAD_PARTITIONS", "").strip()
    if not given:
        return DEFAULT_PARTITIONS
    try:
        count = int(given)
    except ValueError:
        count = 0
    if not 1 <= count <= 1000:
        raise ValueError(f"OLYMPIAD_PARTITIONS={given!r}: the partition count of the keyed topics must be a whole number from 1 to 1000")
    return count


PARTITIONS = partitions()  # read once per process: every spec below and every reader uses this one value


@dataclass(frozen=True)
class TopicSpec:
    """One topic: base name (before the prefix), partitions, what its key is, broker configs."""

    base: str
    partitions: int
    key: str
    configs: dict[str, str] = field(default_factory=dict)


_FOREVER = {"cleanup.policy": "delete", "retention.ms": "-1"}
# Compacted: the broker keeps at least the latest value per key; a 1-minute dirty segment is
# eligible for cleaning soon, so a reader from offset 0 does not wade through old versions.
_COMPACTED = {"cleanup.policy": "compact", "segment.ms": str(60 * 1000), "min.cleanable.dirty.ratio": "0.1"}
# A standings update or a proposed pairing (with its trace) grows with the teams: ~570 KB for
# 3,000, ~2 MB for 10,000 (schemas.limits.MAX_TEAMS); the worker's producer sends up to 8 MiB.
_LARGE = {**_COMPACTED, "max.message.bytes": str(8 * 1024 * 1024)}

TOURNAMENT_EVENTS = TopicSpec("tournament-events", PARTITIONS, "T", _FOREVER)
BOARD_RESULTS = TopicSpec("board-results", TOURNAMENT_EVENTS.partitions, "T", _FOREVER)
TOURNAMENT_LOG = TopicSpec("tournament-log", PARTITIONS, "T", _FOREVER)
STANDINGS = TopicSpec("standings", PARTITIONS, "T/round", _LARGE)
PAIRINGS = TopicSpec("pairings", PARTITIONS, "T/round", _LARGE)
DEAD_LETTERS = TopicSpec("dead-letters", 1, "key of the refused message",
                         {"cleanup.policy": "delete", "retention.ms": str(30 * DAY_MS)})
VERDICTS = TopicSpec("verdicts", PARTITIONS, "T", {"cleanup.policy": "delete", "retention.ms": str(7 * DAY_MS)})

COMMANDS = TopicSpec("commands", TOURNAMENT_EVENTS.partitions, "T", _FOREVER)  # one per principal: principal_topic

TOPICS: tuple[TopicSpec, ...] = (
    TOURNAMENT_EVENTS, BOARD_RESULTS, TOURNAMENT_LOG, STANDINGS, PAIRINGS, DEAD_LETTERS, VERDICTS,
)

# Which input topic a command travels on: the commands about boards beside the board results
# (one order with them per tournament), every other command beside the tournament's structure.
BOARD_COMMANDS: frozenset[str] = frozenset({"RecordResult", "RecordResults", "RecordForfeit", "CorrectResult"})


def command_topic(command: object) -> TopicSpec:
    """The input topic of ``command`` (a ``schemas.commands`` model); its key is its tournament id."""
    return BOARD_RESULTS if command.command in BOARD_COMMANDS else TOURNAMENT_EVENTS  # type: ignore[attr-defined]


# The events about the boards of a table: what folds into a match result.
BOARD_LEVEL: frozenset[str] = frozenset({"BoardResultRecorded", "BoardResultCorrected", "MatchForfeited"})


def bootstrap_servers() -> str:
    """``KAFKA_BOOTSTRAP_SERVERS``, default ``127.0.0.1:9092`` (what ``deploy/kafka.sh`` starts)."""
    return os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")


def prefix() -> str:
    """``OLYMPIAD_TOPIC_PREFIX``, default empty."""
    return os.environ.get("OLYMPIAD_TOPIC_PREFIX", "")


def name(spec: TopicSpec, topic_prefix: str | None = None) -> str:
    """The full topic name of ``spec`` (``topic_prefix`` defaults to ``OLYMPIAD_TOPIC_PREFIX``)."""
    return (prefix() if topic_prefix is None else topic_prefix) + spec.base


def partition_for(key: bytes, partitions: int) -> int:
    """The partition Kafka's default partitioner (murmur2, as in the Java client) gives ``key``
    among ``partitions``: where a keyed message lands, e.g. a tournament's events on ``tournament-log``."""
    from kafka.partitioner.default import murmur2

    return (murmur2(key) & 0x7FFFFFFF) % partitions


def principal_topic(principal: str, topic_prefix: str | None = None) -> str:
    """The commands topic of ``principal`` (a broker with authentication): ``<prefix>commands.<principal>``."""
    return f"{name(COMMANDS, topic_prefix)}.{principal}"


def topic_principal(topic: str, topic_prefix: str | None = None) -> str | None:
    """The principal whose commands topic ``topic`` is, or None for any other topic."""
    head = name(COMMANDS, topic_prefix) + "."
    return topic[len(head):] if topic.startswith(head) and len(topic) > len(head) else None


def round_key(tournament_id: str, rnd: int) -> str:
    """Key of standings and pairings: compaction keeps the latest value per tournament and round."""
    return f"{tournament_id}/{rnd}"


def admin_client(bootstrap: str | None = None, client_id: str = "olympiad-topics", username: str | None = None) -> Any:
    """A kafka-python admin client of ``bootstrap`` (default ``bootstrap_servers()``), authenticated
    as ``username`` (default: as ``deploy.kafka_security`` says)."""
    from kafka.admin import KafkaAdminClient

    from deploy.kafka_security import client_config

    return KafkaAdminClient(bootstrap_servers=bootstrap or bootstrap_servers(), client_id=client_id,
                            **client_config(username))


def principal_topics(bootstrap: str | None = None, topic_prefix: str | None = None) -> list[str]:
    """The commands topics (``principal_topic``) that exist on the cluster, sorted."""
    admin = admin_client(bootstrap)
    try:
        return sorted(t for t in admin.list_topics() if topic_principal(t, topic_prefix) is not None)
    finally:
        admin.close()


def ensure_topics(bootstrap: str | None = None, topic_prefix: str | None = None,
                  principals: tuple[str, ...] = (), username: str | None = None) -> dict[str, str]:
    """Create the missing topics of ``TOPICS`` and the commands topics of ``principals``; return
    ``{topic: "created" | "exists"}``. ``username``: the principal to do it as (``admin_client``).

    Replication factor 1 when the cluster has one broker, else 3 (or the broker count if fewer).
    Raises ``RuntimeError`` if an existing topic has another partition count than its spec
    (keys would then map to other partitions than the consumers' tables expect).
    """
    admin = admin_client(bootstrap, username=username)
    try:
        brokers = len(admin.describe_cluster()["brokers"])
        replication = min(3, brokers)
        existing = {t["name"]: len(t["partitions"]) for t in admin.describe_topics()}
        wanted = {name(s, topic_prefix): s for s in TOPICS}
        wanted.update({principal_topic(p, topic_prefix): COMMANDS for p in principals})
        missing = {
            topic: {"num_partitions": s.partitions, "replication_factor": replication, "configs": dict(s.configs)}
            for topic, s in wanted.items() if topic not in existing
        }
        if missing:
            admin.create_topics(missing, timeout_ms=30000, wait_for_metadata=True)
        for topic, s in wanted.items():
            if topic in existing and existing[topic] != s.partitions:
                raise RuntimeError(
                    f"topic {topic} has {existing[topic]} partitions, the layout says {s.partitions} (keys would land on "
                    "other partitions than the processors expect); it was made with another OLYMPIAD_PARTITIONS or "
                    f"layout: run with OLYMPIAD_PARTITIONS={existing[topic]}, delete it, or set another OLYMPIAD_TOPIC_PREFIX (deploy/kafka.sh reset empties the local broker)")
        return {topic: ("created" if topic in missing else "exists") for topic in wanted}
    finally:
        admin.close()


def main() -> int:
    try:
        created = ensure_topics()
    except RuntimeError as exc:
        print(f"topics: {exc}", file=sys.stderr)
        return 2
    for topic, what in created.items():
        print(f"{topic}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
