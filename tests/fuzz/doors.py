"""Mutated events and commands through each door of olympiad-events (issue 12, acceptance 1).

A *mutant* is a valid event or command of a small tournament (``tests.factories``: four teams,
round 1 paired) with one mutation: a field set to another JSON value (wrong types, lone
surrogates, control characters, NUL, very long text, ``T/x`` ids, ``true`` for a number, ``"1_0"``,
``"2026"``), a field removed, an unknown field added, deep nesting, or its bytes cut, spliced or
replaced. Each door takes the valid registration, then the mutant, then a valid result beside it
(the *survivor*: round 1, table 2, board 1), and ``Counts`` records:

- ``crashes``: an exception the door let out (or, for the processors, caught by their
  last-resort handler: ``judged without error``); the worker's dead letters of an exception
  (``projected without error``: it evolves accepted events without re-checking the rules, so an
  event the processors would refuse can fail in the projection) are counted apart, ``exceptions``;
- ``invalid_accepted``: an accepted mutant that breaks an input limit (``violations``: text that
  is not Unicode scalar values without control characters or is untrimmed or too long, an id off
  its grammar, a JSON type converted: ``true`` read as 1, ``"1_0"`` as 10, ``2026`` as a date);
- ``unnamed``: a refusal that does not name both the field and the rule;
- ``lost``: a valid survivor beside a refused mutant that was not accepted, or a store or state
  that no longer opens after what the door accepted.

Doors: the event store (``EventStore.append``), the log loader (``read_log``), the HTTP API
(FastAPI ``TestClient``), the Kafka processors' ``Judge`` (``judge_message``, dict store) and the
projection worker (``Projector.apply_batch``). ``run(door, examples)`` drives one door with
hypothesis; ``tests/fuzz/test_fuzz_doors.py`` runs a short profile, ``bench/bench_fuzz.py`` 10,000+.
"""
from __future__ import annotations

import json
import logging
import re
import secrets
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas.canonical import canonical_json
from schemas.limits import MAX_MESSAGE_BYTES, MAX_REASON
from tests.factories import TID, board, four_team_round_one, imported, team

NASTY = ["", " ", "  padded  ", "\ud800", "a\udfffb", "\x00", "nul\x00inside", "\x1b[31m", "\u0085", "T/x", f"{TID}/x",
         "1_0", "2026", "1", "true", "1-0", "+/-", "A" * 41, "x" * (MAX_REASON + 1), "x" * 70_000, "..", "../etc",
         "0x10", "1e3", "NaN", "Infinity", "-1", "\u202e", "\ufeff", "名前", "😀"]
RAW_JSON = [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-0", b"1.0", b"10000000000000000000000", b"\"\\ud800\""]
ID_KEYS = {"event_id", "team_id", "supersedes", "home", "away", "winner", "bye", "command_id"}
TOURNAMENT_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
EVENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:/@+=-]{0,199}$")


def _retarget(body: dict[str, Any], tid: str) -> dict[str, Any]:
    """``body`` moved to tournament ``tid`` (its event id too: an event's id is derived from its
    tournament and content, ``schemas.event_ids``)."""
    if tid != TID and "tournament_id" in body:
        body["tournament_id"] = tid
        if isinstance(body.get("event_id"), str) and body["event_id"].startswith(f"{TID}/"):
            body["event_id"] = tid + body["event_id"][len(TID):]
    return body


def _survivor(tid: str) -> dict[str, Any]:
    return _retarget(json.loads(canonical_json(board(1, 2, 1, "1-0"))), tid)


def registration(tid: str = TID) -> list[dict[str, Any]]:
    """The valid registration (created, four teams, round 1 paired) of tournament ``tid``, as JSON."""
    return [_retarget(json.loads(canonical_json(e)), tid) for e in four_team_round_one()[:6]]


def _actor(role: str = "chief") -> dict[str, Any]:
    return {"role": role, "id": "chief-arbiter"}


