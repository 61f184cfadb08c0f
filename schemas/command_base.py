"""What every command carries (``schemas.commands`` names them): its tournament, who asks, when,
and the id that correlates its verdict. A module of its own so that each family of commands
(``schemas.commands``, ``schemas.game_commands``) builds on it without importing the other."""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from schemas.limits import ActorId, TableNo, TeamId, Timestamp, TournamentId

Role = Literal["chief", "arbiter", "terminal", "captain", "importer", "feed"]
"""Who asks: the chief arbiter (every command), an arbiter (results, forfeits, line-ups, a feed's
results confirmed), a result-entry terminal (the board results of its table in the current round),
a team captain (its team's line-up and absence), an importer (the facts of a data set or a file,
``ImportFacts``), a live game feed's ingester (``ReportGame``, ``ReportFeedProblem``)."""


class Actor(BaseModel):
    """Who issues a command: ``role``, ``id``; a terminal's ``table`` (None: every table) and a
    captain's ``team``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    role: Role
    id: ActorId
    table: TableNo | None = None
    team: TeamId | None = None


class CommandBase(BaseModel):
    """A command: ``tournament_id``, ``actor``, ``issued_at`` (the time its events carry; the door
    stamps it), ``command_id`` (correlates its verdict on Kafka)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    tournament_id: TournamentId
    actor: Actor
    issued_at: Timestamp | None = None
    command_id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")] | None = None
