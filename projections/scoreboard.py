"""What a public scoreboard shows while a tournament runs: never a tie-break moved by a match
that has not been played.

- the last paired round complete: its standings (official);
- a round in progress with no match decided: the standings after the last complete round, as
  they stood when this round was paired (``olympiad replay --through-round`` of that round);
- some matches decided: provisional standings, the last complete round plus the decided matches
  (``projections.replay.standings_after`` of a round in progress, as every door computes it),
  with how many of the round's matches are in.

Used by the web app's scoreboard page and its ``/scoreboard`` API (``olympiad.web``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from processors.tournament import TournamentState
from projections.replay import RoundStandings, standings_after


@dataclass(frozen=True)
class Scoreboard:
    """``standings`` (None before any round is complete and no match is decided) after
    ``based_on`` complete rounds plus ``decided`` of the ``tables`` matches of round ``round``
    (the last paired round); ``provisional`` when some but not all of them are in."""

    round: int
    based_on: int
    decided: int
    tables: int
    provisional: bool
    standings: RoundStandings | None

    @property
    def label(self) -> str:
        """"Standings after round 10", or "Provisional standings, round 11: 3 of 103 matches"."""
        if self.provisional:
            return f"Provisional standings, round {self.round}: {self.decided} of {self.tables} matches"
        if self.based_on == 0:
            return "No standings yet"
        return f"Standings after round {self.based_on}"


def scoreboard(state: TournamentState, official: Mapping[int, RoundStandings]) -> Scoreboard:
    """The scoreboard of ``state``; ``official[r]``: the standings after round r as they stood
    when round r + 1 was paired (a backend's ``Snapshot.standings``), used where they apply."""
    last = max(state.rounds, default=0)
    if last == 0:
        return Scoreboard(0, 0, 0, 0, False, None)
    tables = state.rounds[last].tables
    decided = sum(1 for t in tables if state.match(last, t.table).complete)
    if decided == len(tables):
        return Scoreboard(last, last, decided, len(tables), False, official.get(last) or standings_after(state, last))
    if decided == 0:
        before = official.get(last - 1) if last > 1 else None
        return Scoreboard(last, last - 1 if before else 0, 0, len(tables), False, before)
    return Scoreboard(last, last - 1, decided, len(tables), True, standings_after(state, last))
