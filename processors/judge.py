"""The pure judge of the Kafka input topics: one message in, a verdict out; no faust, no I/O.

``Judge`` holds one ``TournamentState`` per tournament, persisted in a mutable mapping (the faust
table ``judged`` in ``processors.app``, a dict in tests) as the lists of the events it accepted.
Every message of an input topic is a command (``schemas.commands``): the judge parses it, gives
it its producer's actor on a broker with authentication (``processors.principals.take_actor``),
and decides it with ``processors.deciders.handle``, the application layer every door calls. A
message without a ``"command"`` (a raw event, whatever its type) is refused with the rule
``COMMANDS_ONLY``: an event enters ``tournament-log`` only as the decision of a command (an
importer's facts as ``ImportFacts``), so no rule of a handler is skipped.

Decide once, evolve always: rebuilding a state from the store (after a restart or a rebalance)
only replays the stored events with ``TournamentState.evolve``; they were judged when they were
accepted, and a rule tightened since does not re-judge them.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import ValidationError

from processors import principals
from processors.deciders import handle
from processors.log_chain import LogChain
from processors.tournament import RuleViolation, TournamentState
from schemas import refusals
from schemas.canonical import canonical_json
from schemas.commands import parse_command
from schemas.dead_letters import MAX_REASON_CHARS
from schemas.events import EventSchemaError, parse_event
from schemas.limits import MAX_MESSAGE_BYTES, MessageTooLarge, load_message

log = logging.getLogger("olympiad.processors")

COMMANDS_ONLY = "input topics carry commands"
"""The rule a raw event on an input topic breaks: events enter the log as a command's decision."""
KEYED = "input events are keyed by tournament id"
"""The rule a message keyed by anything but its tournament id breaks (``deploy.topics.command_topic``)."""


@dataclass(frozen=True)
class Verdict:
    """What the judge decided about one message (a command).

    Accepted: ``events`` holds the events to append to ``tournament-log`` (for an identical
    retry, the events already held: re-appending them is harmless), ``already_recorded`` whether
    nothing was new. Refused: ``field``, ``rule`` and ``reason`` say why. ``command_id``: the
    command's, if it had one (its verdict goes to the ``verdicts`` topic).
    """

    events: tuple[Any, ...] = ()
    field: str = ""
    rule: str = ""
    reason: str = ""
    command_id: str | None = None
    already_recorded: bool = False
    accepted: bool = False

    def message(self) -> dict[str, Any]:
        """The ``verdicts`` topic's JSON body of this verdict."""
        return {"command_id": self.command_id, "accepted": self.accepted, "already_recorded": self.already_recorded,
                "event_ids": [e.event_id for e in self.events], "field": self.field, "rule": self.rule,
                "reason": self.reason}


