"""Commands: what an arbiter, a terminal or a captain asks the tournament to do.

A command is a request, not a fact: ``processors.deciders.handle`` decides it against the
tournament's current state and either yields the events to append (facts, ``schemas.events``)
or refuses it naming the field and the rule. Every door (the CLI, the HTTP API, the Kafka
input topics) builds these models and calls that one function; no door has a rule of its own.

Every command names its ``tournament_id``, who asks (``actor``: a role and an id; the door
authenticates, the decider checks what the role may do) and when (``issued_at``, the time the
events will carry; the door stamps it). Field types use ``schemas.limits``. On Kafka a command
travels as the JSON of its model, with ``command_id`` to correlate the verdict.
"""
from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from schemas import limits
from schemas.canonical import canonical_json
from schemas.events import (
    INPUT_EVENTS, EventSchemaError, ForfeitReason, Player, ResultCode, Table, json_object, parse_event, shown, validation_error,
)
from schemas.limits import (
    Board, Federation, Name, Note, PairingNo, Reason, Round, TableNo, TeamId, Timestamp,
)
from schemas.command_base import Actor, CommandBase as _Command, Role  # noqa: F401 - Actor, Role: named here by every door
from schemas.game_commands import GAME_COMMANDS
from schemas.profile import RuleProfile

INPUT_TYPES = frozenset(cls.model_fields["type"].default for cls in INPUT_EVENTS)
"""The event types an import may carry: a log's facts, not what the pipeline derives."""


class CreateTournament(_Command):
    """Create the tournament: ``profile`` a built-in profile's name or a whole profile;
    ``rounds`` overrides the profile's number of rounds (the profile is then renamed)."""

    command: Literal["CreateTournament"] = "CreateTournament"
    name: Name
    profile: RuleProfile | Annotated[str, Field(max_length=64)]
    rounds: Round | None = None
    starts: date | None = None
    ends: date | None = None
    venue: Note = ""
    chief_arbiter: Note = ""
    nomination_deadline: Timestamp | None = None
    chief_key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = None


class TeamEntry(BaseModel):
    """A team as registered: id, name, federation, nominated players in board order 1..5."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    team_id: TeamId
    name: Name
    federation: Federation = ""
    players: Annotated[tuple[Player, ...], Field(max_length=9)]
    pairing_number: PairingNo | None = None


class RegisterTeam(_Command):
    """Register one team; ``from_round`` > 1 (or any registration after round 1 is published) is
    a late entry."""

    command: Literal["RegisterTeam"] = "RegisterTeam"
    team: TeamEntry
    from_round: Round | None = None


class ImportTeams(_Command):
    """Register several teams at once (from CSV or TRF-2026 team records): all or none. At most
    ``limits.MAX_TEAMS`` teams; a door whose messages are bounded (Kafka, HTTP) sends a larger
    import as several (``import_batches``)."""

    command: Literal["ImportTeams"] = "ImportTeams"
    teams: Annotated[tuple[TeamEntry, ...], Field(min_length=1, max_length=limits.MAX_TEAMS)]


class ChangeRoster(_Command):
    """Replace a team's nominated players (before the nomination deadline)."""

    command: Literal["ChangeRoster"] = "ChangeRoster"
    team_id: TeamId
    players: Annotated[tuple[Player, ...], Field(max_length=9)]
    reason: Note = ""


class SetStartingRanks(_Command):
    """Rank the teams by the profile's seeding rule (R-I1: average rating of the four best
    players); their pairing numbers follow."""

    command: Literal["SetStartingRanks"] = "SetStartingRanks"


class SubmitLineup(_Command):
    """A team's line-up for ``round``: ``boards`` are the board orders (1-5) of the players on
    boards 1..4, in nominated order."""

    command: Literal["SubmitLineup"] = "SubmitLineup"
    round: Round
    team_id: TeamId
    boards: Annotated[tuple[Annotated[int, Field(strict=True, ge=1, le=9)], ...], Field(max_length=20)]


class AnnounceAbsence(_Command):
    """A team will not play ``round`` (announced before the round is paired)."""

    command: Literal["AnnounceAbsence"] = "AnnounceAbsence"
    round: Round
    team_id: TeamId
    reason: Note = ""


class WithdrawTeam(_Command):
    """A team leaves the tournament from ``from_round`` on (default: the next round to pair)."""

    command: Literal["WithdrawTeam"] = "WithdrawTeam"
    team_id: TeamId
    from_round: Round | None = None
    reason: Reason


