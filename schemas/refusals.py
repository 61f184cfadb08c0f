"""Refusals: what a validating library found wrong, said as the product's one line.

Every door (the CLI, the HTTP API, the Kafka processors and their dead letters, the log loader,
the importers) refuses bad input with one line of the form

    <what was refused>: <field path>: <what is wrong, in plain words> [rule: <the rule>]

e.g. ``command RegisterTeam: team.players[2].title: 'ACM' is not a title code [rule: title codes:
GM, IM, FM, CM, WGM, WIM, WFM, WCM or none]``. The doors add ``refused: `` in front. No library's
text reaches a user: not pydantic's "validation error for", its ``input_value=`` or its link to
its documentation (docs/reliability.md, "One refusal format"; issue 26).

``problem(errors)`` turns pydantic's error list (``ValidationError.errors()``, FastAPI's
``RequestValidationError.errors()``) into a ``Problem``: the field path in the product's form
(``teams[0].players[2].title``: without the union members pydantic puts in its locations), the
message and the rule, an input limit's rule of ``schemas.limits`` where one applies (a grammar,
strict JSON types, sizes, text). ``refusal_line(what, problem)`` writes the line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from schemas import limits

LIBRARY_MARKERS = ("validation error for", "errors.pydantic.dev", "input_value=", "type=string_pattern_mismatch",
                   "For further information visit", "Input should be", "Field required", "Extra inputs are not permitted")
"""Library text that never reaches a user (the test suite's guard, ``tests/conftest.py``, fails a
test whose output holds any of these: pydantic's summary line, its URL, its error internals and
its messages)."""

STRICT_TYPES_RULE = "strict JSON types"
SIZE_RULE = "input size limits"

_MEMBER = re.compile(r"^(function-(after|before|wrap|plain)|tagged-union|lax-or-strict|json-or-python|nullable|"
                     r"list|tuple|dict|set|frozenset|literal|union|chain|default|model|dataclass)\[")
_MEMBER_NAMES = frozenset({"constrained-str", "constrained-int", "constrained-bytes", "str", "int", "bool", "float",
                           "none", "decimal", "date", "datetime", "bytes", "is-instance", "any"})
_IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: ``field`` (path in the product's form, ``(message)`` for the
    whole), ``message`` (plain words, the offending value quoted and cut) and ``rule``."""

    field: str
    message: str
    rule: str


def shown(value: Any, width: int = 60) -> str:
    """``repr(value)``, cut to ``width`` characters (for a refusal's message)."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _member(part: Any) -> bool:
    """True for a part of a pydantic location that names a union member or a validator, not a field:
    ``function-after[...]``, ``constrained-str``, ``str``, a model's or a command's name (``RuleProfile``,
    ``RecordResult``)."""
    if not isinstance(part, str):
        return False
    return bool(_MEMBER.match(part)) or part in _MEMBER_NAMES or (part[:1].isupper() and part.isidentifier()
                                                                   and any(c.islower() for c in part))


COUNTED = {"codes": "board"}
"""Lists whose items the arbiter counts from 1 by what they stand for: ``RecordResults.codes``
holds one code per board, board 1 first, so its third code is ``codes[board 3]``, not ``codes[2]``."""


def field_path(loc: Iterable[Any], keep_last: bool = False) -> str:
    """The product's form of a pydantic location: ``("teams", 0, "players", 2, "title")`` ->
    ``teams[0].players[2].title``; union members dropped; a key that is not a field name (an
    unknown field of any text) quoted and cut, ``["\\x00"]``. ``keep_last``: the last part is a key
    the input gave (an unknown field), kept whatever it looks like. Empty for the whole input.
    A position in a list of ``COUNTED`` is named as the arbiter counts it: ``("codes", 2)`` ->
    ``codes[board 3]``; other positions count from 0."""
    parts = list(loc)
    out = ""
    name = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if _member(part) and not (keep_last and last):
            continue
        if isinstance(part, int):
            out += f"[{COUNTED[name]} {part + 1}]" if name in COUNTED else f"[{part}]"
        elif isinstance(part, str) and _IDENT.match(part) and len(part) <= 64:
            out += f".{part}" if out else part
        else:
            out += f"[{shown(part, 40)}]"
        name = part if isinstance(part, str) else ""
    return out


def _in_member(err: Mapping[str, Any]) -> bool:
    return any(_member(p) for p in err.get("loc", ())[:-1]) or (bool(err.get("loc")) and _member(err["loc"][-1]))


def first_error(errors: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    """The error to report of pydantic's list: the first, unless it only says the value is not of
    one member of a union (``RuleProfile | str`` given a long text) while another error of the list
    says what is wrong with it (too long)."""
    for err in errors:
        if not (_in_member(err) and str(err.get("type", "")).endswith("_type")):
            return err
    return errors[0]


def _grammar(pattern: str) -> tuple[str, str] | None:
    return limits.GRAMMARS.get(pattern)


def _strip_rule(text: str) -> tuple[str, str | None]:
    """``"... [rule: R]"`` -> (``"..."``, ``R``); without a rule: (text, None)."""
    if " [rule: " in text and text.endswith("]"):
        head, _, rule = text.rpartition(" [rule: ")
        return head, rule[:-1]
    return text, None


def _number_of(value: Any, whole: bool) -> str:
    number = "a whole number" if whole else "a number"
    if isinstance(value, (bool, str, dict, list, tuple)) or value is None:
        return f"{shown(value)} is {_kind_of(value)}, not {number}"
    return f"{shown(value)} is not {number}"


def _kind_of(value: Any) -> str:
    """A JSON value's kind, in words (for "X is a list, not text")."""
    if value is None:
        return "null"
    return {bool: "true or false", int: "a number", float: "a number", str: "text", dict: "an object", list: "a list",
            tuple: "a list"}.get(type(value), "a value")


