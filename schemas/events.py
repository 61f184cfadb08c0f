"""Event schemas: immutable facts of a tournament, as stored and published.

Every event has a ``type`` name, a per-type ``schema_version``, a globally unique ``event_id``
(derived by the server from the command that made it, ``processors.deciders.identity``), the
``tournament_id`` it belongs to, when it happened (``occurred_at``) and who did it (``actor``:
the chief arbiter's, an arbiter's, a terminal's or a captain's id; None for imported facts).
Fields use the input limits of ``schemas.limits``: what does not fit is refused at every door.

``parse_event`` reads any stored or published form: an older version is brought to the current
one by the upcasters in ``UPCASTERS`` (a stored event is never rewritten). ``schemas.canonical``
gives the byte-exact JSON form used for digests.

Colours: the home team of a table has White on boards 1 and 3 and Black on boards 2 and 4
(R-D4); a board result code is always written White-Black.
"""
from __future__ import annotations

import re
from datetime import date, datetime
from types import UnionType
from typing import Annotated, Any, Callable, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import from_json

from schemas import limits, refusals
from schemas.event_base import EventBase as _Event
from schemas.game_events import GAME_EVENTS
from schemas.limits import (
    Board, Bool, EventId, Federation, FideId, Int, Name, Note, PairingNo, Reason, Round, TableNo, TeamId,
    Timestamp, Title,
)
from schemas.profile import RuleProfile
from schemas.refusals import shown

ResultCode = Literal["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"]
"""Board result, White first: played (1-0, 0-1, 1/2-1/2) or forfeit (+/-, -/+, -/- double)."""

RESULT_CODES: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-")
FORFEIT_CODES: frozenset[str] = frozenset({"+/-", "-/+", "-/-"})

ForfeitReason = Literal["late-arrival", "handshake-refusal", "absence", "other"]
"""Why a game or a match was lost by default: a player late at the start (zero tolerance, R-D6),
a refused handshake (FIDE Olympiad regulations), an absent player or team, or another reason
(the note says which)."""

Teams = Annotated[tuple[TeamId, ...], Field(max_length=limits.MAX_LIST)]


