"""Colour preferences of C.04.6 art. 1.7: Type A (the default), Type B, or none.

A team's colours are its board-1 colours in played matches only (art. 1.6.1), oldest first, as
a string of ``W``/``B``; the colour difference CD is Whites minus Blacks (art. 1.6.2).
"""
from __future__ import annotations

from dataclasses import dataclass

WHITE, BLACK = "W", "B"


@dataclass(frozen=True)
class Preference:
    """A colour preference: ``colour`` ("W", "B" or None for no preference) and whether it is
    ``strong`` (Type B's strong preference, art. 1.7.2; Type A's only grade counts as strong)."""

    colour: str | None
    strong: bool = False


NONE = Preference(None)


def colour_difference(colours: str) -> int:
    """CD of art. 1.6.2: number of Whites minus number of Blacks over played matches."""
    return colours.count(WHITE) - colours.count(BLACK)


def colour_preference(colours: str, model: str, last_round: bool, typeb_last_round_ww: str = "strong") -> Preference:
    """The preference of a team with played-match colours ``colours`` when pairing a round.

    ``model``: "type-a", "type-b" or "none" (art. 1.7). ``last_round``: the round being paired is
    the last one (Type B only). Rules:
    - Type A (art. 1.7.1): White if CD < -1, or CD is 0 or -1 and the last two played matches
      were with Black; Black mirrors it; otherwise none.
    - Type B (art. 1.7.2): the strong preference is worded as Type A's; mild White if CD = -1,
      or CD = 0, not the last round, and Black in the last played match (mild Black mirrors
      it); none before the first match, or with CD = 0 when pairing the last round.
      ``typeb_last_round_ww`` is the open reading A1 (spec swiss-team-c046.md 2.3): CD 0 after
      two equal colours in the last round is a "strong" preference (gacrux 1.11.65) or "none".
    """
    if model == "none" or not colours:
        return NONE
    cd = colour_difference(colours)
    if model == "type-b" and last_round and cd == 0 and typeb_last_round_ww == "none":
        return NONE
    last_two = colours[-2:]
    if cd < -1 or (cd in (0, -1) and last_two == BLACK * 2):
        return Preference(WHITE, True)
    if cd > 1 or (cd in (0, 1) and last_two == WHITE * 2):
        return Preference(BLACK, True)
    if model == "type-a":
        return NONE
    if cd == -1:
        return Preference(WHITE)
    if cd == 1:
        return Preference(BLACK)
    if not last_round:
        return Preference(WHITE if colours[-1] == BLACK else BLACK)
    return NONE
