"""The facts of one data set that its round files cannot hold: ``event.json`` beside ``raw/``.

A data folder's ``event.json`` (described in that folder's README) gives the event's identity
(tournament id, name, rule profile, source), its late corrections (results changed after a
standings table was published) and its arbiter-made tables (a late team given the table of the
team the rules gave the bye). Teams are named by the data's team ids (in the chess-results
scrape format these are the starting ranks, which the importer makes the pairing numbers).

For a data set whose round files are PGN games (Chennai 2022), ``event.json`` also holds what the
games cannot: the teams not paired in a round (``absent``), the pairing-allocated byes (``byes``),
the boards of played matches missing from the games (``forfeited_boards``) and the round-1 tables
whose pair is not the table's number (``round1_table_numbers``); these teams are named as the data
names them.

Without ``event.json`` the tournament id is the folder's name and there are no corrections and
no arbiter-made tables: code never supplies facts of one data set (design.md, "Facts belong to
data"). A shared data folder is read-only: where one lacks an ``event.json`` the project keeps its
copy of the facts as ``olympiad/data/<folder name>.event.json`` (``producers.shipped.facts_path``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from producers.importers.text_files import read_json
from producers.shipped import facts_path
from schemas.refusals import problem, refusal_line

FILE_NAME = "event.json"
DEFAULT_PROFILE = "olympiad-2022"  # the rules of the format's events (Chennai 2022, Samarkand 2026)


class LateCorrection(BaseModel):
    """A match result changed after a standings table was published.

    ``teams``: the two data team ids, the one whose points ``published``/``corrected`` read first
    first; ``published``/``corrected``: the match scores in game points ("3.5-0.5");
    ``logged_after_pairing_of_round``: the correction enters the log right after that round's
    pairing (the standings published before it stay as they were); ``board``: the board that
    changed, None where the source does not say (the importer then picks one and says which).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    round: int = Field(ge=1)
    teams: tuple[int, int]
    published: str = Field(pattern=r"^\d+(\.5)?-\d+(\.5)?$")
    corrected: str = Field(pattern=r"^\d+(\.5)?-\d+(\.5)?$")
    logged_after_pairing_of_round: int = Field(ge=1)
    board: int | None = Field(default=None, ge=1)
    note: str = ""


class ArbiterMadeTable(BaseModel):
    """In ``round`` the late ``newcomer`` was given the table of ``opponent``, the team the
    pairing rules had given the bye: a table made by hand, outside the rules (data ids)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    round: int = Field(ge=1)
    newcomer: int
    opponent: int
    note: str = ""


class ForfeitedBoard(BaseModel):
    """A board of a played match that the data's games do not hold, decided as a forfeit
    (``result`` White-Black); ``note`` becomes the board result's note."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    round: int = Field(ge=1)
    table: int = Field(ge=1)
    board: int = Field(ge=1)
    result: Literal["+/-", "-/+", "-/-"]
    note: str = ""


class EventFacts(BaseModel):
    """The contents of ``event.json`` (or what its absence means: see the module docstring).

    ``absent``: round -> teams not paired; ``byes``: round -> the team given the pairing-allocated
    bye; ``round1_table_numbers``: round-1 table -> the pairing number k of its pair (k v k + N/2)
    where it is not the table's number (a host team put on table 1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    tournament_id: str = Field(min_length=1, max_length=100)
    name: str = Field(min_length=1)
    profile: str = DEFAULT_PROFILE
    source: str = ""
    late_corrections: tuple[LateCorrection, ...] = ()
    arbiter_made_tables: tuple[ArbiterMadeTable, ...] = ()
    absent: dict[int, tuple[str, ...]] = {}
    byes: dict[int, str] = {}
    forfeited_boards: tuple[ForfeitedBoard, ...] = ()
    round1_table_numbers: dict[int, int] = {}


def read_event_facts(folder: Path, default_name: str | None = None) -> EventFacts:
    """The facts of the data folder ``folder``: its ``event.json`` (or the project's copy for a
    folder of that name, see the module docstring), or without one the folder's name as
    tournament id, ``default_name`` (the data's own name of the event; default: the folder's
    name) as name, the default profile and no corrections.

    Raises ``ValueError`` naming the file and the field for an ``event.json`` that is not valid
    JSON or does not fit the shape above.
    """
    path = facts_path(str(folder.resolve())) or folder / FILE_NAME
    return read_event_facts_file(path, default_id=folder.resolve().name, default_name=default_name)


def read_event_facts_file(path: Path, default_id: str | None = None, default_name: str | None = None) -> EventFacts:
    """The facts in the ``event.json``-shaped file ``path``; if it does not exist, those of a
    folder without one named ``default_id`` (``FileNotFoundError`` when ``default_id`` is None).
    Raises ``ValueError`` as ``read_event_facts``."""
    if not path.is_file():
        if default_id is None:
            raise FileNotFoundError(f"{path}: no such event facts file")
        return EventFacts(tournament_id=default_id, name=default_name or default_id)
    data = read_json(path)
    try:
        return EventFacts.model_validate(data)
    except ValidationError as exc:
        raise ValueError(refusal_line(str(path), problem(exc, schema="event.json fields"))) from None


def team_ids_by_number(events: Iterable[Any]) -> dict[int, tuple[str, str]]:
    """Pairing number -> (team id, name) of every ``TeamRegistered`` in ``events``."""
    return {e.pairing_number: (e.team_id, e.name) for e in events
            if e.type == "TeamRegistered" and e.pairing_number is not None}


def arbiter_made(facts: EventFacts, events: list[Any]) -> dict[int, str]:
    """Round -> team id of the newcomer of each arbiter-made table in ``facts``, resolved
    against the log ``events`` (data team id = pairing number).

    Raises ``ValueError`` naming the entry for a team the log does not have, or for a round
    whose published pairing has no table of the newcomer against the named opponent.
    """
    teams = team_ids_by_number(events)
    paired = {e.round: e for e in events if e.type == "RoundPaired"}
    out: dict[int, str] = {}
    for i, made in enumerate(facts.arbiter_made_tables):
        where = f"{FILE_NAME}: arbiter_made_tables[{i}]"
        for role in ("newcomer", "opponent"):
            if getattr(made, role) not in teams:
                raise ValueError(f"{where}: {role} {getattr(made, role)} is not a team of the data "
                                 f"(team ids 1..{max(teams, default=0)})")
        (newcomer, new_name), (opponent, opp_name) = teams[made.newcomer], teams[made.opponent]
        pairing = paired.get(made.round)
        if pairing is None or not any({t.home, t.away} == {newcomer, opponent} for t in pairing.tables):
            raise ValueError(f"{where}: round {made.round} has no table {new_name} v {opp_name} "
                             "in the published pairing")
        if made.round in out:
            raise ValueError(f"{where}: round {made.round} already has an arbiter-made table")
        out[made.round] = newcomer
    return out