class PairRound(_Command):
    """Ask the engine for the pairing of ``round`` (the previous round must be complete).

    ``publish``: publish the round's pairing at once, one command for "pair, then publish" (the
    decider yields ``PairingProposed`` and ``RoundPaired``); a proposal already pending (the
    engine's or an amendment) is published as it stands, and a published round is already
    recorded. An amendment that breaks an absolute rule needs ``PublishRound`` with its
    ``override_reason``."""

    command: Literal["PairRound"] = "PairRound"
    round: Round
    publish: bool = False


class Swap(BaseModel):
    """An amendment step: exchange two teams (anywhere in the pairing), or two tables' numbers."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    teams: tuple[TeamId, TeamId] | None = None
    tables: tuple[TableNo, TableNo] | None = None


class AmendPairing(_Command):
    """Amend the proposed pairing of ``round``: ``swaps`` applied in order, or a whole new set
    of ``tables`` (with ``bye``/``absent``); a reason is mandatory, and the pairing checker's
    report goes into the event."""

    command: Literal["AmendPairing"] = "AmendPairing"
    round: Round
    swaps: Annotated[tuple[Swap, ...], Field(max_length=limits.MAX_LIST)] = ()
    tables: Annotated[tuple[Table, ...], Field(max_length=limits.MAX_LIST)] | None = None
    bye: TeamId | None = None
    absent: Annotated[tuple[TeamId, ...], Field(max_length=limits.MAX_LIST)] | None = None
    reason: Reason


class PublishRound(_Command):
    """Publish the proposed (or amended) pairing of ``round`` as the round's pairing. A pairing
    that breaks an absolute rule is published only with ``override_reason``."""

    command: Literal["PublishRound"] = "PublishRound"
    round: Round
    override_reason: Reason | None = None


class RecordResult(_Command):
    """One board's result, White-Black (``1-0``, ``0-1``, ``1/2-1/2``); forfeits go through
    ``RecordForfeit``."""

    command: Literal["RecordResult"] = "RecordResult"
    round: Round
    table: TableNo
    board: Board
    result: Literal["1-0", "0-1", "1/2-1/2"]


class BoardEntry(BaseModel):
    """One board of a table's results: the code White-Black; a forfeit code (``+/-``, ``-/+``,
    ``-/-``) with its reason (and a note, needed for "other")."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    board: Board
    result: ResultCode
    forfeit: ForfeitReason | None = None
    note: Note = ""


NOT_ENTERED = "-"
"""The code of a board not entered, in results given by position (``RecordResults.codes``)."""


class RecordResults(_Command):
    """Several boards of one table at once (a terminal's entry): all recorded, or none.

    The boards are named (``boards``: board, code, a forfeit's reason) or given by position
    (``codes``: one code per board of the match, board 1 first, ``-`` for a board not entered;
    played results only: a forfeit names its reason, ``boards`` or ``RecordForfeit``); one of the two. How many codes a table takes is the profile's rule, decided by
    ``processors.deciders.results.record_table``."""

    command: Literal["RecordResults"] = "RecordResults"
    round: Round
    table: TableNo
    boards: Annotated[tuple[BoardEntry, ...], Field(max_length=20)] = ()
    codes: Annotated[tuple[Literal["1-0", "0-1", "1/2-1/2", "-"], ...], Field(max_length=20)] | None = None


class RecordForfeit(_Command):
    """A board (``board`` given) or a whole match (``board`` None) lost by default by the teams
    in ``forfeiting`` (one team, or both: a double forfeit), or won by default by ``winner`` (the
    other team at the table forfeits), with the reason."""

    command: Literal["RecordForfeit"] = "RecordForfeit"
    round: Round
    table: TableNo
    board: Board | None = None
    forfeiting: Annotated[tuple[TeamId, ...], Field(max_length=2)] = ()
    winner: TeamId | None = None
    reason: ForfeitReason
    note: Note = ""


class CorrectResult(_Command):
    """The chief arbiter's correction of a board's result (the result it replaces is the
    board's current one); after the next round is published it is a late correction."""

    command: Literal["CorrectResult"] = "CorrectResult"
    round: Round
    table: TableNo
    board: Board
    result: ResultCode
    reason: Reason