def problem(errors: Sequence[Mapping[str, Any]] | Any, schema: str = "schema") -> Problem:
    """The ``Problem`` of pydantic's error list ``errors`` (or of a ``ValidationError``): its first
    error (``first_error``) in the product's words. ``schema`` names the rule of what only the
    schema says (a field missing or unknown, a value outside a list of choices): ``"schema
    RecordResult v1"``."""
    if hasattr(errors, "errors"):
        errors = errors.errors()
    err = first_error(errors)
    return explain(err, schema)


def explain(err: Mapping[str, Any], schema: str = "schema") -> Problem:
    """The ``Problem`` of one pydantic error dict (``type``, ``loc``, ``msg``, ``input``, ``ctx``)."""
    etype = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    value = err.get("input")
    loc = tuple(err.get("loc", ()))
    path = field_path(loc, keep_last=etype == "extra_forbidden") or "(message)"
    leaf = path.rsplit(".", 1)[-1].split("[", 1)[0] or "value"
    v = shown(value)

    def out(message: str, rule: str) -> Problem:
        return Problem(path, message, rule)

    if etype in ("value_error", "assertion_error"):
        text = str(ctx.get("error", "")) or str(err.get("msg", "")).removeprefix("Value error, ")
        message, rule = _strip_rule(text)
        return out(message, rule or schema)
    if etype == "string_pattern_mismatch":
        what = _grammar(str(ctx.get("pattern", "")))
        if what is None:
            return out(f"{v} is not of the form {leaf} takes", f"{schema}: {leaf} form")
        return out(f"{v} is not {what[0]}", what[1])
    if etype == "missing":
        return out("required, not given", schema)
    if etype == "extra_forbidden":
        return out(f"not a field here (given {v})", schema)
    if etype in ("string_type",):
        return out(f"{v} is {_kind_of(value)}, not text", STRICT_TYPES_RULE)
    if etype in ("int_type", "int_parsing", "int_from_float", "float_type", "float_parsing", "decimal_type",
                 "decimal_parsing", "finite_number", "int_parsing_size"):
        whole = etype.startswith("int")
        # *_parsing: a text read leniently (a URL's path or query) that is no number; JSON's are strict
        rule = ("whole numbers" if whole else "numbers") if etype.endswith(("_parsing", "_size")) else STRICT_TYPES_RULE
        return out(_number_of(value, whole) if etype != "finite_number" else f"{v} is not a finite number", rule)
    if etype in ("bool_type", "bool_parsing"):
        return out(f"{v} is {_kind_of(value)}, not true or false",
                   "true or false" if etype == "bool_parsing" else STRICT_TYPES_RULE)
    if etype in ("dict_type", "model_type", "model_attributes_type", "mapping_type", "dataclass_type"):
        return out(f"{v} is {_kind_of(value)}, not an object", STRICT_TYPES_RULE)
    if etype in ("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"):
        return out(f"{v} is {_kind_of(value)}, not a list", STRICT_TYPES_RULE)
    if etype in ("string_too_long", "too_long"):
        size = len(value) if hasattr(value, "__len__") else ctx.get("actual_length", "?")
        unit = "characters" if etype == "string_too_long" else "items"
        return out(f"{size} {unit}; at most {ctx.get('max_length')}", SIZE_RULE)
    if etype in ("string_too_short", "too_short"):
        least = ctx.get("min_length")
        if etype == "string_too_short":
            return out("empty" if least == 1 else f"shorter than {least} characters",
                       f"{leaf}: not empty" if least == 1 else f"{leaf}: at least {least} characters")
        return out(f"{len(value) if hasattr(value, '__len__') else 0} items; at least {least}", f"{leaf}: at least {least}")
    bounds = {"greater_than_equal": ("ge", "below", "at least"), "greater_than": ("gt", "not above", "above"),
              "less_than_equal": ("le", "above", "at most"), "less_than": ("lt", "not below", "below")}
    if etype in bounds:
        key, verb, rule = bounds[etype]
        return out(f"{v} is {verb} {ctx.get(key)}", f"{leaf} {rule} {ctx.get(key)}")
    if etype == "literal_error":
        return out(f"{v} is not one of {ctx.get('expected')}", _choices(leaf, schema))
    if etype in ("union_tag_invalid", "union_tag_not_found"):
        tag = str(ctx.get("discriminator", "")).strip("'")
        at = Problem(f"{path}.{tag}" if path != "(message)" else tag, "", "")
        if etype == "union_tag_not_found":
            return Problem(at.field, "required, not given", schema)
        return Problem(at.field, f"{shown(ctx.get('tag'))} is not one of {ctx.get('expected_tags')}", _choices(tag, schema))
    if etype == "string_unicode":
        return out(f"{v} is not Unicode text", limits.TEXT_RULE)
    if etype.startswith("date") or etype.startswith("datetime") or etype.startswith("time"):
        form = "a date such as 2026-09-12" if etype.startswith("date_") or etype == "date_type" else \
            "an ISO 8601 date-time such as 2026-09-12T15:00:00+05:00"
        return out(f"{v} is not {form}", f"{leaf}: ISO 8601 dates")
    if etype in ("json_invalid", "json_type"):
        at = loc[-1] if loc and isinstance(loc[-1], int) else None
        where = f" at character {at + 1}" if at is not None else ""
        return Problem("(message)", f"not JSON: {ctx.get('error', 'malformed')}{where}", "JSON syntax")
    if etype in ("none_required",):
        return out(f"{v} is given where nothing is allowed", schema)
    return out(f"{v} does not fit {leaf}", schema)


