"""Input limits: what a text, an id, a number or a whole message entering olympiad-events may be.

Every door (the event store, the log loader, the HTTP API, the Kafka processors) reads input
through the pydantic models of ``schemas.events`` and ``schemas.commands``, whose fields use
these types; a value outside them is refused at the door with the field and the rule, before
anything is stored.

- Text holds Unicode scalar values only (no lone surrogate such as ``\\ud800``, which no database
  driver can store), no control characters (NUL included: PostgreSQL refuses it), is trimmed,
  is stored in Unicode normalization form NFC (so that "é" typed as one character and as "e" plus
  a combining accent is one name, whatever the source's keyboard or file), and fits the SQL
  column that stores it (``MAX_*`` below are the column widths too).
- A title is a FIDE code or another short code of letters (``schemas.titles``).
- Ids follow a grammar: a tournament id is lower-case letters, digits and ``-``, at most 64
  (so ``T/x`` can never be read as an entry of tournament ``T``); a team id letters, digits,
  ``_`` and ``-``; an event id that plus ``/ . : @ + =``.
- Numbers are strict JSON types: ``true`` is not 1 and ``"1_0"`` is not 10.
- A timestamp is ISO 8601 text (``2026-09-12T15:00:00+05:00``), never a bare number.
- A message is at most ``MAX_MESSAGE_BYTES`` and nests at most ``MAX_DEPTH`` levels.
"""
from __future__ import annotations

import json
import re
import unicodedata
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, Strict, StringConstraints
from pydantic_core import from_json

from schemas.titles import TITLE_RULE, checked_title

MAX_TEAMS = 10_000
"""Teams of one tournament: the bound of a pairing number, of a table number and of every list of
teams or tables (a round's tables and absent teams, the starting ranks, an import, an amendment's
swaps and its checker report). Why 10,000: team Swiss events run from 8 teams to a few thousand
(an Olympiad ~200, the Samarkand Open 206, school and club team events up to ~3,000), and a round
of 10,000 teams still is one message: 5,000 tables with 40-character team ids are ~580 KB of JSON,
the 10,000 ids of the starting ranks ~430 KB, both within ``MAX_MESSAGE_BYTES``. A bound of
100,000 would make a round's pairing a 6 MB message no Kafka default takes."""
MAX_MESSAGE_BYTES = 900 * 1024
"""One event or command, as JSON. Why 900 KiB: the largest event of a ``MAX_TEAMS`` tournament (a
round's pairing, the starting ranks) fits, and the message with its key and headers still fits one
Kafka record at the defaults of a broker (``message.max.bytes`` 1,048,588), of kafka-python
(``max_request_size`` 1,048,576) and of faust (``producer_max_request_size`` 1,000,000), so any
cluster takes it unconfigured; a dead letter keeps the first 16 KiB of it. A command larger than
this, an import of many teams, travels as several (``schemas.commands.import_batches``)."""
MAX_TEAM_FILE_BYTES = 8 * 1024 * 1024
"""A team file (CSV or TRF-2026) sent to the HTTP API's import: ``MAX_TEAMS`` teams of 5 players
at up to ~160 bytes a row. It is read into one ``ImportTeams``, which a door of bounded messages
sends in parts."""
MAX_DEPTH = 8  # nesting of a message: events and commands need 5 (command -> players -> player -> field)
MAX_NAME = 100  # a team's or a player's name
MAX_REASON = 500  # a forfeit's, a correction's or an amendment's reason; a note
MAX_LIST = MAX_TEAMS  # teams or tables in one list (one entry per team at most)

TOURNAMENT_ID_RULE = "tournament ids: lower-case letters, digits and '-', 1 to 64, starting with a letter or digit"
TEAM_ID_RULE = "team ids: letters, digits, '_' and '-', 1 to 40"
EVENT_ID_RULE = "event ids: letters, digits and - _ . / : @ + =, 1 to 200"
TEXT_RULE = "text: Unicode scalar values without control characters"
ACTOR_ID_RULE = "actor ids: letters, digits and _ . : @ -, 1 to 64, starting with a letter or digit"
FEDERATION_RULE = "federation codes: capital letters and digits, at most 10 (FIDE's three letters), or none"
FIDE_ID_RULE = "FIDE ids: 1 to 10 digits"
DIGEST_RULE = "digests and keys: 64 lower-case hex digits"
SIGNATURE_RULE = "signatures: 128 lower-case hex digits"
COMMAND_ID_RULE = "command ids: letters, digits and _ . : -, 1 to 64"
TERMINAL_ID_RULE = "terminal ids: letters, digits and . _ -, 1 to 60"
TIMESTAMP_RULE = "timestamps: ISO 8601 text"


