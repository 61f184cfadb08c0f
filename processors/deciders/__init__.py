"""The deciders: one plain function per command, the application layer every door calls.

``handle(state, command)`` is the only entry point: the CLI and the web app call it in-process
(through the event store), the faust processors call it for the commands that arrive on the
Kafka input topics. A decider takes the tournament's current state and the command and returns
the events it yields, or raises ``RuleViolation`` naming the field and the rule; ``handle`` then
checks who may do it (``roles``), gives every event the id derived from the command's identity
(``identity``), and judges each event with the event rules (``processors.rules``) before it
evolves the state. An identical retry yields events already in the log: the decision says
"already recorded" and nothing is appended; a different command with the same identity is
refused.

A decider may call the pure engines of ``projections`` (the pairing engine, its checker, the
standings): the deciders sit above ``projections/`` in the layers, the state and its ``evolve``
below it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from processors.deciders import games, imports, lineups, results, rounds, teams, tournament
from processors.deciders.identity import same_fact
from processors.deciders.roles import check_role
from processors.rules import check_event, check_tournament
from processors.tournament import RuleViolation, TournamentState

DECIDERS: dict[str, Callable[[TournamentState, Any], list[Any]]] = {
    "CreateTournament": tournament.create,
    "RegisterTeam": teams.register,
    "ImportTeams": teams.import_teams,
    "ImportFacts": imports.import_facts,
    "ChangeRoster": teams.change_roster,
    "SetStartingRanks": teams.starting_ranks,
    "WithdrawTeam": teams.withdraw,
    "SubmitLineup": lineups.submit,
    "AnnounceAbsence": lineups.absence,
    "PairRound": rounds.pair,
    "AmendPairing": rounds.amend,
    "PublishRound": rounds.publish,
    "CloseRound": rounds.close,
    "RecordResult": results.record,
    "RecordResults": results.record_table,
    "RecordForfeit": results.forfeit,
    "CorrectResult": results.correct,
    "ReportGame": games.report,
    "ReportFeedProblem": games.problem,
    "ConfirmResults": games.confirm,
}


@dataclass(frozen=True)
class Decision:
    """What ``handle`` decided: ``events`` newly appended to the state (to be stored, in order),
    ``recorded`` the events of an identical earlier command (a retry)."""

    events: tuple[Any, ...]
    recorded: tuple[Any, ...] = ()

    @property
    def already_recorded(self) -> bool:
        """True for a retry: every event the command yields is already in the log."""
        return not self.events


def handle(state: TournamentState, command: Any) -> Decision:
    """Decide ``command`` against ``state`` and evolve ``state`` with the events it yields.

    Returns the ``Decision``. Raises ``RuleViolation`` (field, rule; for ``ImportFacts`` also the
    ``event_id`` of the fact refused) for a refused command; ``state`` is then unchanged.
    """
    if command.command not in ("CreateTournament", "ImportFacts"):  # an import may create it (its facts are judged)
        check_tournament(state, command.tournament_id, "command")
    check_role(state, command)
    proposed = DECIDERS[command.command](state, command)
    fresh, recorded = [], []
    for event in proposed:
        prior = state.applied.get(event.event_id)
        if prior is None:
            fresh.append(event)
        elif same_fact(prior, event):
            recorded.append(prior)
        else:
            check_event(state, event)  # the event rule that refuses it, where one does (a second result)
            raise RuleViolation(f"{event.event_id} is already recorded as {_brief(prior)}; this command says {_brief(event)}",
                                field=identity_field(event), rule="a command's identity names one decision")
    # Several events are judged one after the other, each against the state the previous ones
    # made: on a scratch copy, so that a refusal of the last leaves the state untouched.
    target = state.fork() if len(fresh) > 1 else state
    for event in fresh:
        try:
            check_event(target, event)
        except RuleViolation as exc:
            if command.command == "ImportFacts":  # an import's refusal names the fact, as a log loader's names the event
                exc.event_id = event.event_id
            raise
        target.evolve(event)
    if target is not state:
        for event in fresh:
            state.evolve(event)
    return Decision(tuple(fresh), tuple(recorded))


def identity_field(event: Any) -> str:
    """The field of a command whose value differs from the recorded decision (for the refusal)."""
    return {"BoardResultRecorded": "result", "AbsenceAnnounced": "reason", "TeamRegistered": "team"}.get(event.type, "command")


def _brief(event: Any) -> str:
    shown = event.model_dump(mode="json", exclude={"event_id", "tournament_id", "occurred_at", "actor", "schema_version", "type"})
    text = ", ".join(f"{k}={v}" for k, v in shown.items() if v not in ("", None, [], ()))
    return f"{event.type}({text[:120]})"