_CHOICES = {"result": "result codes", "forfeit": "forfeit reasons", "role": "roles", "type": "known event types",
            "command": "known commands"}


def _choices(leaf: str, schema: str) -> str:
    named = _CHOICES.get(leaf)
    return named if named else f"{schema}: {leaf} values"


def refusal_line(what: str, p: Problem) -> str:
    """``<what>: <field>: <message> [rule: <rule>]``; ``what`` names what was refused ("command
    RecordResult", "event r1/t1/b5 (BoardResultRecorded)", "teams.csv line 4"), empty for none."""
    head = f"{what}: " if what else ""
    return f"{head}{p.field}: {p.message} [rule: {p.rule}]"


def has_library_text(text: str) -> str | None:
    """The first of ``LIBRARY_MARKERS`` in ``text``, None if it holds none."""
    low = text.lower()
    for marker in LIBRARY_MARKERS:
        if marker.lower() in low:
            return marker
    return None


_LIBRARY_LINK = re.compile(r"\s*\(Background on this error at: [^)]*\)|\s*For further information visit \S+|https?://\S+")


def exception_text(exc: BaseException) -> str:
    """One line for a refusal or a dead letter that carries an exception: a pydantic
    ``ValidationError`` as the product's line (``<model>: <field>: <message> [rule: ...]``), a
    database error as its driver's message (not the statement, not the library's link), anything
    else as ``<type>: <text>`` without a library's link."""
    if hasattr(exc, "errors") and hasattr(exc, "title") and type(exc).__name__ == "ValidationError":
        return refusal_line(str(exc.title), problem(exc, schema=f"schema {exc.title}"))
    orig = getattr(exc, "orig", None)
    text = str(orig) if orig is not None and hasattr(exc, "statement") else str(exc)
    return f"{type(exc).__name__}: {_LIBRARY_LINK.sub('', text).strip()}"
