"""A source cut after round N: everything through round N played, round N + 1 paired and empty.

Used by ``olympiad serve --source ... --rounds N``, the web tests and the web benchmark, so that
the results of round N + 1 can be entered live over what really happened before.
"""
from __future__ import annotations

from typing import Any, Sequence

RESULT_EVENTS = {"BoardResultRecorded", "BoardResultCorrected", "MatchForfeited"}


def through_round(events: Sequence[Any], rounds: int) -> list[Any]:
    """The events of ``events`` up to the pairing of round ``rounds + 2`` (exclusive), less every
    result of a round after ``rounds``. Log order is kept. Raises ``ValueError`` for ``rounds < 0``
    and for a round the log never paired (the message ``olympiad replay`` gives)."""
    if rounds < 0:
        raise ValueError(f"rounds must be 0 or more, got {rounds}")
    last = max((e.round for e in events if e.type == "RoundPaired"), default=0)
    if rounds > last:
        raise ValueError(f"round {rounds} has not been paired in this log (last paired round: {last})")
    out = []
    for e in events:
        if e.type == "RoundPaired" and e.round > rounds + 1:
            break
        if e.type in RESULT_EVENTS and e.round > rounds:
            continue
        out.append(e)
    return out


def held_back(events: Sequence[Any], rounds: int) -> list[Any]:
    """The board results of round ``rounds + 1`` that ``through_round`` leaves out, in log order:
    what the tests and the benchmark enter live."""
    return [e for e in events if e.type == "BoardResultRecorded" and e.round == rounds + 1]
