"""Who may meet whom in one round, and why not.

- No rematch (spec R-P1, FIDE D.02 2022 art. 6.1): two teams that met in a played match never meet
  again (a match forfeited on every board is not a meeting, R-D7, unless the profile says so).
- Colour limits (spec R-C3, D.02 7.3): some board-1 colour must keep both teams inside the limits.
  With ``colour_limits="soft"`` (D.02 7.4) they only decide which pairings a group keeps, and are
  dropped for a group when keeping them would leave fewer pairings in it; with ``"absolute"``
  they bind like R-P1.
"""
from __future__ import annotations

from projections.pairing.colours import limits_compatible
from projections.pairing.entrants import Entrant
from projections.pairing.trace import Rule
from schemas.profile import RuleProfile

NO_REMATCH = Rule("spec R-P1", "art. 6.1")
ABSOLUTE_LIMITS = Rule("spec R-P1, R-C3", "art. 6.1, 7.3")
SOFT_LIMITS = Rule("spec R-C3", "art. 7.4")  # limits dropped only where keeping them costs pairings


class Constraints:
    """The pair rules of one round over entrants given by their place in the pairing order.

    ``may_meet(a, b)``: the two may be paired at all (R-P1; plus R-C3 when absolute);
    ``within_limits(a, b)``: they may, and some board-1 colour keeps both inside R-C3.
    """

    def __init__(self, entrants: list[Entrant], profile: RuleProfile):
        self.entrants = entrants
        self.names = [e.team_id for e in entrants]
        self.source = profile.pairing_source
        self.absolute = profile.colour_limits == "absolute"
        allowed = [e.colours.allowed for e in entrants]
        met = [e.met for e in entrants]
        self._allowed = allowed
        if self.absolute:
            self.may_meet = lambda a, b: a != b and b not in met[a] and limits_compatible(allowed[a], allowed[b])
        else:
            self.may_meet = lambda a, b: a != b and b not in met[a]
        self.within_limits = lambda a, b: a != b and b not in met[a] and limits_compatible(allowed[a], allowed[b])

    @property
    def rule(self) -> str:
        """The pair rules in force, for error messages, cited from the profile's rule source:
        ``"spec R-P1, D.02 2022 art. 6.1 (no rematch)"``."""
        if self.absolute:
            return f"{ABSOLUTE_LIMITS.cite(self.source)} (no rematch; colour limits absolute)"
        return f"{NO_REMATCH.cite(self.source)} (no rematch)"

    def limits_bind(self, places: list[int]) -> bool:
        """True if some team among ``places`` cannot receive both colours (R-C3 could decide)."""
        return any(self._allowed[p] != "WB" for p in places)

    def why_not(self, a: int, b: int) -> str:
        """Why ``a`` may not meet ``b`` in a kept pairing: the rematch or the colour limits."""
        r = self.entrants[a].met.get(b)
        if r is not None:
            return f"met in round {r}"
        return f"colour limits R-C3 ({self.names[a]} may get {self._allowed[a] or 'no colour'}, {self.names[b]} {self._allowed[b] or 'no colour'})"
