"""``olympiad``: the command-line entry point.

Each ``olympiad/cmd_*.py`` module registers its commands on ``app`` (``@app.command()``) when
imported; adding a module is one line in ``COMMAND_MODULES`` below. A command module imports only
typer and the standard library at its top, and everything else inside its command functions,
so that ``olympiad --help`` and every command start without importing the web framework,
SQLAlchemy or Kafka (``tests/unit/test_cli_startup.py`` checks it; ``bench/bench_cli.py`` times it).
"""
from __future__ import annotations

import importlib

import typer
from typer.core import TyperArgument

# Plain (click-style) help: flags read as flags (no "<bool>" after them), and it needs no rich.
app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  pretty_exceptions_enable=False, help="Olympiad team Swiss: events, standings, pairings.")

COMMAND_MODULES = (
    "olympiad.cmd_replay",
    "olympiad.cmd_serve",
    "olympiad.cmd_pairing",
    "olympiad.cmd_live",
    "olympiad.cmd_arbiter",
    "olympiad.cmd_trf",
    "olympiad.cmd_audit",
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

for _module in COMMAND_MODULES:
    importlib.import_module(_module)
