"""Line-ups and absences of a round (R-D1: four of the nominated players, in nominated order)."""
from __future__ import annotations

from typing import Any

import processors.deciders.identity as identity
from processors.rules import team_known
from processors.tournament import TournamentState
from schemas import event_ids
from schemas.events import AbsenceAnnounced, LineupSubmitted


def submit(state: TournamentState, c: Any) -> list[Any]:
    """``SubmitLineup`` -> ``LineupSubmitted``; resubmitting before the round is published
    replaces it (a team without one plays its first four nominated players)."""
    return [identity.numbered(state, event_ids.lineup(c.tournament_id, c.round, c.team_id), lambda eid: LineupSubmitted(
        event_id=eid, **identity.stamp(c), round=c.round, team_id=c.team_id, boards=c.boards))]


def absence(state: TournamentState, c: Any) -> list[Any]:
    """``AnnounceAbsence`` -> ``AbsenceAnnounced`` (before the round is paired): the team is not
    paired and scores 0 MP, 0 GP for the round."""
    team_known(state, c.team_id, "team_id")
    return [AbsenceAnnounced(event_id=event_ids.absence(c.tournament_id, c.round, c.team_id), **identity.stamp(c),
                             round=c.round, team_id=c.team_id, reason=c.reason)]
