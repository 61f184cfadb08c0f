"""The pairing-allocated bye (PAB).

Spec R-B1 (FIDE D.02 2022 art. 4.1-4.2): with an odd number of teams to pair, the bye goes to
the lowest-ranked eligible team in the pairing order. Not eligible: a team that already had a
bye, won a match by default (``bye_ineligible_after_forfeit_win``), or entered late (2022,
``bye_ineligible_late_entry``); and the teams left must still be pairable without a rematch
(the reading of the S11 implementation, spec R-B1). The bye is worth the profile's
``bye_award`` (1 MP + 2 GP, R-D9), scored by the history, not here.
"""
from __future__ import annotations

from projections.pairing.entrants import Entrant
from projections.pairing.matching import Compat, Mate, NoLegalPairing, perfect_matching
from projections.pairing.trace import Rule, Trace, teams

RULE = Rule("spec R-B1", "art. 4")


def choose_bye(entrants: list[Entrant], compat: Compat, trace: Trace, pair_rule: str) -> tuple[int | None, Mate]:
    """``(place of the bye team or None, a perfect matching of the others)``; ``compat`` says who
    may meet whom, ``pair_rule`` names that rule in errors.

    Raises ``NoLegalPairing`` naming the constraint: no eligible team, or no bye that leaves the others
    pairable (or, with an even number, the teams cannot all be paired under ``pair_rule``).
    """
    places = [e.place for e in entrants]
    if len(places) % 2 == 0:
        mate = perfect_matching(places, compat)
        if mate is None:
            raise NoLegalPairing(f"{pair_rule}: the {len(places)} teams to pair cannot all be paired")
        return None, mate
    passed = []
    for e in reversed(entrants):
        if e.bye_block:
            passed.append(f"{e.team_id} ({e.bye_block})")
            continue
        mate = perfect_matching([p for p in places if p != e.place], compat)
        if mate is not None:
            why = "; passed over: " + ", ".join(passed) if passed else ""
            trace.add(RULE, (e.team_id,), f"bye: {e.team_id} (lowest-ranked eligible team, {e.mp} MP){why}")
            return e.place, mate
        passed.append(f"{e.team_id} (the others could not all be paired)")
    if not any(not e.bye_block for e in entrants):
        raise NoLegalPairing(f"{trace.cite(RULE)}: {teams(len(places))} to pair and none may get the bye (each had a "
                             "bye, a default win or entered late)")
    raise NoLegalPairing(f"{trace.cite(RULE)}: no eligible team's bye leaves the other {teams(len(places) - 1)} pairable "
                         f"under {pair_rule}")
