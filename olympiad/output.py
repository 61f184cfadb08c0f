"""What every command prints with: the two consoles, refusals, loading a source or refusing it.

The rich consoles are made on first use, so that importing a command module costs nothing
(``olympiad.cli``).
"""
from __future__ import annotations

import functools
from typing import Any, NoReturn

import typer


@functools.cache
def console() -> Any:
    """The rich console on stdout."""
    from rich.console import Console

    return Console()


@functools.cache
def err() -> Any:
    """The rich console on stderr (refusals, progress)."""
    from rich.console import Console

    return Console(stderr=True)


def say(text: str, *, stderr: bool = False) -> None:
    """Print ``text`` as it is on stdout (``stderr``: on stderr): no markup (a ``[`` in a path is
    text), no highlighting, and no line breaks put in at the terminal's width (``soft_wrap``), so a
    file path, a key or a URL in it stays one string that copies whole however narrow the terminal."""
    (err() if stderr else console()).print(text, markup=False, highlight=False, soft_wrap=True)


def refuse(exc: Exception) -> NoReturn:
    """Print a refusal (field, rule, offending event) on stderr and exit with status 2. A
    library's validation error that reached here is said in the product's words
    (``schemas.refusals``), never as the library prints it."""
    from rich.markup import escape

    err().print(f"[bold red]refused[/]: {escape(refusal_text(exc))}", highlight=False, soft_wrap=True)
    raise typer.Exit(code=2)


def refusal_text(exc: Exception) -> str:
    """The product's line of ``exc`` (without ``refused: ``): its text, the event it names first;
    a pydantic ``ValidationError`` as ``<model>: <field>: <message> [rule: ...]``."""
    from pydantic import ValidationError

    from schemas import refusals

    if isinstance(exc, ValidationError):
        return refusals.refusal_line(exc.title, refusals.problem(exc, schema=f"schema {exc.title}"))
    where = f"event {exc.event_id}: " if getattr(exc, "event_id", None) else ""
    return where + str(exc)


def read_or_refuse(source: str) -> Any:
    """What ``source`` holds, as read (``producers.sources.read_source``: a ``Source``, decided or
    an import); a missing source, a bad log or a broken hash chain is refused with exit status 2.
    Titles that are not FIDE codes are kept and named in a note on stderr (``title_note``)."""
    from producers.importers.common import registered_titles, title_note
    from producers.sources import read_source
    from schemas.events import EventSchemaError

    try:
        read = read_source(source)
    except (FileNotFoundError, EventSchemaError, ValueError) as exc:
        refuse(exc)
    note_titles(title_note(registered_titles(read.events)))
    return read


def load_or_refuse(source: str) -> list:
    """``source`` as a decided log (``producers.sources.as_log``: a log the product wrote as it
    is, an import's facts judged once through ``ImportFacts``); refused with exit status 2 as
    ``read_or_refuse``, and for a fact an event rule refuses (the fact, field and rule named)."""
    from producers.sources import as_log

    read = read_or_refuse(source)
    try:
        return as_log(read)
    except ValueError as exc:  # a RuleViolation, or a source with no event
        refuse(exc)


def note_titles(note: str | None) -> None:
    """Print ``note`` (``producers.importers.common.title_note``), if any, on stderr as ``note: ...``."""
    if note:
        from rich.markup import escape

        err().print(f"note: {escape(note)}", highlight=False, soft_wrap=True)
