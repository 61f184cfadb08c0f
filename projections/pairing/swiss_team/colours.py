"""Colour allocation of C.04.6 art. 4: board-1 colours of a pair, always decided.

The first-team (art. 4.2) has the higher primary score, then the higher secondary score (unless
the competition does not use it for colours), then the smaller TPN. The initial-colour (art. 4.1)
is the lot drawn before round 1 (the profile's ``first_colour``).
"""
from __future__ import annotations

from projections.pairing.swiss_team.preferences import BLACK, WHITE
from projections.pairing.swiss_team.teams import SwissTeam


def opposite(colour: str) -> str:
    """The other colour."""
    return BLACK if colour == WHITE else WHITE


def first_team(a: SwissTeam, b: SwissTeam, secondary: bool) -> tuple[SwissTeam, SwissTeam]:
    """``(first-team, other team)`` of art. 4.2."""
    key_a = (a.score, a.secondary if secondary else 0, -a.tpn)
    key_b = (b.score, b.secondary if secondary else 0, -b.tpn)
    return (a, b) if key_a > key_b else (b, a)


def allocate(a: SwissTeam, b: SwissTeam, initial: str, *, typeb: bool, secondary: bool = True,
             history: str = "compressed") -> tuple[SwissTeam, SwissTeam, str, str]:
    """``(White team, Black team, rule, reason)`` of the pair ``a`` v ``b`` (art. 4.3, first rule
    that decides):

    1. both teams have yet to play a match: the first-team gets ``initial`` if its TPN is odd,
       the other colour if even;
    2. only one team has a preference: grant it;
    3. opposite preferences: grant both;
    4. (Type B) only one preference is strong: grant it;
    5. the team with the lower colour difference gets White;
    6. alternate from the most recent time one had White and the other Black: ``history``
       "compressed" compares the played matches from the last one back (open reading A12, as
       gacrux), "by-round" compares round by round;
    7. grant the first-team's preference;
    8. alternate the first-team's last colour;
    9. alternate the other team's last colour.
    """
    first, other = first_team(a, b, secondary)

    def give(colour: str, rule: str, why: str) -> tuple[SwissTeam, SwissTeam, str, str]:
        white, black = (first, other) if colour == WHITE else (other, first)
        return white, black, f"C.04.6 art. {rule}", why

    fp, op = first.preference, other.preference
    if first.played == 0 and other.played == 0:
        colour = initial if first.tpn % 2 else opposite(initial)
        return give(colour, "4.3.1", f"both yet to play: initial-colour by the parity of TPN {first.tpn}")
    if fp.colour and not op.colour:
        return give(fp.colour, "4.3.2", f"only {first.team_id} has a preference")
    if op.colour and not fp.colour:
        return give(opposite(op.colour), "4.3.2", f"only {other.team_id} has a preference")
    if fp.colour and op.colour and fp.colour != op.colour:
        return give(fp.colour, "4.3.3", "opposite preferences")
    if typeb and fp.colour and op.colour and fp.strong != op.strong:
        return give(fp.colour if fp.strong else opposite(op.colour), "4.3.4", "only one strong preference")
    if first.cd != other.cd:
        return give(WHITE if first.cd < other.cd else BLACK, "4.3.5", "the lower colour difference gets White")
    if history == "compressed":
        pairs = zip(reversed(first.colours), reversed(other.colours))
    else:
        pairs = zip(reversed(first.by_round), reversed(other.by_round))
    for own, theirs in pairs:
        if own and theirs and own != theirs:
            return give(opposite(own), "4.3.6", "alternation from the last time the colours differed")
    if fp.colour:
        return give(fp.colour, "4.3.7", f"the first-team {first.team_id}'s preference")
    if first.colours:
        return give(opposite(first.colours[-1]), "4.3.8", f"the first-team {first.team_id} alternates")
    if other.colours:
        return give(other.colours[-1], "4.3.9", f"{other.team_id} alternates")
    # Only reached when played matches have no known colour (a source without board-1 colours).
    return give(initial if first.tpn % 2 else opposite(initial), "4.3.1", f"no known colours: parity of TPN {first.tpn}")