def templates() -> list[dict[str, Any]]:
    """The valid events and commands mutated (each valid right after ``registration``)."""
    events = [json.loads(canonical_json(e)) for e in (
        board(1, 1, 1, "1-0"), team("E", 5),
    )]
    events.append({"type": "MatchForfeited", "event_id": f"{TID}/r1/t1/forfeit", "tournament_id": TID, "round": 1, "table": 1,
                   "winner": "A", "reason": "absence"})
    events.append({"type": "TeamWithdrawn", "event_id": f"{TID}/team/B/withdrawn", "tournament_id": TID, "team_id": "B",
                   "from_round": 2, "reason": "left the event"})
    events.append({"type": "BoardResultRecorded", "event_id": f"{TID}/r1/t1/b2", "tournament_id": TID, "round": 1, "table": 1,
                   "board": 2, "result": "+/-", "reason": "late arrival", "occurred_at": "2026-09-12T15:00:00+05:00"})
    commands = [
        {"command": "RecordResults", "tournament_id": TID, "actor": _actor("terminal") | {"table": 1}, "round": 1, "table": 1,
         "command_id": "cmd-1", "boards": [{"board": 1, "result": "1-0"}, {"board": 2, "result": "1/2-1/2", "note": "draw"}]},
        {"command": "WithdrawTeam", "tournament_id": TID, "actor": _actor(), "team_id": "B", "from_round": 2,
         "reason": "left the event", "command_id": "cmd-2"},
        {"command": "CorrectResult", "tournament_id": TID, "actor": _actor(), "round": 1, "table": 1, "board": 1,
         "result": "0-1", "reason": "scoresheet", "command_id": "cmd-3"},
    ]
    return events + commands


TEMPLATES = templates()