_BAD_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")  # Unicode's Cc category, and the surrogates


def _scalar_text(value: str) -> str:
    """Refuse lone surrogates and control characters (rule ``TEXT_RULE``); the text in NFC
    (Unicode Standard Annex #15), the one form two sources spelling a name alike agree on."""
    if _BAD_TEXT.search(value) is None:  # the usual case, at C speed: every event's names pass here
        return value if value.isascii() or unicodedata.is_normalized("NFC", value) else unicodedata.normalize("NFC", value)
    for ch in value:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"U+{code:04X} is a lone surrogate, not a Unicode scalar value [rule: {TEXT_RULE}]")
        if unicodedata.category(ch) == "Cc":
            raise ValueError(f"U+{code:04X} is a control character [rule: {TEXT_RULE}]")
    return value


def text(max_length: int, *, min_length: int = 0) -> Any:
    """A text field type: strict ``str``, trimmed, ``min_length``..``max_length`` characters of
    Unicode scalar values without control characters. ``min_length=1`` makes it non-empty after
    trimming (a reason of only spaces is refused)."""
    return Annotated[
        str, Strict(), StringConstraints(strip_whitespace=True, min_length=min_length, max_length=max_length),
        AfterValidator(_scalar_text),
    ]


Name = text(MAX_NAME, min_length=1)
"""A team's or a player's name."""
Reason = text(MAX_REASON, min_length=1)
"""A reason that must be given (a forfeit, a correction, an amended pairing, a withdrawal)."""
Note = text(MAX_REASON)
"""Free text that may be empty."""

