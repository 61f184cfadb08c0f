"""Rounds: the engine's proposal, the arbiter's amendment, publication, closing.

FIDE D.02 2022 (and the 2008 rules): the pairing of round r is made once round r - 1 is
complete; the chief arbiter may amend it (a reason is mandatory and the pairing checker's
report is kept with it) and publishes it; a round is closed when every result is in, and its
standings are then official.
"""
from __future__ import annotations

from typing import Any

import processors.deciders.identity as identity
from processors.rules import missing_results, next_round, pairing_digest
from processors.tournament import RuleViolation, TournamentState
from projections.event_rules import OVERRIDDEN, absolute_override, checker_report, standings_digest
from schemas import event_ids
from schemas.limits import MAX_REASON
from schemas.events import CheckpointSigned, PairingAmended, RoundClosed, RoundPaired, Table


def pair(state: TournamentState, c: Any) -> list[Any]:
    """``PairRound`` -> ``PairingProposed``: the engine's pairing under the tournament's profile,
    from the log's absences, late entries and withdrawals (``projections.pairing.proposal``, the
    function ``olympiad pair`` calls too). Refused before the previous round is complete, or when
    no legal pairing exists (the rule that cannot be met).

    With ``publish`` the round's pairing is published at once (``PairingProposed`` then
    ``RoundPaired``, as ``PairRound`` then ``PublishRound``): a proposal already pending (the
    engine's or the arbiter's amendment) is published as it stands, without pairing again; a round
    already published is already recorded."""
    if c.publish and c.round in state.rounds:
        return [state.rounds[c.round]]  # a retry: already recorded
    if c.publish and c.round in state.proposals:
        return _published(state, c, None)
    proposed = _proposed(state, c)
    if not c.publish:
        return [proposed]
    after = state.fork()  # the publication is decided on the state the proposal makes
    after.evolve(proposed)
    return [proposed, *_published(after, c, None)]


def _proposed(state: TournamentState, c: Any) -> Any:
    """The engine's ``PairingProposed`` of round ``c.round`` (``pair``)."""
    from projections.pairing.proposal import proposal_event, propose_round

    next_round(state, c.round)
    prefix = event_ids.proposal(c.tournament_id, c.round)
    event = proposal_event(state, propose_round(state, c.round), traced=False, occurred_at=c.issued_at, actor=c.actor.id)
    current = state.proposals.get(c.round)
    if current is not None and current.event_id != event.event_id and event.event_id in state.applied:
        # pairing again after an amendment goes back to the engine's proposal: a new one
        event = event.model_copy(update={"event_id": f"{prefix}{identity.count(state, prefix) + 1}"})
    return event


def _swapped(tables: list[Table], bye: str | None, swap: Any, i: int) -> tuple[list[Table], str | None]:
    if swap.teams is not None:
        a, b = swap.teams
        names = {a: b, b: a}
        placed = {x for t in tables for x in (t.home, t.away)} | ({bye} if bye else set())
        for j, team in enumerate(swap.teams):
            if team not in placed:
                raise RuleViolation(f"team {team!r} is not in the proposed pairing", field=f"swaps.{i}.teams.{j}",
                                    rule="amend the engine's proposal")
        tables = [Table(table=t.table, home=names.get(t.home, t.home), away=names.get(t.away, t.away)) for t in tables]
        return tables, names.get(bye, bye) if bye else None
    if swap.tables is not None:
        a, b = swap.tables
        numbers = {t.table for t in tables}
        for j, n in enumerate(swap.tables):
            if n not in numbers:
                raise RuleViolation(f"table {n} is not in the proposed pairing", field=f"swaps.{i}.tables.{j}",
                                    rule="amend the engine's proposal")
        renumber = {a: b, b: a}
        return sorted((Table(table=renumber.get(t.table, t.table), home=t.home, away=t.away) for t in tables),
                      key=lambda t: t.table), bye
    raise RuleViolation("a swap names two teams or two tables", field=f"swaps.{i}", rule="amend the engine's proposal")


