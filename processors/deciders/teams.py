"""Teams: registration (on time or late), rosters, starting ranks, withdrawal (R-D1, R-I1)."""
from __future__ import annotations

from typing import Any

import processors.deciders.identity as identity
from processors.rules import nominations_open, team_known
from processors.tournament import RuleViolation, TournamentState
from projections.seeding import pairing_numbers
from schemas import event_ids
from schemas.events import RosterChanged, StartingRanksSet, TeamRegistered, TeamWithdrawn


REGISTRATION_RULE = ("a team's registration is its identity: change its players with ChangeRoster (olympiad team "
                     "roster), or withdraw it (WithdrawTeam)")


def same_registration(state: TournamentState, entry: Any, field: str) -> None:
    """Raise ``RuleViolation`` (field ``<field>.name``, ``.federation``, ``.pairing_number`` or
    ``.players``, the first that differs) if ``entry`` registers a team the log holds with other
    facts than its registration: a registration again is already recorded, never a change."""
    prior = state.applied.get(event_ids.team(state.tournament_id or "", entry.team_id))
    if prior is None:
        return
    for key in ("name", "federation", "pairing_number", "players"):
        was, now = getattr(prior, key), getattr(entry, key)
        if was != now:
            told = "other players" if key == "players" else f"{key} {was!r}; this entry gives {now!r}"
            raise RuleViolation(f"team {entry.team_id!r} is registered with {told}", field=f"{field}.{key}",
                                rule=REGISTRATION_RULE)


def _registration(state: TournamentState, c: Any, entry: Any, from_round: int | None, field: str) -> TeamRegistered:
    same_registration(state, entry, field)
    late = from_round is not None and from_round > 1 or state.last_round > 0
    if not late:
        nominations_open(state, c.issued_at, "team")
    return TeamRegistered(
        event_id=event_ids.team(c.tournament_id, entry.team_id), **identity.stamp(c), team_id=entry.team_id,
        name=entry.name, federation=entry.federation, players=entry.players, pairing_number=entry.pairing_number,
        from_round=from_round if late else None,
    )


def register(state: TournamentState, c: Any) -> list[Any]:
    """``RegisterTeam`` -> ``TeamRegistered``. Before round 1 is published and the nomination
    deadline it is a registration; after, a late entry that plays from ``from_round`` (default:
    the next round) and takes the next pairing number."""
    return [_registration(state, c, c.team, c.from_round, "team")]


def listed_once(entries: Any) -> None:
    """Each team of an import is listed once: raises ``RuleViolation`` (field ``teams.<i>.team_id``,
    the second listing) otherwise. Also checked by a door on a whole import before it sends it
    in parts (``producers.doors.in_parts``)."""
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        if entry.team_id in seen:
            raise RuleViolation(f"team {entry.team_id!r} is listed twice", field=f"teams.{i}.team_id", rule="unique team")
        seen.add(entry.team_id)


def import_teams(state: TournamentState, c: Any) -> list[Any]:
    """``ImportTeams`` -> one ``TeamRegistered`` per team, all accepted or none."""
    listed_once(c.teams)
    return [_registration(state, c, entry, None, f"teams.{i}") for i, entry in enumerate(c.teams)]


def change_roster(state: TournamentState, c: Any) -> list[Any]:
    """``ChangeRoster`` -> ``RosterChanged`` (refused after the nomination deadline, R-D1)."""
    team_known(state, c.team_id, "team_id")
    nominations_open(state, c.issued_at, "players")  # first: after the deadline no roster is taken, same or not
    if state.teams[c.team_id].players == c.players:
        raise RuleViolation(f"the roster of {c.team_id!r} already is this one", field="players", rule="a change changes something")
    return [identity.numbered(state, event_ids.roster(c.tournament_id, c.team_id), lambda eid: RosterChanged(
        event_id=eid, **identity.stamp(c), team_id=c.team_id, players=c.players, reason=c.reason))]


def starting_ranks(state: TournamentState, c: Any) -> list[Any]:
    """``SetStartingRanks`` -> ``StartingRanksSet``: the teams in R-I1 order (the average rating of
    the four best players, the profile's floor for an unrated player; D.02 2022 art. 3.1)."""
    if not state.teams:
        raise RuleViolation("no team is registered", field="command", rule="every team ranked once")
    p = state.profile
    first = [t for tid, t in state.teams.items() if state.entered.get(tid, 1) == 1]
    numbers = pairing_numbers(first, p.boards, p.seeding_floor_rating)
    order = tuple(sorted(numbers, key=numbers.get))
    return [identity.numbered(state, event_ids.starting_ranks(c.tournament_id), lambda eid: StartingRanksSet(
        event_id=eid, **identity.stamp(c), order=order,
        rule=f"R-I1: average rating of the {p.boards} best players, unrated at {p.seeding_floor_rating}"))]


def withdraw(state: TournamentState, c: Any) -> list[Any]:
    """``WithdrawTeam`` -> ``TeamWithdrawn`` from ``from_round`` (default: the next round to pair)."""
    team_known(state, c.team_id, "team_id")
    start = c.from_round or state.last_round + 1
    if start <= state.last_round:
        raise RuleViolation(f"round {start} is already published; a withdrawal takes effect from round "
                            f"{state.last_round + 1}", field="from_round", rule="withdrawals from an unpublished round")
    return [TeamWithdrawn(event_id=event_ids.withdrawn(c.tournament_id, c.team_id), **identity.stamp(c),
                          team_id=c.team_id, from_round=start, reason=c.reason)]