class Player(BaseModel):
    """A nominated player: ``board_order`` 1-4 for the boards, 5 for the reserve (R-D1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    board_order: Annotated[int, Field(strict=True, ge=1, le=9)]
    name: Name
    fide_id: FideId | None = None
    title: Title = ""
    rating: Annotated[int, Field(strict=True, ge=0, le=3500)] | None = None


Players = Annotated[tuple[Player, ...], Field(max_length=9)]


class TournamentCreated(_Event):
    """A tournament exists, with its full rule profile, dates, venue, chief arbiter and the
    nomination deadline (rosters are fixed after it; None: at the publication of round 1)."""

    type: Literal["TournamentCreated"] = "TournamentCreated"
    schema_version: Literal[2] = 2
    name: Name
    profile: RuleProfile
    source: Note = ""
    starts: date | None = None
    ends: date | None = None
    venue: Note = ""
    chief_arbiter: Note = ""
    nomination_deadline: Timestamp | None = None
    chief_key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None  # Ed25519 public key (hex) of the checkpoints


class TeamRegistered(_Event):
    """A team and its nominated players in fixed board order (4 + 1 reserve, R-D1).

    ``from_round``: the first round the team plays (a late entry; None: the next round to be
    paired when it registered). ``pairing_number``: an official start list's number, if given.
    """

    type: Literal["TeamRegistered"] = "TeamRegistered"
    schema_version: Literal[2] = 2
    team_id: TeamId
    name: Name
    federation: Federation
    players: Players
    pairing_number: PairingNo | None = None
    from_round: Round | None = None


class RosterChanged(_Event):
    """A team's nominated players replaced before the nomination deadline (same shape as at
    registration, R-D1)."""

    type: Literal["RosterChanged"] = "RosterChanged"
    schema_version: Literal[1] = 1
    team_id: TeamId
    players: Players
    reason: Note = ""


class StartingRanksSet(_Event):
    """The starting ranks: ``order[i]`` gets pairing number i + 1 (by ``rule``, e.g. R-I1)."""

    type: Literal["StartingRanksSet"] = "StartingRanksSet"
    schema_version: Literal[1] = 1
    order: Teams
    rule: Note = ""


class LineupSubmitted(_Event):
    """A team's line-up for a round: ``boards[i]`` is the nominated board order of the player on
    board i + 1 (4 of the nominated players, in nominated order, R-D1)."""

    type: Literal["LineupSubmitted"] = "LineupSubmitted"
    schema_version: Literal[1] = 1
    round: Round
    team_id: TeamId
    boards: Annotated[tuple[Annotated[int, Field(strict=True, ge=1, le=9)], ...], Field(max_length=20)]


class AbsenceAnnounced(_Event):
    """A team announced it will not play ``round`` (before the round is paired): not paired, 0 MP."""

    type: Literal["AbsenceAnnounced"] = "AbsenceAnnounced"
    schema_version: Literal[1] = 1
    round: Round
    team_id: TeamId
    reason: Note = ""


class Table(BaseModel):
    """One match of a round: ``home`` has White on board 1 (and 3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: TableNo
    home: TeamId
    away: TeamId


Tables = Annotated[tuple[Table, ...], Field(max_length=limits.MAX_LIST)]


class RoundPaired(_Event):
    """The published pairing of a round: tables, the pairing-allocated bye, absent teams."""

    type: Literal["RoundPaired"] = "RoundPaired"
    schema_version: Literal[2] = 2
    round: Round
    tables: Tables
    bye: TeamId | None = None
    absent: Teams = ()
    colours_known: Bool = True
    note: Note = ""


class PairingProposed(_Event):
    """The engine's proposed pairing of ``round`` (``projections.pairing``) under the profile
    ``profile``: logged when the arbiter asks for it (``PairRound``), also published by the
    projection worker as a read model. ``trace`` holds one line per decision (read model only)."""

    type: Literal["PairingProposed"] = "PairingProposed"
    schema_version: Literal[1] = 1
    round: Round
    tables: Tables
    bye: TeamId | None = None
    absent: Teams = ()
    profile: Note
    trace: tuple[str, ...] = ()


class PairingAmended(_Event):
    """The arbiter's amendment of a proposed pairing (teams or tables swapped): the pairing as
    amended, the reason, and the pairing checker's report on it (one line per rule broken)."""

    type: Literal["PairingAmended"] = "PairingAmended"
    schema_version: Literal[1] = 1
    round: Round
    tables: Tables
    bye: TeamId | None = None
    absent: Teams = ()
    reason: Reason
    report: Annotated[tuple[Note, ...], Field(max_length=limits.MAX_LIST)] = ()


class BoardResultRecorded(_Event):
    """One board's result as entered at the table (code White-Black); a forfeit (``+/-``,
    ``-/+``, ``-/-``) says why (``forfeit``) when a terminal or an arbiter recorded it."""

    type: Literal["BoardResultRecorded"] = "BoardResultRecorded"
    schema_version: Literal[2] = 2
    round: Round
    table: TableNo
    board: Board
    white: Note = ""
    black: Note = ""
    result: ResultCode
    forfeit: ForfeitReason | None = None
    note: Note = ""


class BoardResultCorrected(_Event):
    """An arbiter's correction: ``supersedes`` names the event whose result it replaces."""

    type: Literal["BoardResultCorrected"] = "BoardResultCorrected"
    schema_version: Literal[2] = 2
    supersedes: EventId
    round: Round
    table: TableNo
    board: Board
    result: ResultCode
    reason: Reason


class MatchForfeited(_Event):
    """A whole match forfeited: ``winner`` gets every board by default, or nobody (double)."""

    type: Literal["MatchForfeited"] = "MatchForfeited"
    schema_version: Literal[2] = 2
    round: Round
    table: TableNo
    winner: TeamId | None
    forfeit: ForfeitReason
    note: Note = ""


class TeamWithdrawn(_Event):
    """A team leaves the event; it is not paired from ``from_round`` on."""

    type: Literal["TeamWithdrawn"] = "TeamWithdrawn"
    schema_version: Literal[2] = 2
    team_id: TeamId
    from_round: Round
    reason: Note = ""


class RoundClosed(_Event):
    """The chief arbiter closed ``round``: every result is in, its standings (``digest``, the
    SHA-256 of their canonical document) are official."""

    type: Literal["RoundClosed"] = "RoundClosed"
    schema_version: Literal[1] = 1
    round: Round
    digest: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class CheckpointSigned(_Event):
    """The chief arbiter's signed checkpoint of a closed round, logged right after its
    ``RoundClosed`` (one decision): the log's head as the round was closed, ``events`` events
    long with the hash chain's ``head`` through them (``schemas.chain``), the round's standings
    digest and pairing digest, and ``previous``, the hash of the tournament's checkpoint before it
    (``schemas.chain.checkpoint_hash``), signed (``signature``, hex) with the Ed25519 key
    ``public_key`` (hex) over ``schemas.chain.checkpoint_message``. Version 1 (signed apart from
    the close, ``head`` through the ``RoundClosed``) had no ``events`` nor ``previous``."""

    type: Literal["CheckpointSigned"] = "CheckpointSigned"
    schema_version: Literal[2] = 2
    round: Round
    events: Annotated[int, Field(ge=0)] | None = None
    previous: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None
    head: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    standings_digest: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    pairing_digest: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    public_key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    signature: Annotated[str, Field(pattern=r"^[0-9a-f]{128}$")]


class StandingsUpdated(_Event):
    """Derived: the standings after ``round`` (rows in rank order) and their digest."""

    type: Literal["StandingsUpdated"] = "StandingsUpdated"
    schema_version: Literal[1] = 1
    round: Int
    complete: Bool
    digest: str
    rows: tuple[dict[str, Any], ...]


INPUT_EVENTS = (
    TournamentCreated, TeamRegistered, RosterChanged, StartingRanksSet, LineupSubmitted, AbsenceAnnounced,
    RoundPaired, PairingProposed, PairingAmended, BoardResultRecorded, BoardResultCorrected, MatchForfeited,
    TeamWithdrawn, RoundClosed, CheckpointSigned, *GAME_EVENTS,
)
"""Event types of a tournament's log (what commands yield and importers produce)."""
DERIVED_EVENTS = (StandingsUpdated,)
"""Event types the pipeline derives and publishes, never logged as input."""

EVENT_TYPES: dict[str, type[_Event]] = {cls.model_fields["type"].default: cls for cls in INPUT_EVENTS + DERIVED_EVENTS}
"""The model of each event type, by its ``type`` name (how ``parse_event`` picks the model)."""
VERSIONS: dict[str, int] = {name: cls.model_fields["schema_version"].default for name, cls in EVENT_TYPES.items()}
"""The schema version this build writes, per event type."""


class EventSchemaError(ValueError):
    """An event that does not fit its schema; ``field`` and ``rule`` name what is wrong."""

    def __init__(self, message: str, field: str = "", rule: str = "schema"):
        super().__init__(f"{message} [rule: {rule}]")
        self.message = message
        self.field = field
        self.rule = rule


# ------------------------------------------------------------------------------------ upcasters
def _v1_board_result(raw: dict[str, Any]) -> dict[str, Any]:
    """BoardResultRecorded v1 -> v2: the free-text ``reason`` becomes the ``note``; a forfeit with a
    reason gets the category "other" (v1 had no categories); ``terminal_id`` becomes ``actor``."""
    out = dict(raw)
    reason = out.pop("reason", None)
    terminal = out.pop("terminal_id", None)
    if reason:
        out["note"] = reason
        if isinstance(raw.get("result"), str) and raw["result"] in FORFEIT_CODES:  # any JSON may come in
            out["forfeit"] = "other"
    if terminal and terminal != "import":
        out["actor"] = terminal
    return out


def _v1_match_forfeit(raw: dict[str, Any]) -> dict[str, Any]:
    """MatchForfeited v1 -> v2: the free-text ``reason`` becomes the ``note``, category "other"."""
    out = {k: v for k, v in raw.items() if k != "reason"}
    out["forfeit"] = "other"
    out["note"] = raw.get("reason", "")
    return out


def _same_fields(raw: dict[str, Any]) -> dict[str, Any]:
    """v1 -> v2 of a type whose v2 only added optional fields (``actor``, and per type: dates,
    venue and chief arbiter of a tournament, a team's ``from_round``, a checkpoint's ``events``
    and ``previous``)."""
    return dict(raw)


UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("TournamentCreated", 1): _same_fields,
    ("TeamRegistered", 1): _same_fields,
    ("RoundPaired", 1): _same_fields,
    ("BoardResultRecorded", 1): _v1_board_result,
    ("BoardResultCorrected", 1): _same_fields,
    ("MatchForfeited", 1): _v1_match_forfeit,
    ("TeamWithdrawn", 1): _same_fields,
    ("CheckpointSigned", 1): _same_fields,
}
"""``(type, version) -> function`` bringing a stored event of that version one version up (a new
dict: the stored one is left as it is)."""


