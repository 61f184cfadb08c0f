"""``olympiad``: the command-line entry point. Each ``cmd_*`` module registers its commands on ``app``."""
from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Olympiad team Swiss: events, standings, pairings.")

# Command modules register themselves on ``app`` when imported.
from olympiad import cmd_replay  # noqa: E402,F401
from olympiad import cmd_serve  # noqa: E402,F401
from olympiad import cmd_pairing  # noqa: E402,F401
from olympiad import cmd_live  # noqa: E402,F401
from olympiad import cmd_trf  # noqa: E402,F401
