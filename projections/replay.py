"""Replay: fold an event list into the standings after each round, as they stood then.

The standings after round r are computed on the log prefix that ends just before the pairing of
round r + 1 is published: a correction logged later (Samarkand 2026, round 10) changes the later
standings, not the ones published at the time. The same function serves the CLI replay, the
embedded store's projection and the Kafka projection worker's checks.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable

from processors.tournament import RuleViolation, TournamentState
from projections.history import build_history, decided_only
from projections.standings import StandingRow, compute_standings, standings_document
from projections.standings.ranking import standings_canonical
from schemas.canonical import text_digest


@dataclass(frozen=True)
class RoundStandings:
    """Standings after one round: rows in rank order, the canonical document and its SHA-256."""

    round: int
    complete: bool
    rows: list[StandingRow]
    tournament_id: str
    profile: str  # the rule profile's name

    @cached_property
    def document(self) -> dict[str, Any]:
        """The standings document (``projections.standings.standings_document``), built when read:
        the projection worker publishes and stores the canonical text and rows, not the dict."""
        return standings_document(self.rows, tournament_id=self.tournament_id, round=self.round, profile=self.profile,
                                  complete=self.complete)

    @cached_property
    def canonical(self) -> str:
        """``canonical_json(self.document)``, from the rows' held texts (``standings_canonical``)."""
        return standings_canonical(self.rows, tournament_id=self.tournament_id, round=self.round, profile=self.profile,
                                   complete=self.complete)

    @cached_property
    def digest(self) -> str:
        return text_digest(self.canonical)


@dataclass
class ReplayResult:
    """The final tournament state and the standings after each round 1..through_round."""

    state: TournamentState
    rounds: dict[int, RoundStandings]
    applied: int
    duplicates: int


def fixes_standings_of(event: Any) -> int | None:
    """The round whose standings ``event`` fixes, or None: publishing the pairing of round r + 1
    fixes the standings after round r, so that a correction logged later changes the later
    standings only (Samarkand 2026's late round-10 correction; issue 10: a late correction). The
    one statement of the rule: ``replay`` and the projection worker cut the log with it."""
    return event.round - 1 if event.type == "RoundPaired" and event.round > 1 else None


def standings_after(state: TournamentState, rnd: int) -> RoundStandings:
    """Standings of ``state`` after round ``rnd`` (rows, canonical document, digest).

    A round in progress counts only its decided matches (``projections.history.decided_only``):
    a team whose match is not complete keeps the values of the rounds before, so an unplayed
    match never moves a tie-break; ``complete`` is then False (provisional standings)."""
    complete = state.round_complete(rnd)
    history = build_history(state, rnd)
    rows = compute_standings(history if complete else decided_only(history), state.profile)
    return RoundStandings(rnd, complete, rows, state.tournament_id or "", state.profile.name)


def replay(events: Iterable[Any], through_round: int | None = None,
           before: Callable[[TournamentState, Any], None] | None = None) -> ReplayResult:
    """Apply ``events`` in order and compute the standings after every round up to ``through_round``
    (default: the last paired round).

    ``before(state, event)``, if given, is called with the state as it stands before each event
    is applied (it must not change the state): the auditor reproduces each round's pairing
    proposal on the log as it stood before the round was paired, in the same pass.

    The events were decided when they were accepted: they evolve the state, unchecked (events
    from outside enter a log as an ``ImportFacts`` command first, ``producers.sources.load_log``).
    Raises ``RuleViolation`` (its ``event_id``
    set) only for an event id used twice for different events, and ``ValueError`` if
    ``through_round`` was never paired.
    """
    state = TournamentState()
    out: dict[int, RoundStandings] = {}
    applied = duplicates = 0
    for event in events:
        if before is not None:
            before(state, event)
        done = fixes_standings_of(event)
        if done is not None and done not in out:
            out[done] = standings_after(state, done)
        if event.type == "RoundPaired" and through_round is not None and event.round > through_round:
            break
        try:
            if state.evolve(event):
                applied += 1
            else:
                duplicates += 1
        except RuleViolation as exc:
            exc.event_id = event.event_id
            raise
    last = max(state.rounds, default=0)
    target = last if through_round is None else through_round
    if target > last:
        raise ValueError(f"round {target} has not been paired in this log (last paired round: {last})")
    if target >= 1 and target not in out:
        out[target] = standings_after(state, target)
    return ReplayResult(state, {r: s for r, s in sorted(out.items()) if r <= target}, applied, duplicates)



def standings_at(events: Iterable[Any], rnd: int | None = None) -> tuple[TournamentState, RoundStandings]:
    """The final state of ``events`` and the standings after round ``rnd`` (default: the last
    paired round) as ``replay`` gives them, computing no other round's standings: what
    ``olympiad replay`` prints, in a tenth of the time of a whole ``replay``.

    The events were decided: they evolve the state, unchecked, as in ``replay``. Raises
    ``RuleViolation`` (``event_id`` set) as ``replay``, and ``ValueError`` if the log pairs no
    round or round ``rnd`` was never paired.
    """
    state = TournamentState()
    at: RoundStandings | None = None
    for event in events:
        if rnd is not None and at is None and event.type == "RoundPaired" and event.round == rnd + 1:
            at = standings_after(state, rnd)  # as they stood when the next round was paired
        try:
            state.evolve(event)
        except RuleViolation as exc:
            exc.event_id = event.event_id
            raise
    last = max(state.rounds, default=0)
    if last == 0:
        raise ValueError("the source has no paired round")
    if at is None:
        target = last if rnd is None else rnd
        if target > last:
            raise ValueError(f"round {target} has not been paired in this log (last paired round: {last})")
        at = standings_after(state, target)
    return state, at