class SignedHead(BaseModel):
    """The chief arbiter's signature of the log as a round is closed (``CheckpointSigned``): the
    log's first ``events`` events with the hash chain's ``head`` through them, ``previous`` the
    hash of the tournament's last checkpoint (``schemas.chain.checkpoint_hash``; the first:
    ``checkpoints_start``), ``signature`` over ``schemas.chain.checkpoint_message`` with the key
    ``public_key`` (hex)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    events: Annotated[int, Field(ge=0)]
    head: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    previous: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    public_key: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    signature: Annotated[str, Field(pattern=r"^[0-9a-f]{128}$")]


class CloseRound(_Command):
    """Close ``round`` once every result is in: its standings become official. With
    ``checkpoint`` (the door holding the chief arbiter's key signs the log as it stands) the same
    decision logs the round's ``CheckpointSigned`` right after its ``RoundClosed``."""

    command: Literal["CloseRound"] = "CloseRound"
    round: Round
    checkpoint: SignedHead | None = None


class ImportFacts(_Command):
    """Record the facts of a data set or a file (a Samarkand or Chennai folder, a TRF-2026 file, a
    log written elsewhere) as this tournament's events: the one way an importer's facts enter a log.

    ``source`` names what was imported (it travels in the refusal and the audit trail: each fact
    the import records carries the importing actor's id unless the source named one). ``facts``
    are input events (``schemas.events.INPUT_EVENTS``), in log order, each parsed and upcast like
    a log line (``parse_event``). The decider judges every fact with the event rules, the same
    rules every command's events meet (``processors.deciders.imports``); all or none. A door whose
    messages are bounded sends a large import as several (``import_batches``).
    """

    command: Literal["ImportFacts"] = "ImportFacts"
    source: Annotated[str, Field(min_length=1, max_length=limits.MAX_REASON)]
    facts: Annotated[tuple[Any, ...], Field(min_length=1)]

    @field_validator("facts", mode="before")
    @classmethod
    def _parse_facts(cls, value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            return value  # the tuple type refuses it, naming the field
        facts = []
        for i, fact in enumerate(value):
            if isinstance(fact, INPUT_EVENTS):  # an importer's event: validated when it was built (frozen)
                facts.append(fact)
                continue
            if isinstance(fact, BaseModel):
                fact = fact.model_dump(mode="json")
            try:
                event = parse_event(fact)
            except EventSchemaError as exc:
                raise ValueError(f"fact {i}: {exc.message} (field {exc.field}, rule: {exc.rule})") from None
            if event.type not in INPUT_TYPES:
                raise ValueError(f"fact {i}: {event.type} is derived by the pipeline, not a fact to import")
            facts.append(event)
        return tuple(facts)


COMMANDS = (
    CreateTournament, RegisterTeam, ImportTeams, ImportFacts, ChangeRoster, SetStartingRanks, SubmitLineup, AnnounceAbsence,
    WithdrawTeam, PairRound, AmendPairing, PublishRound, RecordResult, RecordResults, RecordForfeit, CorrectResult, CloseRound,
    *GAME_COMMANDS,
)
Command = Annotated[Union[COMMANDS], Field(discriminator="command")]  # type: ignore[valid-type]
COMMAND_TYPES: dict[str, type[_Command]] = {cls.model_fields["command"].default: cls for cls in COMMANDS}
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Command)


def import_batches(command: Any, max_bytes: int = limits.MAX_MESSAGE_BYTES) -> tuple[Any, ...]:
    """``command`` (``ImportTeams`` or ``ImportFacts``) as consecutive commands of its kind, each at
    most ``max_bytes`` of canonical JSON (``schemas.canonical``), the teams or facts in their
    order; the command itself when it fits.

    Each part is decided on its own (all or none within it); a part has no ``command_id`` (the
    door gives each its own). Raises ``ValueError`` if one team or fact alone does not fit
    ``max_bytes``.
    """
    whole = len(canonical_json(command).encode("utf-8"))
    if whole <= max_bytes:
        return (command,)
    items = "teams" if command.command == "ImportTeams" else "facts"
    bare = command.model_copy(update={items: (), "command_id": None})
    room = max_bytes - len(canonical_json(bare).encode("utf-8"))
    parts: list[list[Any]] = [[]]
    used = 0
    for entry in getattr(command, items):
        size = len(canonical_json(entry).encode("utf-8")) + 1  # and its comma
        if size > room:
            what = f"team {entry.team_id!r}" if items == "teams" else f"fact {entry.event_id!r}"
            raise ValueError(f"{what} alone is {size} bytes of JSON; a message holds {max_bytes}")
        if used + size > room:
            parts.append([])
            used = 0
        parts[-1].append(entry)
        used += size
    return tuple(bare.model_copy(update={items: tuple(p)}) for p in parts)


def parse_command(raw: dict[str, Any] | str | bytes) -> Any:
    """Parse one command from a dict or JSON text (size and depth limits of ``schemas.limits``).

    Raises ``EventSchemaError`` naming the first offending field and the rule.
    """
    raw = json_object(raw, "a command", "(message)")
    kind = raw.get("command")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise EventSchemaError(f"unknown command {shown(kind)}; known: {', '.join(COMMAND_TYPES)}", field="command",
                               rule="known commands")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        raise validation_error(exc, kind, 1) from None
