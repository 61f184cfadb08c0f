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


def load_or_refuse(source: str) -> list:
    """Events of ``source``; a missing source or a bad log is refused with exit status 2. Titles
    that are not FIDE codes are kept and named in a note on stderr (``title_note``)."""
    from producers.importers.common import registered_titles, title_note
    from producers.sources import load_source
    from schemas.events import EventSchemaError

    try:
        events = load_source(source)
    except (FileNotFoundError, EventSchemaError, ValueError) as exc:
        refuse(exc)
    note_titles(title_note(registered_titles(events)))
    return events


def note_titles(note: str | None) -> None:
    """Print ``note`` (``producers.importers.common.title_note``), if any, on stderr as ``note: ...``."""
    if note:
        from rich.markup import escape

        err().print(f"note: {escape(note)}", highlight=False, soft_wrap=True)