class Judge:
    """One ``TournamentState`` per tournament, persisted as the lists of its accepted events.

    ``store`` is a mutable mapping (the faust table in the app, a dict in tests) holding
    ``"T/<seq>" -> JSON array of the canonical JSON of accepted events`` (``entry_key``), seq 0, 1, 2 ... one entry
    per ``commit`` (per batch: one changelog message per batch, not per event), in acceptance
    order. States are cached in memory and rebuilt from ``store`` on first use (after a restart or
    a rebalance) by replay only (``replay_stored``).
    """

    def __init__(self, store: Any):
        self.store = store
        self.states: dict[str, TournamentState] = {}
        self.counts: dict[str, int] = {}
        self.pending: dict[str, list[str]] = {}  # tournament -> canonical JSON accepted since the last commit
        self.touched: set[str] = set()  # tournaments whose state was looked up (``judge_message`` resets it)
        self.chain = LogChain()  # the hash chain of each tournament's tournament-log, kept with its state

    def forget(self) -> None:
        """Drop the cached states (partitions were revoked: the table may change elsewhere)."""
        self.states.clear()
        self.counts.clear()
        self.pending.clear()
        self.chain.forget()

    def state(self, tournament_id: str) -> TournamentState:
        """The state of ``tournament_id`` after its accepted events (rebuilt from the store if needed).

        The rebuild reads the entries whose key is exactly ``"<tournament_id>/<seq>"`` (``entry_seq``),
        then the events accepted since the last commit, and replays them (``replay_stored``: evolve,
        no rule check). A stored event that does not parse (stored by another build) is logged and
        skipped: one bad entry never makes every later event of the tournament fail.
        """
        self.touched.add(tournament_id)
        if tournament_id not in self.states:
            stored = sorted((seq, v) for k, v in self.store.items() if (seq := entry_seq(k, tournament_id)) is not None)
            state = TournamentState()
            self.chain.forget(tournament_id)  # rebuilt with the state, from the same events
            for seq, entry in stored:
                for body in entry_bodies(entry, tournament_id, seq):
                    if (event := replay_stored(state, body, f"{tournament_id}/{seq}")) is not None:
                        self.chain.add(tournament_id, event.event_id, canonical_json(body))  # the record's text again
            for body in self.pending.get(tournament_id, ()):
                if (event := replay_stored(state, body, f"{tournament_id}/pending")) is not None:
                    self.chain.add(tournament_id, event.event_id, body)
            self.states[tournament_id] = state
            self.counts[tournament_id] = max((seq for seq, _ in stored), default=-1) + 1
        return self.states[tournament_id]

    def judge(self, raw: bytes, key: bytes | None = None, principal: str | None = None,
              authenticated: bool = False) -> Verdict:
        """Parse and judge one raw message value, a command (``processors.deciders.handle``);
        accepted new events are held for ``commit``. A value without ``"command"`` is refused
        (field ``command``, rule ``COMMANDS_ONLY``).

        ``key``: the message key, if the message came from Kafka; it must be the tournament id
        (``deploy.topics.command_topic``), else the tournament's commands could be split between
        partitions, hence between processor instances and out of order.
        ``principal``: the producer of the commands topic the message came on (a broker with
        authentication), whose actor the command takes (``processors.principals.take_actor``).
        ``authenticated``: the broker authenticates its clients, so a command on a shared input
        topic (``principal`` None) is refused.
        """
        try:
            body = load_message(raw)
        except MessageTooLarge as exc:
            return Verdict(field="(message)", rule="input size limits", reason=str(exc))
        except ValueError as exc:
            return Verdict(field="(line)", rule="JSON syntax", reason=f"malformed JSON: {exc} [rule: JSON syntax]")
        if not (isinstance(body, dict) and "command" in body):
            return Verdict(field="command", rule=COMMANDS_ONLY, reason=_not_a_command(body, principal))
        try:
            command = parse_command(body)
        except EventSchemaError as exc:
            command_id = body.get("command_id") if isinstance(body.get("command_id"), str) else None
            return Verdict(field=exc.field, rule=exc.rule, reason=str(exc), command_id=command_id)
        command_id = command.command_id
        if key is not None and key != command.tournament_id.encode():
            return Verdict(field="key", rule=KEYED, command_id=command_id,
                           reason=f"message key {key.decode('utf-8', 'replace')!r} is not the tournament id {command.tournament_id!r}")
        try:
            if principal is not None or authenticated:
                command = principals.take_actor(command, principal)
            decision = handle(self.state(command.tournament_id), command)
        except RuleViolation as exc:
            return Verdict(field=exc.field, rule=exc.rule, reason=str(exc), command_id=command_id)
        # A command that yields nothing new (an identical retry, a feed's unchanged game) holds no
        # store entry: an empty one would reach ``commit`` for a tournament no event of the batch
        # names (the app keys the changelog partition by those events: KeyError, the agent stopped).
        for e in decision.events:
            self.pending.setdefault(command.tournament_id, []).append(text := canonical_json(e))
            self.chain.add(e.tournament_id, e.event_id, text)
        return Verdict(events=decision.events or decision.recorded, command_id=command_id,
                       already_recorded=decision.already_recorded, accepted=True)

    def commit(self) -> list[tuple[str, str, str]]:
        """The store entries of the events accepted since the last commit: ``(T, key, value)``, one
        per tournament, or several when its events are more than ``MAX_MESSAGE_BYTES`` as a
        changelog record (a large import's events would not fit one Kafka record). The caller writes
        them to ``store`` (the faust table needs the partition)."""
        entries = []
        for tid, bodies in self.pending.items():
            if not bodies:  # nothing accepted for it since the last commit: no entry
                continue
            for chunk in entry_chunks(bodies, MAX_MESSAGE_BYTES):
                entries.append((tid, entry_key(tid, self.counts[tid]), "[" + ",".join(chunk) + "]"))
                self.counts[tid] += 1
        self.pending.clear()
        return entries


def _not_a_command(body: Any, principal: str | None) -> str:
    """The reason of a refused message that is no command: what it is and where it came."""
    what = body.get("type") if isinstance(body, dict) and isinstance(body.get("type"), str) else "a message"
    where = f"the commands topic of {principal!r}" if principal is not None else "an input topic"
    return (f"command: {what[:64]} without a \"command\" came on {where}; input topics carry commands only: an event enters the "
            "log as a command's decision (an importer's facts as ImportFacts) [rule: " + COMMANDS_ONLY + "]")