def _leaf_paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indexes) to a value inside ``value``, the containers included."""
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            paths += _leaf_paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            paths += _leaf_paths(v, prefix + (i,))
    return paths


def _text() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(NASTY), st.text(st.characters(blacklist_categories=()), max_size=30))


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value (and Python's NaN/Infinity), weighted to the values that broke doors."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.sampled_from([0, -1, 1, 5, 99, 1000, 10**6]),
                        st.floats(allow_nan=True, allow_infinity=True), _text())
    return st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(_text(), inner, max_size=4)), max_leaves=8)


@dataclass(frozen=True)
class Mutant:
    """One mutation of template ``index``; ``render(tid)`` gives its bytes for tournament ``tid``."""

    index: int
    op: str
    path: tuple = ()
    value: Any = None
    cut: int = 0
    splice: bytes = b""

    @property
    def template(self) -> dict[str, Any]:
        return TEMPLATES[self.index]

    def body(self, tid: str) -> Any:
        """The mutated JSON value (None for the byte-level mutations)."""
        body = _retarget(json.loads(json.dumps(self.template)), tid)
        if self.op == "set":
            _set(body, self.path, self.value)
        elif self.op == "delete":
            _delete(body, self.path)
        elif self.op == "add":
            body[self.value[0]] = self.value[1]
        elif self.op == "nest":
            inner: Any = body
            for _ in range(self.cut):
                inner = [inner]
            return {**body, "players": inner} if "players" in body else inner
        return body

    def render(self, tid: str) -> bytes:
        body = self.body(tid)
        text = json.dumps(body).encode()  # ensure_ascii: a lone surrogate goes as the JSON escape \\ud800
        if self.op == "bytes-cut":
            return text[: self.cut % (len(text) + 1)]
        if self.op == "bytes-splice":
            at = self.cut % (len(text) + 1)
            return text[:at] + self.splice + text[at:]
        if self.op == "raw-value":
            return text.replace(json.dumps(_get(body, self.path)).encode(), self.splice, 1)
        return text


def _get(body: Any, path: tuple) -> Any:
    for p in path:
        body = body[p]
    return body


def _set(body: Any, path: tuple, value: Any) -> None:
    _get(body, path[:-1])[path[-1]] = value


def _delete(body: Any, path: tuple) -> None:
    del _get(body, path[:-1])[path[-1]]


@st.composite
def mutants(draw: Any) -> Mutant:
    index = draw(st.integers(0, len(TEMPLATES) - 1))
    paths = _leaf_paths(TEMPLATES[index])
    op = draw(st.sampled_from(["set", "set", "set", "set", "delete", "add", "nest", "bytes-cut", "bytes-splice", "raw-value"]))
    path = draw(st.sampled_from(paths))
    if op == "set":
        return Mutant(index, op, path, draw(json_values()))
    if op == "delete":
        return Mutant(index, op, path)
    if op == "add":
        return Mutant(index, op, value=(draw(_text()), draw(json_values())))
    if op == "nest":
        return Mutant(index, op, cut=draw(st.sampled_from([3, 8, 9, 50, 500])))
    if op == "raw-value":
        return Mutant(index, op, path, splice=draw(st.sampled_from(RAW_JSON)))
    return Mutant(index, op, cut=draw(st.integers(0, 2000)),
                  splice=draw(st.sampled_from([b"\x00", b"\xff", b"\n", b"\"", b"}", b"{", b",", b"\\", b"\xed\xa0\x80", b"[" * 5000])))


# ------------------------------------------------------------------ the oracle of "invalid"
def violations(raw: Any, accepted: dict[str, Any]) -> list[str]:
    """What is wrong with an accepted event or command (``accepted``: its JSON as the door keeps
    it) given the mutated input ``raw`` (its JSON value, or None): input limits broken."""
    out: list[str] = []
    _walk_accepted(accepted, "", out)
    if isinstance(raw, (dict, list)):
        _walk_pair(raw, accepted, "", out)
    try:
        size = len(canonical_json(accepted).encode())
    except TypeError as exc:  # orjson: a lone surrogate cannot be written as UTF-8
        out.append(f"accepted what has no canonical JSON: {exc}")
    else:
        if size > MAX_MESSAGE_BYTES:
            out.append(f"accepted a message over {MAX_MESSAGE_BYTES} bytes")
    return out


def _walk_accepted(value: Any, where: str, out: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _walk_accepted(v, f"{where}.{k}" if where else k, out)
            if isinstance(v, str) and k == "tournament_id" and not TOURNAMENT_ID.match(v):
                out.append(f"{where}.{k}: tournament id {v[:40]!r} off its grammar")
            elif isinstance(v, str) and k in ID_KEYS and not EVENT_ID.match(v):
                out.append(f"{where}.{k}: id {v[:40]!r} off its grammar")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _walk_accepted(v, f"{where}.{i}", out)
    elif isinstance(value, str):
        bad = [ch for ch in value if 0xD800 <= ord(ch) <= 0xDFFF or unicodedata.category(ch) == "Cc"]
        if bad:
            out.append(f"{where}: text holds U+{ord(bad[0]):04X}")
        if value != value.strip():
            out.append(f"{where}: text not trimmed")
        if len(value) > max(MAX_REASON, 200) and not where.endswith("trace"):
            out.append(f"{where}: text of {len(value)} characters")


def _walk_pair(raw: Any, kept: Any, where: str, out: list[str]) -> None:
    """Types converted between the input and what was kept (bool <-> number, text -> number, number -> text)."""
    if isinstance(raw, dict) and isinstance(kept, dict):
        for k in raw.keys() & kept.keys():
            _walk_pair(raw[k], kept[k], f"{where}.{k}" if where else k, out)
    elif isinstance(raw, list) and isinstance(kept, list) and len(raw) == len(kept):
        for i, (r, k) in enumerate(zip(raw, kept)):
            _walk_pair(r, k, f"{where}.{i}", out)
    elif isinstance(raw, bool) != isinstance(kept, bool) and raw is not None and kept is not None:
        out.append(f"{where}: {raw!r} kept as {kept!r}")
    elif isinstance(raw, str) and isinstance(kept, (int, float)):
        out.append(f"{where}: text {raw[:20]!r} kept as the number {kept!r}")
    elif isinstance(raw, (int, float)) and not isinstance(raw, bool) and isinstance(kept, str):
        out.append(f"{where}: number {raw!r} kept as the text {kept[:30]!r}")
    elif isinstance(raw, float) and isinstance(kept, int) and not isinstance(kept, bool):
        out.append(f"{where}: {raw!r} kept as the integer {kept!r}")


# ------------------------------------------------------------------ counts
@dataclass
class Counts:
    """What one door did with its mutants (see the module docstring); ``samples`` keeps a few of each problem."""

    door: str
    mutants: int = 0
    accepted: int = 0
    refused: int = 0
    crashes: int = 0
    invalid_accepted: int = 0
    unnamed: int = 0
    lost: int = 0
    exceptions: int = 0  # worker only: refused by dead-lettering the exception (it evolves without re-checking rules)
    samples: dict[str, list[str]] = field(default_factory=dict)

    def problem(self, kind: str, mutant: Mutant, text: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        held = self.samples.setdefault(kind, [])
        if len(held) < 5:
            held.append(f"{mutant!r:.300} -> {text[:400]}")

    def refusal(self, mutant: Mutant, field_: Any, rule: Any) -> None:
        self.refused += 1
        if not field_ or not rule:
            self.problem("unnamed", mutant, f"field={field_!r} rule={rule!r}")

    def ok(self) -> bool:
        return not (self.crashes or self.invalid_accepted or self.unnamed or self.lost)

    def line(self) -> str:
        return (f"{self.door:10} mutants {self.mutants:6}  accepted {self.accepted:5}  refused {self.refused:6}  "
                f"crashes {self.crashes}  invalid accepted {self.invalid_accepted}  unnamed refusals {self.unnamed}  "
                f"valid lost {self.lost}" + (f"  (dead-lettered exceptions {self.exceptions})" if self.exceptions else ""))


def _json_or_none(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


# ------------------------------------------------------------------ doors
class StoreDoor:
    """The parsed mutant (an event; commands are not this door's input) imported into a store as
    an ``ImportFacts`` command (the store's one way in), then the survivor; the store must reopen
    with both."""

    name = "store"

    def __call__(self, m: Mutant, c: Counts) -> None:
        from processors.tournament import RuleViolation
        from projections.store import EventStore
        from schemas.commands import parse_command
        from schemas.events import EventSchemaError, parse_event

        if "command" in m.template:
            return
        c.mutants += 1
        store = EventStore("sqlite://")
        imported(store, [parse_event(b) for b in registration()])
        raw = m.render(TID)
        accepted = False
        try:
            event = parse_event(raw)
            imported(store, parse_command({"command": "ImportFacts", "tournament_id": TID, "source": "fuzz",
                                           "actor": {"role": "importer", "id": "import"},
                                           "facts": [event.model_dump(mode="json")]}).facts)
            accepted = True
        except (EventSchemaError, RuleViolation) as exc:
            c.refusal(m, exc.field, exc.rule)
        except Exception as exc:  # noqa: BLE001 - what the fuzz counts
            c.problem("crashes", m, f"{type(exc).__name__}: {exc}")
            return
        if accepted:
            c.accepted += 1
            for v in violations(_json_or_none(raw), json.loads(canonical_json(event))):
                c.problem("invalid_accepted", m, v)
        try:
            imported(store, [parse_event(_survivor(TID))])
        except RuleViolation as exc:
            if not accepted:
                c.problem("lost", m, f"survivor refused: {exc}")
        try:
            again = EventStore(engine=store.engine)
            if [e.event_id for e in again.events()] != [e.event_id for e in store.events()]:
                c.problem("lost", m, "the reopened store differs")
        except Exception as exc:  # noqa: BLE001
            c.problem("lost", m, f"the store no longer opens: {type(exc).__name__}: {exc}")


class LogDoor:
    """``read_log`` of a log file: the registration, the mutant line, the survivor."""

    name = "log"

    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="fuzz-log-")) / "events.jsonl"
        self.head = b"".join(json.dumps(b).encode() + b"\n" for b in registration())

    def __call__(self, m: Mutant, c: Counts) -> None:
        from projections.eventlog import read_log
        from schemas.events import EventSchemaError

        if "command" in m.template:
            return
        c.mutants += 1
        raw = m.render(TID)
        self.path.write_bytes(self.head + raw + b"\n" + json.dumps(_survivor(TID)).encode() + b"\n")
        try:
            events = read_log(self.path)
        except EventSchemaError as exc:
            c.refusal(m, exc.field, exc.rule)
            numbers = re.findall(r"\bline (\d+)", str(exc))
            if len(numbers) != 1 or int(numbers[0]) < 7:
                c.problem("unnamed", m, f"refusal names lines {numbers}: {exc}")
            return
        except Exception as exc:  # noqa: BLE001
            c.problem("crashes", m, f"{type(exc).__name__}: {exc}")
            return
        c.accepted += 1
        for e in events[6:-1]:
            for v in violations(_json_or_none(raw) if len(events) == 8 else None, json.loads(canonical_json(e))):
                c.problem("invalid_accepted", m, v)
        if events[-1].event_id != _survivor(TID)["event_id"]:
            c.problem("lost", m, "the survivor is not the last event read")


def _imported(tid: str, facts: bytes) -> bytes:
    """An ``ImportFacts`` of tournament ``tid`` whose ``facts`` array holds the JSON texts ``facts``
    (whatever bytes a mutant is: a broken one breaks the message, as it would on the topic)."""
    head = json.dumps({"command": "ImportFacts", "tournament_id": tid, "actor": {"role": "importer", "id": "fuzz"},
                       "source": "fuzz"})
    return head[:-1].encode() + b', "facts": [' + facts + b"]}"


class JudgeDoor:
    """The Kafka processors' ``judge_message`` (commands; an event mutant as the one fact of an
    ``ImportFacts``: the input topics carry commands), keyed by the tournament id, then the
    survivor; the store must rebuild the same state."""

    name = "processors"

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, m: Mutant, c: Counts) -> None:
        from processors.judge import Judge, judge_message

        c.mutants += 1
        self.n += 1
        tid = f"f{self.n}"
        store: dict = {}
        judge = Judge(store)
        assert judge_message(judge, _imported(tid, b",".join(json.dumps(b).encode() for b in registration(tid))),
                             tid.encode()).accepted
        raw = m.render(tid)
        verdict = judge_message(judge, raw if "command" in m.template else _imported(tid, raw), tid.encode())
        if verdict.rule == "judged without error":
            c.problem("crashes", m, verdict.reason)
        elif verdict.accepted:
            c.accepted += 1
            for e in verdict.events:
                for v in violations(_json_or_none(raw) if "command" not in m.template else None, json.loads(canonical_json(e))):
                    c.problem("invalid_accepted", m, v)
        else:
            c.refusal(m, verdict.field, verdict.rule)
        survivor = judge_message(judge, _imported(tid, json.dumps(_survivor(tid)).encode()), tid.encode())
        if not survivor.accepted and not verdict.accepted:
            c.problem("lost", m, f"survivor refused: {survivor.reason}")
        for _, key, value in judge.commit():
            store[key] = value
        rebuilt = Judge(store).state(tid)
        if set(rebuilt.applied) != set(judge.state(tid).applied):
            c.problem("lost", m, "the state rebuilt from the store differs")


class WorkerDoor:
    """``Projector.apply_batch`` of one batch: the registration, the mutant, the survivor (each
    example its own tournament, in one database)."""

    name = "worker"

    def __init__(self) -> None:
        from projections.projector import Projector
        from projections.worker import make_engine

        self.projector = Projector(make_engine("sqlite://"), "fuzz")
        self.n = 0

    def __call__(self, m: Mutant, c: Counts) -> None:
        import sqlalchemy as sa

        from projections.store import events_table

        if "command" in m.template:
            return
        c.mutants += 1
        self.n += 1
        tid = f"w{self.n}"
        values = [json.dumps(b).encode() for b in registration(tid)] + [m.render(tid), json.dumps(_survivor(tid)).encode()]
        records = [_Record("tournament-log", 0, self.n * 100 + i, tid.encode(), v) for i, v in enumerate(values)]
        self.projector.dead_letters.clear()
        try:
            self.projector.apply_batch(records)
        except Exception as exc:  # noqa: BLE001
            c.problem("crashes", m, f"{type(exc).__name__}: {exc}")
            return
        letters = [json.loads(d) for d in self.projector.dead_letters]
        mine = [d for d in letters if d["offset"] == records[6].offset]
        asked = {tid}
        other = _mutant_tid(m, tid)
        if isinstance(other, str) and other.isprintable() and not any(0xD800 <= ord(ch) <= 0xDFFF for ch in other):
            asked.add(other)  # a tournament id no driver can send (a lone surrogate) cannot have been stored either
        with self.projector.engine.connect() as conn:
            kept = conn.execute(sa.select(events_table.c.event_id, events_table.c.body).where(
                events_table.c.tournament_id.in_(asked))).all()
        ids = {r.event_id for r in kept}
        registered = {b["event_id"] for b in registration(tid)}
        if mine:
            c.refusal(m, mine[0]["field"], mine[0]["rule"])
            if mine[0]["rule"] == "projected without error":
                # Not a crash: the worker trusts tournament-log (no rule re-checks) and dead-letters
                # what it cannot project with the exception, as issue 12 asks; counted apart.
                c.problem("exceptions", m, mine[0]["reason"])
        elif len(kept) > 7 or (len(kept) == 7 and _survivor(tid)["event_id"] not in ids):
            c.accepted += 1
            base = registered | {_survivor(tid)["event_id"]}
            for r in kept:
                if r.event_id not in base:
                    for v in violations(_json_or_none(m.render(tid)), json.loads(r.body)):
                        c.problem("invalid_accepted", m, v)
        else:
            c.refused += 1  # a copy of a registered event: a no-op
        if not registered <= ids:
            c.problem("lost", m, f"registration events not projected: {sorted(registered - ids)[:3]}")
        if _survivor(tid)["event_id"] not in ids:
            if mine or not any(d["offset"] == records[7].offset for d in letters):
                # The mutant was dead-lettered (or the survivor vanished): nothing excuses the survivor.
                c.problem("lost", m, "the survivor was not projected" + (" (dead-lettered)" if mine else ""))


def _mutant_tid(m: Mutant, tid: str) -> str:
    body = m.body(tid)
    value = body.get("tournament_id") if isinstance(body, dict) else None
    return value if isinstance(value, str) else tid


@dataclass(frozen=True)
class _Record:
    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes
    headers: tuple[tuple[str, bytes], ...] = ()  # a kafka-python ConsumerRecord always has them


class HttpDoor:
    """The HTTP API (FastAPI ``TestClient`` over the embedded store): mutated bodies of the
    results, corrections and forfeit endpoints (and their table in the path), then the
    survivor's result entry; every accepted write's events are checked."""

    name = "http"

    def __init__(self) -> None:
        from fastapi.testclient import TestClient

        from schemas.events import parse_event
        from tests.web_app import embedded_app

        self.chief = secrets.token_urlsafe(16)
        app, self.store, _ = embedded_app([parse_event(b) for b in registration()], self.chief)
        self.client = TestClient(app, raise_server_exceptions=False)
        self.client.__enter__()
        self.bodies = [
            ("results", {"boards": [{"board": 1, "result": "1-0"}, {"board": 2, "result": "0-1"}]}),
            ("corrections", {"board": 1, "result": "0-1", "reason": "scoresheet shows Black won"}),
            ("forfeit", {"winner": "A", "reason": "no show", "forfeit": "absence"}),
        ]

    def close(self) -> None:
        self.client.__exit__(None, None, None)

    def __call__(self, m: Mutant, c: Counts) -> None:
        c.mutants += 1
        endpoint, body = self.bodies[m.index % len(self.bodies)]
        table: Any = 1
        if m.op == "set" and m.path and m.path[0] == "table":
            table, raw = m.value, json.dumps(body).encode()
        else:
            raw = _mutate_body(body, m)
        before = len(self.store.events())
        headers = {"Authorization": f"Bearer {self.chief}", "Content-Type": "application/json"}
        path_table = table if isinstance(table, (int, str)) and not isinstance(table, bool) else json.dumps(table)
        try:
            answer = self.client.post(f"/api/tournaments/{TID}/rounds/1/tables/{path_table}/{endpoint}", content=raw,
                                      headers=headers)
        except Exception as exc:  # noqa: BLE001 - e.g. a URL the client itself cannot send
            if "url" in type(exc).__name__.lower() or "invalid" in str(exc).lower():
                c.mutants -= 1
                return
            c.problem("crashes", m, f"{type(exc).__name__}: {exc}")
            return
        if answer.status_code >= 500:
            c.problem("crashes", m, f"{answer.status_code} {answer.text[:300]}")
        elif answer.status_code >= 400:
            try:
                refusal = answer.json()
            except ValueError:
                refusal = {}
            c.refusal(m, refusal.get("field"), refusal.get("rule"))
        else:
            c.accepted += 1
            for e in self.store.events()[before:]:
                for v in violations(None, json.loads(canonical_json(e))):
                    c.problem("invalid_accepted", m, v)
        survivor = self.client.post(f"/api/tournaments/{TID}/rounds/1/tables/2/results", headers=headers,
                                    json={"boards": [{"board": 1, "result": "1-0"}]})
        if survivor.status_code >= 300:
            c.problem("lost", m, f"survivor answered {survivor.status_code}: {survivor.text[:200]}")


def _mutate_body(body: dict[str, Any], m: Mutant) -> bytes:
    """``m``'s mutation applied to an HTTP body instead of its own template (same kind of change)."""
    body = json.loads(json.dumps(body))
    paths = _leaf_paths(body)
    path = paths[hash(m.path) % len(paths)] if paths else ()
    if m.op == "set" and path:
        _set(body, path, m.value)
    elif m.op == "delete" and path:
        _delete(body, path)
    elif m.op == "add":
        body[m.value[0]] = m.value[1]
    elif m.op == "nest":
        inner: Any = body
        for _ in range(m.cut):
            inner = [inner]
        body = inner
    text = json.dumps(body).encode()
    if m.op == "bytes-cut":
        return text[: m.cut % (len(text) + 1)]
    if m.op in ("bytes-splice", "raw-value"):
        at = m.cut % (len(text) + 1)
        return text[:at] + m.splice + text[at:]
    return text


DOORS: dict[str, Callable[[], Any]] = {"store": StoreDoor, "log": LogDoor, "http": HttpDoor, "processors": JudgeDoor,
                                       "worker": WorkerDoor}


def run(door_name: str, examples: int, seed: int | None = None) -> Counts:
    """Drive ``examples`` hypothesis-generated mutants through one door; return its counts."""
    door = DOORS[door_name]()
    counts = Counts(door_name)

    @settings(max_examples=examples, database=None, deadline=None, derandomize=seed is None,
              suppress_health_check=list(HealthCheck))
    @given(mutants())
    def drive(m: Mutant) -> None:
        door(m, counts)

    if seed is not None:
        drive = __import__("hypothesis").seed(seed)(drive)
    logging.disable(logging.CRITICAL)  # every refusal is logged by the doors: thousands of lines
    try:
        drive()
    finally:
        logging.disable(logging.NOTSET)
        if hasattr(door, "close"):
            door.close()
    return counts
