"""The what-if route: the standings, the next pairing, what a team needs and the chances, if...

A read, not a write: the route takes a copy of the served state (``TournamentState.fork``) and the
standings of the rounds before, and hands them to ``projections.views.whatif.whatif_answer``, the
function ``olympiad whatif`` calls. The hypothetical results travel in the query and live only
in that request's memory: no command is sent, nothing is stored or published, and another
browser sees nothing of it. A bad setting is refused like a command (422, field and rule).
"""
from __future__ import annotations

from typing import Any, Optional

from fastapi import APIRouter, Depends, Query

from olympiad.web.api_errors import REFUSALS
from olympiad.web.deps import WebDoor, door, served
from projections.views.whatif import whatif_answer
from projections.whatif_chances import MAX_SIMULATIONS

router = APIRouter()


@router.get("/api/tournaments/{tid}/whatif", responses={s: REFUSALS[s] for s in (404, 422)}, tags=["read"])
def whatif(tid: str = Depends(served), settings: list[str] = Query([], alias="set", description=(
               "a hypothetical result of a pending match of the round in play: ROUND/TABLE=SCORE, home first "
               "(11/5=2.5-1.5), or ROUND/TABLE=the board results White-Black (11/5=1-0,1/2-1/2,0-1,1-0); repeatable")),
           needs: Optional[str] = Query(None, description="a team (id or full name): what it needs from its own match"),
           band: list[int] = Query([1, 3], description="a place band, the top N (1: first place, 3: a medal); repeatable"),
           chances: Optional[int] = Query(None, description=f"simulations of the rounds still to play (1..{MAX_SIMULATIONS}), "
                                          "for each team's chances of each band"),
           seed: int = Query(1, description="the random seed of the chances and of a sampled answer"),
           web: WebDoor = Depends(door)) -> dict[str, Any]:
    """What if the pending matches named by ``set`` ended so: the standings as the scoreboard would
    show them (every tie-break, "decided by"), the round in play with the hypothetical tables
    marked, the engine's pairing of the next round once every match has a result, and, when asked,
    what a team needs and the chances. Always ``hypothetical``: nothing is recorded."""
    with web.backend.read() as snap:  # a copy: the answer is computed without holding the store
        state, official = snap.state.fork(), dict(snap.standings)
    return whatif_answer(state, official, settings, needs=needs, bands=band, simulations=chances, seed=seed)