def entry_chunks(bodies: list[str], limit: int) -> list[list[str]]:
    """``bodies`` in consecutive runs whose store entry, as the changelog record carries it (the
    JSON array as a JSON string, every ``"`` escaped: the table's json serializer), is at most
    ``limit`` bytes (a body alone over it is a run of its own)."""
    runs: list[list[str]] = [[]]
    size = 4
    for body in bodies:
        n = len(orjson.dumps(body)) - 1  # escaped, less its quotes, plus a comma
        if runs[-1] and size + n > limit:
            runs.append([])
            size = 4
        runs[-1].append(body)
        size += n
    return runs


def entry_key(tournament_id: str, seq: int) -> str:
    """The store key of entry ``seq`` of ``tournament_id``: ``"<tournament_id>/<seq>"``."""
    return f"{tournament_id}/{seq}"


def entry_seq(key: str, tournament_id: str) -> int | None:
    """The seq of store key ``key`` if it is an entry of ``tournament_id``, else None.

    The tournament part is everything before the *last* ``/`` and must equal ``tournament_id``
    exactly: the entry ``"T/x/0"`` of a crafted tournament ``T/x`` is not an entry of ``T``
    (a prefix test read it as one, with seq ``"x/0"``, and every later event of ``T`` failed).
    """
    head, sep, seq = key.rpartition("/")
    if not sep or head != tournament_id or not seq.isdigit() or not seq.isascii():
        return None
    return int(seq)


def entry_bodies(entry: Any, tournament_id: str, seq: int) -> list[Any]:
    """The event bodies of one store entry (a JSON array); an unreadable entry is logged and skipped."""
    try:
        bodies = json.loads(entry)
        if not isinstance(bodies, list):
            raise ValueError("not a JSON array")
        return bodies
    except (TypeError, ValueError) as exc:
        log.error("store entry %s/%s skipped: %s", tournament_id, seq, exc)
        return []


def replay_stored(state: TournamentState, body: Any, where: str) -> Any:
    """Replay one stored event into ``state`` during a rebuild (``parse_event``, then
    ``TournamentState.evolve``: it was judged when it was accepted) and return it; None for a copy
    of an event replayed before. One that does not parse, or that ``evolve`` cannot take (an id
    reused for another event, a derived type: written by another build), is logged and skipped."""
    try:
        event = parse_event(body)
        return event if state.evolve(event) else None
    except (EventSchemaError, RuleViolation) as exc:
        log.error("stored event of %s skipped on rebuild: %s", where, str(exc)[:MAX_REASON_CHARS])
        return None


def judge_message(judge: Judge, raw: bytes | None, key: bytes | None, principal: str | None = None,
                  authenticated: bool = False) -> Verdict:
    """Judge one Kafka message on its own: the verdict of ``judge.judge``, or a refusal.

    A message without a key is refused like a wrongly keyed one (it may sit on any partition).
    Any exception while judging (a bug, a value no rule foresaw) refuses that message alone
    (field ``(message)``, rule ``judged without error``): what the call held for commit is
    dropped and the states it looked up are forgotten, to be rebuilt from the store and the
    batch's accepted events, so neither its batch mates nor the state are touched.
    """
    if key is None:
        return Verdict(field="key", rule=KEYED, reason="message has no key; input messages are keyed by their tournament id")
    if raw is None:
        return Verdict(field="(message)", rule="JSON object", reason="message has no value")
    held = {tid: len(bodies) for tid, bodies in judge.pending.items()}
    judge.touched = set()
    try:
        return judge.judge(raw, key, principal, authenticated)
    except Exception as exc:  # noqa: BLE001 - one message's failure must not stop the partition
        if not isinstance(exc, ValidationError):  # its traceback would print the library's text
            log.exception("judging a message failed; it goes to dead-letters")
        for tid in list(judge.pending):
            if tid in held:
                del judge.pending[tid][held[tid]:]
            else:
                del judge.pending[tid]
        for tid in judge.touched:
            judge.states.pop(tid, None)
        if isinstance(exc, ValidationError):  # a model our code built from the message: the product's words
            p = refusals.problem(exc, schema=f"schema {exc.title}")
            log.error("judging a message failed; it goes to dead-letters: %s", refusals.refusal_line(exc.title, p))
            return Verdict(field=p.field, rule="judged without error",
                           reason=refusals.refusal_line(exc.title, p)[:MAX_REASON_CHARS])
        return Verdict(field="(message)", rule="judged without error", reason=f"{type(exc).__name__}: {exc}"[:MAX_REASON_CHARS])
