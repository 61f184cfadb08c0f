"""The doors a command goes through: in-process on the embedded store, or over Kafka.

``EmbeddedDoor(store).submit(command)`` decides the command with ``processors.deciders.handle``
on the store's state and stores the events it yields; ``KafkaDoor().submit(command)`` publishes
it on its input topic (``deploy.topics.command_topic``, keyed by tournament; authenticated as a
principal, ``deploy.kafka_security``: that principal's commands topic, whose producer the
processors take the actor from) and waits for the processors' verdict on the ``verdicts`` topic,
where the faust app decided it with the same function. Both return an ``Outcome``; neither holds a rule of its own.

A Kafka message is at most ``schemas.limits.MAX_MESSAGE_BYTES``: an import larger than that
travels as several ``ImportTeams`` (``in_parts``); any other command over it is refused before it
is sent (the rule the processors would apply), so no command is dead-lettered for its size.
"""
from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import ValidationError

from processors.deciders import Decision, handle
from processors.deciders.teams import listed_once
from processors.tournament import RuleViolation, TournamentState
from schemas import refusals
from schemas.canonical import canonical_json
from schemas.chain import chain_next, chain_start
from schemas.commands import ImportTeams, import_batches
from schemas.events import parse_event
from schemas.limits import MessageTooLarge, check_size


@dataclass(frozen=True)
class Outcome:
    """A command's verdict: accepted (``event_ids`` appended; ``already_recorded`` for an
    identical retry) or refused (``field``, ``rule``, ``reason``)."""

    accepted: bool
    event_ids: tuple[str, ...] = ()
    already_recorded: bool = False
    field: str = ""
    rule: str = ""
    reason: str = ""

    def text(self) -> str:
        """One line for a person: what was recorded, or why not."""
        if not self.accepted:
            rule = "" if f"[rule: {self.rule}]" in self.reason else f" [rule: {self.rule}]"
            return f"refused: {self.reason}{rule}"
        what = "already recorded" if self.already_recorded else "recorded"
        if len(self.event_ids) <= 3:
            return f"{what}: {', '.join(self.event_ids)}"
        return f"{what}: {len(self.event_ids)} events, {self.event_ids[0]} ... {self.event_ids[-1]}"


def in_parts(submit_one: Callable[[Any], Outcome], command: Any) -> Outcome:
    """Submit ``command`` through a door of bounded messages (``submit_one``: Kafka, HTTP): an
    ``ImportTeams`` over ``schemas.limits.MAX_MESSAGE_BYTES`` as its parts
    (``schemas.commands.import_batches``), in order, each decided on its own; anything else as it is.

    The whole import is first checked for a team listed twice (``processors.deciders.teams.
    listed_once``, the rule each part's decider applies to its own teams). The parts stop at the
    first refusal; teams of the parts before it stay recorded (the refusal says how many), and
    importing the corrected file again finds them already recorded (an identical registration is
    a retry). Returns one ``Outcome``: every part's event ids when all are accepted.
    """
    if not isinstance(command, ImportTeams):
        return submit_one(command)
    parts = import_batches(command)
    if len(parts) == 1:
        return submit_one(command)
    try:
        listed_once(command.teams)
    except RuleViolation as exc:
        return Outcome(False, field=exc.field, rule=exc.rule, reason=str(exc))
    ids: list[str] = []
    done = 0
    recorded = True
    for k, part in enumerate(parts, start=1):
        outcome = submit_one(part)
        if not outcome.accepted:
            before = f"; teams 1..{done} of {len(command.teams)} (parts 1..{k - 1} of {len(parts)}) are recorded" if done else ""
            return Outcome(False, field=outcome.field, rule=outcome.rule,
                           reason=f"import part {k} of {len(parts)} (teams {done + 1}..{done + len(part.teams)}): "
                                  f"{outcome.reason}{before}")
        ids.extend(outcome.event_ids)
        recorded = recorded and outcome.already_recorded
        done += len(part.teams)
    return Outcome(True, tuple(ids), already_recorded=recorded)


