"""Board-1 colours: the limits (R-C3) and the allocation for one pair (R-C1, R-C2).

A team's colour is its colour on board 1 (R-D4); the home team has White on boards 1 and 3.
Only played matches give a colour: byes, absences and matches forfeited on every board are
skipped (R-C4, FIDE D.02 2022 art. 7.7; the history gives them no colour).
"""
from __future__ import annotations

from dataclasses import dataclass

from projections.pairing.trace import Rule

WHITE, BLACK = "W", "B"


def opposite(colour: str) -> str:
    """The other colour."""
    return BLACK if colour == WHITE else WHITE


@dataclass(frozen=True)
class ColourHistory:
    """A team's board-1 colours by round (``None``: no played match that round, R-C4).

    ``difference`` = Whites - Blacks over played matches; ``allowed`` the colours R-C3 lets the
    team receive next (D.02 2022 art. 7.3: difference within +-2, never three times the same colour
    in a row).
    """

    by_round: tuple[str | None, ...]

    @property
    def played(self) -> tuple[str, ...]:
        return tuple(c for c in self.by_round if c is not None)

    @property
    def difference(self) -> int:
        played = self.played
        return 2 * played.count(WHITE) - len(played)

    @property
    def last(self) -> str | None:
        played = self.played
        return played[-1] if played else None

    def may_receive(self, colour: str) -> bool:
        """R-C3: ``colour`` keeps the difference within +-2 and is not a third in a row."""
        played = self.played
        if len(played) >= 2 and played[-1] == played[-2] == colour:
            return False
        return abs(self.difference + (1 if colour == WHITE else -1)) <= 2

    @property
    def allowed(self) -> str:
        """The colours R-C3 allows next: "WB", "W", "B" or "" (only after limits were dropped)."""
        return "".join(c for c in (WHITE, BLACK) if self.may_receive(c))


def limits_compatible(a: str, b: str) -> bool:
    """R-C3 for a pair, from the two teams' ``allowed`` colours: some board-1 colour keeps both
    inside the limits (two teams both at +1 may still meet)."""
    return (WHITE in a and BLACK in b) or (BLACK in a and WHITE in b)


def allocate(
    higher: ColourHistory, lower: ColourHistory, parity_number: int, first_colour: str
) -> tuple[str, Rule, str]:
    """Board-1 colour of the higher-ranked team of a pair, and the rule that decided it.

    First rule that decides (R-C2; D.02 2022 art. 7.3-7.6; for 2008 spec [I]):
    1. a colour limit (R-C3) that only one option respects;
    2. equalisation: the team with the larger colour difference gets Black;
    3. alternation: in the latest round where the two had different colours, each gets the
       colour the other had then;
    4. the higher-ranked team alternates from its last colour (the lower-ranked one, if only it
       has one);
    5. R-C1 (D.02 7.2): ``first_colour`` (drawn by lot) if ``parity_number`` is odd, the other
       colour if it is even; ``parity_number`` is the higher-ranked team's pairing number or the
       table number (profile switch ``first_round_colours``).
    Returns ``(colour of the higher-ranked team, rule, reason)``; the rule is cited by the
    profile's rule source (``trace.Rule.cite``).
    """
    white_fits = higher.may_receive(WHITE) and lower.may_receive(BLACK)
    black_fits = higher.may_receive(BLACK) and lower.may_receive(WHITE)
    if white_fits != black_fits:
        return (WHITE if white_fits else BLACK), Rule("spec R-C2(1)", "art. 7.3"), "colour limit"
    if higher.difference != lower.difference:
        return (BLACK if higher.difference > lower.difference else WHITE), Rule("spec R-C2(2)", "art. 7.5.1"), "equalisation"
    for own, other in zip(reversed(higher.by_round), reversed(lower.by_round)):
        if own is not None and other is not None and own != other:
            return other, Rule("spec R-C2(3)", "art. 7.6"), "alternation"
    if higher.last is not None:
        return opposite(higher.last), Rule("spec R-C2(4)", "art. 7.6"), "the higher-ranked team alternates"
    if lower.last is not None:
        return lower.last, Rule("spec R-C2(4)", "art. 7.6"), "the lower-ranked team alternates"
    colour = first_colour if parity_number % 2 else opposite(first_colour)
    return colour, Rule("spec R-C1", "art. 7.2"), f"lot, parity of {parity_number}"