def amend(state: TournamentState, c: Any) -> list[Any]:
    """``AmendPairing`` -> ``PairingAmended``: the proposal with the arbiter's swaps (or the given
    tables), the reason, and the checker's report on the result."""
    current = state.proposals.get(c.round)
    if c.round in state.rounds:
        raise RuleViolation(f"round {c.round} is published: its pairing is fixed", field="round",
                            rule="amend a pairing before it is published")
    if current is None:
        raise RuleViolation(f"round {c.round} has no proposed pairing to amend (pair it first)", field="round",
                            rule="amend the engine's proposal")
    tables = list(c.tables if c.tables is not None else current.tables)
    bye = c.bye if c.tables is not None else current.bye
    for i, swap in enumerate(c.swaps):
        tables, bye = _swapped(tables, bye, swap, i)
    absent = c.absent if c.absent is not None else current.absent
    report = checker_report(state, c.round, tuple(tables), bye, tuple(absent))
    return [identity.numbered(state, event_ids.amendment(c.tournament_id, c.round), lambda eid: PairingAmended(
        event_id=eid, **identity.stamp(c), round=c.round, tables=tuple(tables), bye=bye, absent=tuple(absent),
        reason=c.reason, report=report))]


def publish(state: TournamentState, c: Any) -> list[Any]:
    """``PublishRound`` -> ``RoundPaired`` from the latest proposal or amendment of the round.
    An amended pairing that breaks an absolute rule (``ABSOLUTE``) needs ``override_reason``."""
    return _published(state, c, c.override_reason)


def _published(state: TournamentState, c: Any, override_reason: str | None) -> list[Any]:
    """The ``RoundPaired`` of round ``c.round``'s pending proposal or amendment (``publish``)."""
    current = state.proposals.get(c.round)
    if c.round in state.rounds:
        pairing = state.rounds[c.round]
        return [pairing]  # a retry of the publication: already recorded
    if current is None:
        raise RuleViolation(f"round {c.round} has no proposed pairing (pair it first)", field="round",
                            rule="publish a proposed pairing")
    note = f"engine proposal ({state.profile.name})"
    if current.type == "PairingAmended":
        absolute_override(current.report, override_reason, "override_reason")
        note = f"amended by the chief arbiter: {current.reason}"
        if override_reason:  # kept whole at the end of the note, where the event rule reads it
            tail = f"; {OVERRIDDEN}{override_reason}"
            note = note[:max(0, MAX_REASON - len(tail))] + tail
    return [RoundPaired(event_id=event_ids.pairing(c.tournament_id, c.round), **identity.stamp(c), round=c.round,
                        tables=current.tables, bye=current.bye, absent=current.absent, note=note[:MAX_REASON])]


def close(state: TournamentState, c: Any) -> list[Any]:
    """``CloseRound`` -> ``RoundClosed`` with the digest of the round's standings, now official
    (refused while a result is missing); with ``c.checkpoint`` (the chief arbiter's signature of
    the log as it stands) the round's ``CheckpointSigned`` too, in the same decision: the round is
    closed and signed together or not at all (the event rules of ``processors.rules`` check the
    signed length, the chain of checkpoints and the signature). A retry of a closed round yields
    what was decided then."""
    if c.round not in state.rounds:
        raise RuleViolation(f"round {c.round} has not been paired", field="round", rule="close a published round")
    if c.round in state.closed:
        signed = state.checkpoints.get(c.round)
        return [state.applied[event_ids.closed(c.tournament_id, c.round)], *([signed] if signed else [])]
    missing_results(state, c.round)
    digest = standings_digest(state, c.round)
    closed = RoundClosed(event_id=event_ids.closed(c.tournament_id, c.round), **identity.stamp(c), round=c.round, digest=digest)
    s = c.checkpoint
    if s is None:
        return [closed]
    return [closed, CheckpointSigned(event_id=event_ids.checkpoint(c.tournament_id, c.round), **identity.stamp(c),
                                     round=c.round, events=s.events, previous=s.previous, head=s.head, standings_digest=digest,
                                     pairing_digest=pairing_digest(state, c.round), public_key=s.public_key,
                                     signature=s.signature)]