class EmbeddedDoor:
    """Commands decided in this process against ``store`` (a ``projections.store.EventStore``): the
    store's one writer (issue 25: one way in). ``decide`` raises a refusal, ``submit`` returns it
    as an ``Outcome``; both store what ``processors.deciders.handle`` yielded, in one transaction.
    An importer's facts go through here as ``ImportFacts`` (``import_facts``)."""

    def __init__(self, store: Any):
        self.store = store

    def decide(self, command: Any) -> Decision:
        """Decide ``command`` on the store's state and store the events it yields in one
        transaction; returns the ``Decision`` (``already_recorded`` for an identical retry).

        Raises ``RuleViolation`` (field, rule; for ``ImportFacts`` the refused fact's ``event_id``)
        and ``pydantic.ValidationError`` for an event the decider built that does not fit its
        schema; the store is then unchanged."""
        decision = handle(self.store.state, command)
        self.store._append_decided(decision.events)  # noqa: SLF001 - the store's one writer
        return decision

    def submit(self, command: Any) -> Outcome:
        """Decide ``command``; store its events in one transaction. Never raises for a refusal."""
        try:
            decision = self.decide(command)
        except RuleViolation as exc:
            return Outcome(False, field=exc.field, rule=exc.rule, reason=str(exc))
        except ValidationError as exc:  # an event the decider built does not fit its schema: the product's words
            p = refusals.problem(exc, schema=f"schema {exc.title}")
            return Outcome(False, field=p.field, rule=p.rule, reason=refusals.refusal_line(f"command {command.command}", p))
        return Outcome(True, tuple(e.event_id for e in (decision.events or decision.recorded)),
                       already_recorded=decision.already_recorded)

    def submit_all(self, commands: list[Any]) -> list[Outcome]:
        """``submit`` each of ``commands`` in order (what ``KafkaDoor.submit_all`` does in one
        round trip); their ``Outcome``."""
        return [self.submit(c) for c in commands]

    def log_head(self, tournament_id: str) -> tuple[Any, int, str | None]:
        """The store's state as it stands, its number of events and the chain head through them
        (``schemas.chain``; None when empty): what closing a round signs
        (``producers.signing.checkpoint_basis``)."""
        state = self.store.refresh()
        return state, len(state.applied), self.store.chain_head

    def checkpoint_basis(self, tournament_id: str, rnd: int) -> dict[str, Any] | None:
        """What closing round ``rnd`` signs, from the store as it stands (``producers.signing.checkpoint_basis``)."""
        from producers.signing import checkpoint_basis

        return checkpoint_basis(rnd, *self.log_head(tournament_id))

    def close(self) -> None:
        """Nothing to release (the store's engine is the caller's)."""


