"""The engine against published pairings (issue 3, acceptance 4; ``docs/pairing-fidelity.md``).

For each round r of an event log, the history of rounds 1..r-1 *as it stood when round r was
paired* (later corrections left out) is fed to the engine, and its pairs are compared with the
published ones. Two helpers make real data usable:

- ``infer_colours``: sources without board-1 colours (Samarkand 2026: ``colours_known`` is
  False) get the colours the profile's own allocation rules (R-C1, R-C2) give each played match,
  round by round. This is a reconstruction, not data; the report says when it was used.
- ``arbiter_made``: tables the arbiters made by hand (a late team put in the bye's place) are
  left out of the comparison and their newcomer out of the engine's input. Which tables these
  are is a fact of the data set (its ``event.json``, read by
  ``producers.importers.event_facts.arbiter_made``), handed in by the caller.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable

from processors.tournament import TournamentState
from projections.history import History, build_history
from projections.pairing.colours import BLACK, WHITE
from projections.pairing.engine import Pairing, board_one
from projections.pairing.systems import propose_pairing
from projections.pairing.entrants import build_entrants
from schemas.events import Table
from schemas.profile import RuleProfile

def infer_colours(history: History, profile: RuleProfile) -> History:
    """``history`` with a board-1 colour for every played match that has none, as the profile's
    allocation (R-C1 with the match's table number, R-C2) gives it, rounds in order."""
    rounds = {}
    for r in range(1, history.through_round + 1):
        prefix = History(history.teams, rounds, r - 1, history.withdrawn)
        entrants = {e.team_id: e for e in build_entrants(prefix, profile, r)}
        per = dict(history.rounds[r])
        for team, tr in history.rounds[r].items():
            if tr.kind != "played" or tr.colour is not None or team > tr.opponent:
                continue
            a, b = entrants[team], entrants[tr.opponent]
            higher, lower = (a, b) if a.place < b.place else (b, a)
            home, away, _, _ = board_one(higher, lower, tr.table or 1, profile)
            per[home.team_id] = dataclasses.replace(per[home.team_id], colour=WHITE)
            per[away.team_id] = dataclasses.replace(per[away.team_id], colour=BLACK)
        rounds[r] = per
    return History(history.teams, rounds, history.through_round, history.withdrawn)


def without_arbiter_made(published: Any, newcomer: str | None) -> tuple[tuple[Table, ...], str | None, tuple[str, ...]]:
    """``(tables, bye, absent)`` of a published round as the rules made it, before the arbiters
    put ``newcomer`` (a late team) in the place of the bye: its table is left out, its opponent
    gets the bye back, and the newcomer counts as absent."""
    if newcomer is None:
        return tuple(published.tables), published.bye, tuple(published.absent)
    tables, bye = [], published.bye
    for t in published.tables:
        if newcomer in (t.home, t.away):
            bye = t.away if t.home == newcomer else t.home
        else:
            tables.append(t)
    return tuple(tables), bye, tuple(sorted(set(published.absent) | {newcomer}))


@dataclass(frozen=True)
class RoundComparison:
    """Round ``round``: the published pairs compared (``total``), how many the engine made too
    (``identical``), the published pairs it did not make (``published_only``) and its own
    (``engine_only``), and the tables left out as arbiter-made."""

    round: int
    identical: int
    total: int
    published_only: tuple[tuple[str, str], ...]
    engine_only: tuple[tuple[str, str], ...]
    arbiter_made: tuple[tuple[str, str], ...]
    pairing: Pairing

    @property
    def share(self) -> float:
        """Identical pairs / published pairs compared (1.0 = identical pairing)."""
        return self.identical / self.total if self.total else 1.0


def compare_rounds(
    events: Iterable[Any], profile: RuleProfile | None = None, *, arbiter_made: dict[int, str] | None = None,
    colours: bool = True, rounds: Iterable[int] | None = None,
) -> list[RoundComparison]:
    """Compare the engine with every published round of ``events`` (or only ``rounds``).

    ``profile``: the rules to pair with (default: the log's own); ``colours``: infer missing
    colours (``infer_colours``). ``events`` are a decided log (``producers.sources.load_log``):
    replayed with ``evolve``, not judged again. Raises what ``propose_pairing`` raises.
    """
    arbiter_made = arbiter_made or {}
    wanted = set(rounds) if rounds is not None else None
    state = TournamentState()
    out = []
    for event in events:
        if event.type == "RoundPaired" and (wanted is None or event.round in wanted):
            out.append(_compare(state, event, profile or state.profile, arbiter_made.get(event.round), colours))
        state.evolve(event)
    return out


def _compare(state: TournamentState, published: Any, profile: RuleProfile, newcomer: str | None, colours: bool) -> RoundComparison:
    r = published.round
    history = build_history(state, r - 1)
    if colours:
        history = infer_colours(history, profile)
    tables, _, absent = without_arbiter_made(published, newcomer)
    pairing = propose_pairing(history, profile, r, absent)
    official = {frozenset((t.home, t.away)) for t in tables}
    made = {frozenset((t.home, t.away)) for t in published.tables} - official
    engine = pairing.pairs()
    number = {t: history.teams[t].pairing_number for t in history.teams}

    def listed(pairs: set[frozenset[str]]) -> tuple[tuple[str, str], ...]:
        return tuple(sorted((tuple(sorted(p, key=number.__getitem__)) for p in pairs), key=lambda p: number[p[0]]))

    return RoundComparison(r, len(official & engine), len(official), listed(official - engine), listed(engine - official),
                           listed(made), pairing)