def upcast(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring a stored event dict to the current schema version of its type (old events are never
    rewritten: this runs on every read).

    Raises ``EventSchemaError`` (rule "schema version") for a version this code does not know.
    """
    kind = raw.get("type")
    current = VERSIONS[kind]
    version = raw.get("schema_version", 1)
    while version != current:
        step = UPCASTERS.get((kind, version)) if type(version) is int else None
        if step is None:
            raise EventSchemaError(
                f"unknown schema_version {version!r} for event type {kind!r}; this build reads versions up to {current}",
                field="schema_version", rule="schema version",
            )
        raw = step(raw)
        version += 1
        raw["schema_version"] = version
    return raw


def validation_error(exc: ValidationError, kind: str, version: int, skip: int = 1, what: str = "") -> EventSchemaError:
    """An ``EventSchemaError`` for ``exc`` in the product's words (``schemas.refusals``): ``<what>:
    <field path>: <message>`` with the rule; ``what`` names what was refused (default ``command
    <kind>``: ``parse_event`` names its event). ``skip`` is kept for callers; union members are
    dropped from the path whatever their place."""
    p = refusals.problem(exc, schema=f"schema {kind} v{version}")
    what = what or f"command {kind}"
    return EventSchemaError(f"{what}: {p.field}: {p.message}", field=p.field, rule=p.rule)


def event_named(raw: dict[str, Any], kind: str) -> str:
    """How a refusal names the event ``raw`` of type ``kind``: ``event r1/t1/b5 (BoardResultRecorded)``,
    or ``event BoardResultRecorded`` when its id is not a usable id."""
    ident = raw.get("event_id")
    if isinstance(ident, str) and re.match(limits.pattern_of(EventId), ident):
        return f"event {ident} ({kind})"
    return f"event {kind}"


def json_object(raw: dict[str, Any] | str | bytes, what: str, field: str) -> dict[str, Any]:
    """``raw`` as a dict: JSON text is read within the size and depth limits of
    ``schemas.limits.load_message``. Raises ``EventSchemaError`` (``field``, the rule) for text that
    is too large, not JSON, or not a JSON object; ``what`` names the message ("an event")."""
    if isinstance(raw, (str, bytes)):
        try:
            raw = limits.load_message(raw)
        except limits.MessageTooLarge as exc:
            raise EventSchemaError(str(exc), field="(message)", rule="input size limits") from None
        except ValueError as exc:
            raise EventSchemaError(f"malformed JSON: {exc}", field=field, rule="JSON syntax") from None
    if not isinstance(raw, dict):
        raise EventSchemaError(f"{what} is a JSON object", field=field, rule="JSON object")
    return raw


def parse_event(raw: dict[str, Any] | str | bytes) -> Any:
    """Parse one event from a dict or JSON text (``schemas.limits.load_message``: size and depth
    limits) into its model, upcasting an older version.

    Raises ``EventSchemaError`` naming the first offending field and the rule.
    """
    raw = json_object(raw, "an event", "(line)")
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise EventSchemaError(f"unknown event type {shown(kind)}", field="type", rule="known event types")
    return _validated(kind, upcast(raw))


def _validated(kind: str, raw: dict[str, Any]) -> Any:
    """The event ``raw`` (current version of type ``kind``) validated by its type's model; raises
    ``EventSchemaError`` naming the event, the field and the rule."""
    try:  # the type's own model: the same validation as a union tagged by ``type``, one dispatch less
        return EVENT_TYPES[kind].model_validate(raw)
    except ValidationError as exc:
        raise validation_error(exc, kind, VERSIONS[kind], skip=0, what=event_named(raw, kind)) from None


# --------------------------------------------------------------------------------- stored events
def parse_stored_event(raw: str | bytes) -> Any:
    """Parse one line of a log the product stored, whose events met their schemas when they were
    written (the shipped logs: ``projections.eventlog.read_log(path, stored=True)``): the same
    event ``parse_event`` gives, built from its upcast dict without validating each field again
    (``stored_builder``). A type whose model has validators of its own (``TournamentCreated``: its
    rule profile) is validated as by ``parse_event``.

    What this path does not recognise (text that is not JSON, not an object, an unknown type or
    version, a missing or unknown field, a timestamp that is not one) goes to ``parse_event``,
    which refuses it as in any log: raises ``EventSchemaError`` naming the field and the rule.
    """
    try:
        value = from_json(raw, allow_inf_nan=False)
    except ValueError:
        return parse_event(raw)
    kind = value.get("type") if isinstance(value, dict) else None
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        return parse_event(raw)
    value = upcast(value)
    build = stored_builder(EVENT_TYPES[kind])
    if build is not None:
        try:
            return build(value)
        except ValueError:  # not as the product stores it: the validation names the field and the rule
            pass
    return _validated(kind, value)


class NotStored(ValueError):
    """A value that is not as the product stores a field of its model (``stored_builder``)."""


def stored_builder(cls: type[BaseModel]) -> Callable[[Any], Any] | None:
    """A builder of the model ``cls`` from a stored dict without validation (what
    ``model_construct`` does, fields in the model's order, nested models and tuples built alike),
    made once per model; None when a field is not one ``_field_reader`` reads, has a default
    factory or an alias, or the model has validators of its own.

    The builder raises ``NotStored`` for a value that is not a dict with the model's keys (a
    required field missing, an unknown one), and ``ValueError`` for a timestamp that is not one.
    """
    if cls not in _BUILDERS:
        _BUILDERS[cls] = _builder(cls)
    return _BUILDERS[cls]


_BUILDERS: dict[type, Callable[[Any], Any] | None] = {}
_REQUIRED = object()
"""Marks a field without a default in a builder's template."""


def _builder(cls: type[BaseModel]) -> Callable[[Any], Any] | None:
    decorators = cls.__pydantic_decorators__
    if decorators.model_validators or decorators.field_validators or cls.__pydantic_post_init__ is not None:
        return None
    template: dict[str, Any] = {}  # the model's field order, which an update keeps
    readers = []
    for name, field in cls.model_fields.items():
        readable, read = _field_reader(field.annotation)
        if not readable or field.default_factory is not None or field.alias is not None:
            return None
        template[name] = _REQUIRED if field.is_required() else field.default
        if read is not None:
            readers.append((name, read))
    names = frozenset(template)
    required = frozenset(name for name, default in template.items() if default is _REQUIRED)
    new, setattr_ = cls.__new__, object.__setattr__

    def build(raw: Any) -> Any:
        if type(raw) is not dict or not (required <= raw.keys() <= names):
            raise NotStored(f"not a stored {cls.__name__}")
        values = {**template, **raw}
        for name, read in readers:
            if values[name] is not None:
                values[name] = read(values[name])
        model = new(cls)
        setattr_(model, "__dict__", values)
        setattr_(model, "__pydantic_fields_set__", set(raw))
        setattr_(model, "__pydantic_extra__", None)
        setattr_(model, "__pydantic_private__", None)
        return model

    return build


_PLAIN = (str, int, bool)


def _field_reader(annotation: Any) -> tuple[bool, Callable[[Any], Any] | None]:
    """``(readable, read)`` for a stored field of type ``annotation``, None allowed where the type
    allows it: a JSON string, integer, boolean or literal is its stored value (``read`` None: the
    validated value was stored); a ``limits.Timestamp`` is read as it reads ISO 8601 text
    (``limits.iso_timestamp``); ``tuple[X, ...]`` is a tuple of X read alike; a model is built by
    its ``stored_builder``. Anything else (a date, a dict, a union of types) is not readable."""
    if get_origin(annotation) in (Union, UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            return False, None
        annotation = args[0]
    if get_origin(annotation) is Annotated:
        base, *meta = get_args(annotation)
        if base is datetime and any(getattr(m, "func", None) is limits.iso_timestamp for m in meta):
            return True, limits.iso_timestamp
        annotation = base
    if get_origin(annotation) is Literal:
        return all(isinstance(v, _PLAIN) for v in get_args(annotation)), None
    if annotation in _PLAIN:
        return True, None
    if get_origin(annotation) is tuple:
        args = get_args(annotation)
        if len(args) != 2 or args[1] is not Ellipsis:
            return False, None
        readable, read = _field_reader(args[0])
        if not readable:
            return False, None
        return True, _tuple_of(read)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        build = stored_builder(annotation)
        return build is not None, build
    return False, None


def _tuple_of(read: Callable[[Any], Any] | None) -> Callable[[Any], tuple[Any, ...]]:
    """A reader of a stored JSON array as a tuple, each item read by ``read`` (None: as stored)."""
    def tuple_of(value: Any) -> tuple[Any, ...]:
        if type(value) is not list:
            raise NotStored("not a stored array")
        return tuple(value) if read is None else tuple([read(item) for item in value])

    return tuple_of