class KafkaDoor:
    """Commands published to Kafka (``bootstrap``; ``topic_prefix`` as in ``deploy.topics``) and
    decided by the processors; ``wait`` seconds for each verdict. ``principal``: who this door
    authenticates as (default ``$KAFKA_SASL_USERNAME``; None: PLAINTEXT, the message's actor)."""

    def __init__(self, bootstrap: str | None = None, topic_prefix: str | None = None, wait: float = 10.0,
                 principal: str | None = None):
        from kafka import KafkaConsumer, KafkaProducer, TopicPartition

        from deploy import kafka_security, topics

        self.topics = topics
        self.prefix = topic_prefix
        self.wait = wait
        self.principal = kafka_security.principal(principal)
        self.auth = kafka_security.client_config(self.principal)
        servers = bootstrap or topics.bootstrap_servers()
        self.producer = KafkaProducer(bootstrap_servers=servers, acks="all", enable_idempotence=True, linger_ms=0,
                                      client_id="olympiad-door", **self.auth)
        self.consumer = KafkaConsumer(bootstrap_servers=servers, enable_auto_commit=False, group_id=None,
                                      fetch_max_wait_ms=20, **self.auth)
        name = topics.name(topics.VERDICTS, topic_prefix)
        tps = [TopicPartition(name, p) for p in range(topics.VERDICTS.partitions)]
        self.consumer.assign(tps)
        self.consumer.seek_to_end(*tps)
        for tp in tps:  # resolve the positions now, before anything is published
            self.consumer.position(tp)
        self.verdicts: dict[str, dict[str, Any]] = {}

    def submit(self, command: Any) -> Outcome:
        """Publish ``command`` (with a fresh ``command_id``; a large import in parts, ``in_parts``)
        and wait for its verdict; a command over ``MAX_MESSAGE_BYTES`` is refused unsent.

        Raises ``TimeoutError`` when no verdict arrives within ``wait`` seconds (are the
        processors running?).
        """
        return in_parts(self._submit_one, command)

    def submit_all(self, commands: list[Any]) -> list[Outcome | None]:
        """Publish ``commands`` in order (each with a fresh ``command_id``; one message each: a
        command over ``MAX_MESSAGE_BYTES`` is refused unsent) and wait once for all their verdicts,
        ``wait`` seconds from the last send: a feed's poll in one round trip, not one per game.
        Returns their ``Outcome`` in order, None for a command whose verdict did not come."""
        sent = [self._publish(c) for c in commands]
        for _, _, future in sent:
            if future is not None:
                future.get(timeout=30)  # raises as ``submit`` does when the broker did not take it
        self._await({c.command_id for c, refused, _ in sent if refused is None}, time.monotonic() + self.wait)
        return [refused if refused is not None else self._verdict(c.command_id) if c.command_id in self.verdicts else None
                for c, refused, _ in sent]

    def _submit_one(self, command: Any) -> Outcome:
        command, refused, future = self._publish(command)
        if refused is not None:
            return refused
        future.get(timeout=30)
        if not self._await({command.command_id}, time.monotonic() + self.wait):
            raise TimeoutError(f"no verdict on {command.command} within {self.wait:g} s: are the processors running?")
        return self._verdict(command.command_id)

    def _publish(self, command: Any) -> tuple[Any, Outcome | None, Any]:
        """``command`` with its ``command_id``, the refusal of a command too large to send (else
        None) and the producer's future of the send (None when refused)."""
        command = command.model_copy(update={"command_id": command.command_id or uuid.uuid4().hex})
        value = canonical_json(command).encode()
        try:
            check_size(value)
        except MessageTooLarge as exc:
            return command, Outcome(False, field="(message)", rule="input size limits", reason=f"{command.command}: {exc}"), None
        topic = (self.topics.principal_topic(self.principal, self.prefix) if self.principal
                 else self.topics.name(self.topics.command_topic(command), self.prefix))
        return command, None, self.producer.send(topic, key=command.tournament_id.encode(), value=value)

    def _await(self, command_ids: set[str], deadline: float) -> bool:
        """Read ``verdicts`` until every one of ``command_ids`` has come or ``deadline`` passed;
        True if they all came."""
        while not command_ids <= self.verdicts.keys():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            for records in self.consumer.poll(timeout_ms=int(min(left, 0.5) * 1000)).values():
                for rec in records:
                    body = json.loads(rec.value)
                    self.verdicts[body.get("command_id")] = body
        return True

    def _verdict(self, command_id: str) -> Outcome:
        v = self.verdicts.pop(command_id)
        return Outcome(v["accepted"], tuple(v["event_ids"]), v["already_recorded"], v["field"], v["rule"], v["reason"])

    def log(self, tournament_id: str, through: str, timeout: float = 30.0) -> tuple[Any, str]:
        """The state and the hash chain head (``schemas.chain``) of ``tournament_id``'s
        ``tournament-log`` through the event ``through`` (waited for up to ``timeout`` s): read
        from offset 0 by a consumer of its own that commits nothing; a redelivered copy of an
        event is skipped (its first copy is the one in the chain)."""
        from kafka import KafkaConsumer, TopicPartition

        spec = self.topics.TOURNAMENT_LOG
        tp = TopicPartition(self.topics.name(spec, self.prefix), self.topics.partition_for(tournament_id.encode(), spec.partitions))
        consumer = KafkaConsumer(bootstrap_servers=self.producer.config["bootstrap_servers"], enable_auto_commit=False,
                                 group_id=None, fetch_max_wait_ms=50, **self.auth)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        state, head, deadline = TournamentState(), chain_start(tournament_id), time.monotonic() + timeout
        try:
            while through not in state.applied:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{through} is not on {tp.topic} after {timeout:g} s")
                for records in consumer.poll(timeout_ms=200).values():
                    for rec in records:
                        if rec.key != tournament_id.encode():
                            continue
                        event = parse_event(rec.value)
                        if state.evolve(event):
                            head = chain_next(head, rec.value.decode())
                        if event.event_id == through:
                            return state, head
        finally:
            consumer.close()
        return state, head

    def log_head(self, tournament_id: str) -> tuple[Any, int, str]:
        """The state of ``tournament_id``'s ``tournament-log`` as it stands (up to the end offset
        read when it starts), its number of events (first copies) and the chain head through them:
        what closing a round signs (``producers.signing.checkpoint_basis``). Read from offset 0
        by a consumer of its own that commits nothing."""
        from kafka import KafkaConsumer, TopicPartition

        spec = self.topics.TOURNAMENT_LOG
        tp = TopicPartition(self.topics.name(spec, self.prefix), self.topics.partition_for(tournament_id.encode(), spec.partitions))
        consumer = KafkaConsumer(bootstrap_servers=self.producer.config["bootstrap_servers"], enable_auto_commit=False,
                                 group_id=None, fetch_max_wait_ms=50, max_poll_records=5000, **self.auth)
        state, head = TournamentState(), chain_start(tournament_id)
        try:
            consumer.assign([tp])
            end = consumer.end_offsets([tp])[tp]
            consumer.seek_to_beginning(tp)
            while consumer.position(tp) < end:
                for records in consumer.poll(timeout_ms=200).values():
                    for rec in records:
                        if rec.offset < end and rec.key == tournament_id.encode() and state.evolve(parse_event(rec.value)):
                            head = chain_next(head, rec.value.decode())
        finally:
            consumer.close()
        return state, len(state.applied), head

    def checkpoint_basis(self, tournament_id: str, rnd: int) -> dict[str, Any] | None:
        """What closing round ``rnd`` signs, from ``tournament-log`` as it stands (``producers.signing.checkpoint_basis``)."""
        from producers.signing import checkpoint_basis

        return checkpoint_basis(rnd, *self.log_head(tournament_id))

    def close(self) -> None:
        """Flush and close the producer and the verdict consumer."""
        self.producer.flush()
        self.producer.close()
        self.consumer.close()