TournamentId = Annotated[str, Strict(), StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")]
TeamId = Annotated[str, Strict(), StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")]
EventId = Annotated[str, Strict(), StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:/@+=-]{0,199}$")]
ActorId = Annotated[str, Strict(), StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,63}$")]
Federation = Annotated[str, Strict(), StringConstraints(pattern=r"^[A-Z0-9]{0,10}$")]
"""A federation code: FIDE's three capital letters, a club event's own code (capitals and digits,
at most 10: the ``teams.federation`` column), or empty."""
FideId = Annotated[str, Strict(), StringConstraints(pattern=r"^[0-9]{1,10}$")]
Title = Annotated[str, Strict(), AfterValidator(checked_title)]
"""A player's title: a FIDE code in FIDE's spelling, another code of letters as given (``schemas.titles``)."""



def pattern_of(text_type: Any) -> str:
    """The pattern of a text type of this module (``FideId``: its ``StringConstraints``)."""
    return next(m.pattern for m in text_type.__metadata__ if isinstance(m, StringConstraints) and m.pattern)


GRAMMARS: dict[str, tuple[str, str]] = {
    pattern_of(TournamentId): ("a tournament id", TOURNAMENT_ID_RULE),
    pattern_of(TeamId): ("a team id", TEAM_ID_RULE),
    pattern_of(EventId): ("an event id", EVENT_ID_RULE),
    pattern_of(ActorId): ("an actor id", ACTOR_ID_RULE),
    pattern_of(Federation): ("a federation code", FEDERATION_RULE),
    pattern_of(FideId): ("a FIDE id", FIDE_ID_RULE),
    r"^[0-9a-f]{64}$": ("64 lower-case hex digits", DIGEST_RULE),
    r"^[0-9a-f]{128}$": ("128 lower-case hex digits", SIGNATURE_RULE),
    r"^[A-Za-z0-9_.:-]{1,64}$": ("a command id", COMMAND_ID_RULE),
    r"^[A-Za-z0-9._-]{1,60}$": ("a terminal id", TERMINAL_ID_RULE),
    r"^\d+(\.5)?-\d+(\.5)?$": ("a match score in game points such as 3.5-0.5", "match scores: game points, halves only"),
}
"""Pattern -> (what a value of it is, its rule): how a refusal names a value off its grammar
(``schemas.refusals``). Every pattern of an event, command or request field is here
(``tests/unit/test_refusal_format.py`` walks the models)."""

Int = Annotated[int, Strict()]
Round = Annotated[int, Strict(), Field(ge=1, le=99)]
TableNo = Annotated[int, Strict(), Field(ge=1, le=MAX_TEAMS)]
"""A table number: 1..``MAX_TEAMS`` (a round has at most ``MAX_TEAMS // 2`` tables; an arbiter's
numbering may leave gaps)."""
PairingNo = Annotated[int, Strict(), Field(ge=1, le=MAX_TEAMS)]
"""A team's pairing number (starting rank): 1..``MAX_TEAMS``."""
Board = Annotated[int, Strict(), Field(ge=1, le=20)]
Bool = Annotated[bool, Strict()]

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$")


def iso_timestamp(value: Any) -> Any:
    """``value`` (ISO 8601 text, or a ``datetime`` as it is) as a ``datetime``: the reading of every
    ``Timestamp`` field. Raises ``ValueError`` with rule ``TIMESTAMP_RULE`` for any other value."""
    if isinstance(value, datetime):
        return value
    if not isinstance(value, str) or not _ISO.match(value):
        raise ValueError(f"{value!r} is not an ISO 8601 date-time such as 2026-09-12T15:00:00+05:00 [rule: {TIMESTAMP_RULE}]")
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as exc:  # the form fits, a part does not (month 13): said with the rule
        raise ValueError(f"{value!r} is not a date-time: {exc} [rule: {TIMESTAMP_RULE}]") from None


Timestamp = Annotated[datetime, BeforeValidator(iso_timestamp)]
"""A date-time given as ISO 8601 text (a bare number such as ``2026`` is refused, not read as 1970)."""


class MessageTooLarge(ValueError):
    """A message over ``MAX_MESSAGE_BYTES`` or nested deeper than ``MAX_DEPTH``."""


def check_size(raw: bytes | str) -> None:
    """Raise ``MessageTooLarge`` if ``raw`` (its UTF-8 bytes) is over ``MAX_MESSAGE_BYTES``: the
    rule every reader of a message applies, and a door before it sends one."""
    if isinstance(raw, str):  # its UTF-8 size; an ASCII text's is its length (isascii() is O(1))
        size = len(raw) if raw.isascii() else len(raw.encode("utf-8", "surrogatepass"))
    else:
        size = len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise MessageTooLarge(f"message of {size} bytes; at most {MAX_MESSAGE_BYTES}")


def load_message(raw: bytes | str) -> Any:
    """Parse one JSON message within the size and depth limits.

    Raises ``MessageTooLarge`` (size or depth) or ``ValueError`` (not JSON, not UTF-8).
    """
    check_size(raw)
    try:
        value = from_json(raw, allow_inf_nan=False)
    except (ValueError, TypeError):
        # What the fast reader does not take (an error, NaN, a lone surrogate, a BOM, UTF-16, nesting
        # deeper than its limit) goes to json, so that json alone decides what is JSON and how a
        # refusal reads. What both take they read alike (tests/unit/test_input_limits_json.py).
        try:
            value = json.loads(raw)
        except RecursionError:
            raise MessageTooLarge(f"message nested deeper than {MAX_DEPTH} levels") from None
    # '{' and '[' are one byte in UTF-8 and never part of a longer character: count them on the bytes
    brackets = raw.count("{") + raw.count("[") if isinstance(raw, str) else raw.count(b"{") + raw.count(b"[")
    if brackets > MAX_DEPTH and _depth(value) > MAX_DEPTH:  # fewer brackets: not deeper
        raise MessageTooLarge(f"message nested deeper than {MAX_DEPTH} levels")
    return value


def _depth(value: Any, level: int = 1) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level - 1 if level > 1 else 0
