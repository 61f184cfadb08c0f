"""Event schemas (version 1): immutable facts of a tournament, as stored and published.

Every event has a ``type`` name, a ``schema_version``, a globally unique ``event_id`` (set by
the producer, so a retried publish is a no-op) and the ``tournament_id`` it belongs to.
``parse_event`` reads any stored or published form (upcasting older versions);
``schemas.canonical`` gives the byte-exact JSON form used for digests.

Colours: the home team of a table has White on boards 1 and 3 and Black on boards 2 and 4
(R-D4); a board result code is always written White-Black.
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from schemas.points import Points
from schemas.profile import RuleProfile

SCHEMA_VERSION = 1

ResultCode = Literal["1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-"]
"""Board result, White first: played (1-0, 0-1, 1/2-1/2) or forfeit (+/-, -/+, -/- double)."""

RESULT_CODES: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-")


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: str = Field(min_length=1, max_length=200)
    schema_version: Literal[1] = 1
    tournament_id: str = Field(min_length=1, max_length=100)
    occurred_at: datetime | None = None


class Player(BaseModel):
    """A nominated player: ``board_order`` 1-4 for the boards, 5 for the reserve (R-D1)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    board_order: int = Field(ge=1, le=9)
    name: str
    fide_id: str | None = None
    title: str = ""
    rating: int | None = Field(default=None, ge=0, le=3500)


class TournamentCreated(_Event):
    """A tournament exists, with its full rule profile."""

    type: Literal["TournamentCreated"] = "TournamentCreated"
    name: str
    profile: RuleProfile
    source: str = ""


class TeamRegistered(_Event):
    """A team and its nominated players in fixed board order (4 + 1 reserve)."""

    type: Literal["TeamRegistered"] = "TeamRegistered"
    team_id: str = Field(min_length=1, max_length=40)
    name: str
    federation: str
    players: tuple[Player, ...]
    pairing_number: int | None = Field(default=None, ge=1)


class Table(BaseModel):
    """One match of a round: ``home`` has White on board 1 (and 3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: int = Field(ge=1)
    home: str
    away: str


class RoundPaired(_Event):
    """The published pairing of a round: tables, the pairing-allocated bye, absent teams."""

    type: Literal["RoundPaired"] = "RoundPaired"
    round: int = Field(ge=1)
    tables: tuple[Table, ...]
    bye: str | None = None
    absent: tuple[str, ...] = ()
    colours_known: bool = True
    note: str = ""


class PairingProposed(_Event):
    """Derived: the engine's proposed pairing of ``round`` (``projections.pairing``), made when the
    previous round is complete; the arbiter publishes it (possibly edited) as ``RoundPaired``.
    ``trace`` holds one line per decision, ``profile`` the rule profile's name."""

    type: Literal["PairingProposed"] = "PairingProposed"
    round: int = Field(ge=1)
    tables: tuple[Table, ...]
    bye: str | None = None
    absent: tuple[str, ...] = ()
    profile: str
    trace: tuple[str, ...] = ()


class BoardResultRecorded(_Event):
    """One board's result as entered at the table (code White-Black)."""

    type: Literal["BoardResultRecorded"] = "BoardResultRecorded"
    round: int = Field(ge=1)
    table: int = Field(ge=1)
    board: int = Field(ge=1)
    white: str = ""
    black: str = ""
    result: ResultCode
    reason: str | None = None
    terminal_id: str = "import"


class BoardResultCorrected(_Event):
    """An arbiter's correction: ``supersedes`` names the event whose result it replaces."""

    type: Literal["BoardResultCorrected"] = "BoardResultCorrected"
    supersedes: str
    round: int = Field(ge=1)
    table: int = Field(ge=1)
    board: int = Field(ge=1)
    result: ResultCode
    reason: str = Field(min_length=1)


class MatchForfeited(_Event):
    """A whole match forfeited: ``winner`` gets every board by default, or nobody (double)."""

    type: Literal["MatchForfeited"] = "MatchForfeited"
    round: int = Field(ge=1)
    table: int = Field(ge=1)
    winner: str | None
    reason: str = Field(min_length=1)


class TeamWithdrawn(_Event):
    """A team leaves the event; it is not paired from ``from_round`` on."""

    type: Literal["TeamWithdrawn"] = "TeamWithdrawn"
    team_id: str
    from_round: int = Field(ge=1)
    reason: str = ""


class MatchResultDecided(_Event):
    """Derived: the folded result of one table (GP per side, MP per the profile)."""

    type: Literal["MatchResultDecided"] = "MatchResultDecided"
    round: int
    table: int
    home: str
    away: str
    home_gp: Points
    away_gp: Points
    home_mp: int | None
    away_mp: int | None
    boards_in: int
    status: Literal["in_progress", "complete"]


class StandingsUpdated(_Event):
    """Derived: the standings after ``round`` (rows in rank order) and their digest."""

    type: Literal["StandingsUpdated"] = "StandingsUpdated"
    round: int
    complete: bool
    digest: str
    rows: tuple[dict[str, Any], ...]


Event = Annotated[
    Union[
        TournamentCreated,
        TeamRegistered,
        RoundPaired,
        BoardResultRecorded,
        BoardResultCorrected,
        MatchForfeited,
        TeamWithdrawn,
        MatchResultDecided,
        StandingsUpdated,
        PairingProposed,
    ],
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)
EVENT_TYPES = {
    "TournamentCreated", "TeamRegistered", "RoundPaired", "BoardResultRecorded",
    "BoardResultCorrected", "MatchForfeited", "TeamWithdrawn", "MatchResultDecided",
    "StandingsUpdated", "PairingProposed",
}


class EventSchemaError(ValueError):
    """An event that does not fit its schema; ``field`` and ``rule`` name what is wrong."""

    def __init__(self, message: str, field: str = "", rule: str = "schema"):
        super().__init__(f"{message} [rule: {rule}]")
        self.message = message
        self.field = field
        self.rule = rule


def upcast(raw: dict[str, Any]) -> dict[str, Any]:
    """Bring a stored event dict to the current schema version (old events are never rewritten).

    Raises ``EventSchemaError`` (rule "schema version") for a version this code does not know.
    """
    version = raw.get("schema_version", 1)
    if version != SCHEMA_VERSION:
        raise EventSchemaError(
            f"unknown schema_version {version!r} for event type {raw.get('type')!r}; "
            f"this build reads version {SCHEMA_VERSION}",
            field="schema_version",
            rule="schema version",
        )
    return raw


def parse_event(raw: dict[str, Any] | str | bytes) -> Any:
    """Parse one event from a dict or JSON text into its model.

    Raises ``EventSchemaError`` naming the first offending field and the schema rule.
    """
    import json

    if isinstance(raw, (str, bytes)):
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise EventSchemaError(f"malformed JSON: {exc}", field="(line)", rule="JSON syntax") from None
    if not isinstance(raw, dict):
        raise EventSchemaError("an event is a JSON object", field="(line)", rule="JSON object")
    if raw.get("type") not in EVENT_TYPES:
        raise EventSchemaError(
            f"unknown event type {raw.get('type')!r}", field="type", rule="known event types"
        )
    raw = upcast(raw)
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"][1:]) or str(err["loc"][0])
        raise EventSchemaError(
            f"{raw.get('type')}.{loc}: {err['msg']} (got {err.get('input')!r})",
            field=loc,
            rule=f"schema {raw.get('type')} v{SCHEMA_VERSION}",
        ) from None
