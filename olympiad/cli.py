"""``olympiad``: the command-line entry point.

Each ``olympiad/cmd_*.py`` module registers its commands on ``app`` (``@app.command()``) when
imported; adding a module is one line in ``COMMAND_MODULES`` below. A command module imports only
typer and the standard library at its top, and everything else inside its command functions,
so that ``olympiad --help`` and every command start without importing the web framework,
SQLAlchemy or Kafka (``tests/unit/test_cli_startup.py`` checks it; ``bench/bench_cli.py`` times it).
A command module has no ``from __future__ import annotations``: typer reads the annotations of
every command at every start, and as text each one was compiled and evaluated again (half of
typer's building of the command group, docs/cli.md).
"""
from __future__ import annotations

import copy
import importlib
import sys
from typing import Any

import typer
import typer.main
from typer import _coercion, _param_types
from typer.core import TyperArgument

class Olympiad(typer.Typer):
    """The ``olympiad`` app. Run with a command's or a group's name first (``olympiad replay ...``),
    it builds that one alone: typer builds every command of a group (its parameters and their
    types) before it parses anything, about 4% of ``olympiad replay``'s CPU time for 30 commands it
    does not run (docs/cli.md). Anything else (``--help``, no name, an unknown name) gets the
    whole group, as before."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        argv = kwargs.get("args", args[0] if args else sys.argv[1:])
        name = argv[0] if argv else None
        commands = [c for c in self.registered_commands
                    if (c.name or typer.main.get_command_name(c.callback.__name__)) == name]
        groups = [g for g in self.registered_groups if g.name == name]
        if len(commands) + len(groups) != 1:
            return super().__call__(*args, **kwargs)
        one = copy.copy(self)
        one.registered_commands, one.registered_groups = commands, groups
        return typer.main.get_group(one)(*args, **kwargs)  # a group still: "olympiad replay" parses as before


# Plain (click-style) help: flags read as flags (no "<bool>" after them), and it needs no rich.
app = Olympiad(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
               pretty_exceptions_enable=False, help="Olympiad team Swiss: events, standings, pairings.")

COMMAND_MODULES = (
    "olympiad.cmd_replay",
    "olympiad.cmd_serve",
    "olympiad.cmd_pairing",
    "olympiad.cmd_live",
    "olympiad.cmd_arbiter",
    "olympiad.cmd_trf",
    "olympiad.cmd_audit",
    "olympiad.cmd_players",
    "olympiad.cmd_whatif",
    "olympiad.cmd_feed",
)


def _argument_usage(self: TyperArgument) -> str:
    """An argument as the usage line of a Unix command names it: ``SOURCE``, ``[SOURCE]`` when optional."""
    name = self.metavar or (self.name or "").upper()
    name = name if self.required else f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


# typer writes required arguments as "{source}" and their type after the name; ours read as the
# README writes them. (tests/unit/test_cli_startup.py fails if a typer release changes these hooks.)
TyperArgument._usage_display_name = _argument_usage
TyperArgument._rich_display_name = lambda self: self.metavar or (self.name or "").upper()
TyperArgument.display_type_rich = lambda self, ctx: None



def _value_refused(exc: Any) -> str:
    """What is wrong with a command-line value typer's pydantic adapter refused, in the product's
    words (``schemas.refusals``: ``'abc' is text, not a whole number``), never pydantic's."""
    from schemas.refusals import problem

    return problem(exc).message


# typer says a refused value with pydantic's message ("Input should be a valid integer, unable to
# parse string ..."); ours reads as every other refusal (issue 26; tests/unit/test_cli_startup.py).
_coercion.get_error_msg = _param_types.get_error_msg = _value_refused

for _module in COMMAND_MODULES:
    importlib.import_module(_module)
