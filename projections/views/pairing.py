"""The round to pair as the arbiter page shows it: the engine's proposal and its decision trace."""
from __future__ import annotations

from typing import Any

from processors.rules import next_round
from processors.tournament import TournamentState
from projections.pairing.proposal import propose_round
from projections.pairing.read_model import next_round_proposal
from projections.views.refs import NotFound


def words_first(line: str) -> str:
    """A trace line as a reader takes it: its words first, the rule ids it cites after them
    ("[D.02 2022 art. 4] bye: KIR" -> "bye: KIR [D.02 2022 art. 4]"); a line without ids as it is."""
    if line.startswith("[") and "] " in line:
        cited, words = line[1:].split("] ", 1)
        return f"{words} [{cited}]"
    return line


def pairing_explanation(state: TournamentState, rnd: int, team: str | None = None) -> dict[str, Any]:
    """``{round, trace, team, explain}``: the engine's trace lines of round ``rnd`` (score groups,
    floaters, opponents, colours, tables: ``projections.pairing.proposal.propose_round``, the
    proposal's own inputs) and, for ``team``, the lines about it, each in words first with its
    rule ids after them (``words_first``). Raises ``RuleViolation`` (field ``round``) unless
    ``rnd`` is the round to pair (``processors.rules.next_round``) and can be paired."""
    next_round(state, rnd)
    pairing = propose_round(state, rnd)
    return {"round": rnd, "trace": [words_first(line) for line in pairing.trace], "team": team,
            "explain": [words_first(line) for line in pairing.explain(team)] if team else []}


def proposal_view(state: TournamentState, rnd: int) -> dict[str, Any]:
    """The engine's proposed pairing of round ``rnd`` (``PairingProposed`` with its decision trace,
    ``projections.pairing.read_model.next_round_proposal``), plain JSON. Raises ``NotFound`` while
    there is none for ``rnd`` (it exists once round ``rnd - 1`` is complete), ``RuleViolation``
    when the round cannot be paired."""
    event = next_round_proposal(state)
    if event is None or event.round != rnd:
        raise NotFound(f"no proposal for round {rnd}: the pairing exists once round {rnd - 1} is complete")
    return event.model_dump(mode="json")
