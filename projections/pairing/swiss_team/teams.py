"""The teams to pair in one round under C.04.6, as the pairing rules see them.

Per team (art. 1): its TPN (art. 1.1: the pairing number, 1..N; absent teams keep theirs; a late
entry's per the profile's ``late_entry_numbers``), primary and secondary score (art. 1.2: MP or
GP, the other one; the primary score plus C.04.7 virtual points in accelerated rounds), the colours
of its played matches (art. 1.6.1: board 1; forfeits and the PAB give none), its colour
preference (art. 1.7), whether it floated in the previous round (art. 1.5: it played an opponent
with a different primary score), the teams it has met ([C1]: played matches only unless the
profile's ``whole_forfeit_is_meeting``) and whether [C2] bars it from the PAB.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable

from projections.history import History, TeamRound
from projections.pairing.acceleration import baku_points, baku_round
from projections.pairing.entrants import teams_to_pair
from projections.pairing.swiss_team.preferences import Preference, colour_difference, colour_preference
from schemas.profile import RuleProfile

_FORFEITS = ("forfeit-win", "forfeit-loss", "forfeit-draw")


@dataclass(frozen=True)
class SwissTeam:
    """A team to pair (C.04.6 art. 1).

    ``tpn``: its pairing number (the key of every graph). ``score`` / ``secondary``: primary and
    secondary score (MP as ``int``-valued ``Decimal``, or GP in half-points). ``played``: matches
    played (art. 3.4.3). ``colours``: board-1 colours of its played matches, oldest first
    ("WBW"); ``by_round`` the same per round (None: no played match). ``preference``: art. 1.7.
    ``floated``: it floated in round ``rnd - 1`` (art. 1.5). ``met``: TPNs it may not meet
    again ([C1]). ``bye_block``: why [C2] bars it from the PAB ("" if it does not).
    """

    team_id: str
    tpn: int
    score: Decimal
    secondary: Decimal
    played: int
    colours: str
    by_round: tuple[str | None, ...]
    preference: Preference
    floated: bool
    met: frozenset[int]
    bye_block: str

    @property
    def cd(self) -> int:
        """Colour difference (art. 1.6.2)."""
        return colour_difference(self.colours)


def build_teams(history: History, profile: RuleProfile, rnd: int, absent: Iterable[str] = ()) -> list[SwissTeam]:
    """The teams to pair in round ``rnd`` (``teams_to_pair``), in TPN order.

    Raises ``ValueError`` for an unusable history (``teams_to_pair``) or a profile without
    ``swiss_team``.
    """
    rules = profile.swiss_team
    if rules is None:
        raise ValueError(f"profile {profile.name} has no swiss_team rules (C.04.6)")
    present = teams_to_pair(history, rnd, absent)
    gp_primary = rules.primary_score == "gp"
    tpn = {t: info.pairing_number for t, info in history.teams.items()}
    # C.04.7 (a c04.7-baku profile): GA's virtual points count in the pairing score of each
    # accelerated round, floats included (open reading A8: the pairing score, as gacrux).
    baku = baku_round(history, profile, rnd, present)
    group = baku.group if baku else frozenset()
    # Pairing score of every registered team before each round (art. 1.5 compares the two
    # teams of a previous-round match on the scores they had then).
    before: dict[str, list[Decimal]] = {}
    for t in history.teams:
        running, scores = Decimal(0), []
        for tr in history.team_rounds(t):
            scores.append(running + (baku_points(profile, tr.round) if t in group else 0))
            running += tr.gp if gp_primary else tr.mp
        scores.append(running)
        before[t] = scores
    last_round = rnd == profile.rounds
    out = []
    for t in present:
        rounds = history.team_rounds(t)
        mp = sum((tr.mp for tr in rounds), Decimal(0))
        gp = sum((tr.gp for tr in rounds), Decimal(0))
        colours = "".join(tr.colour for tr in rounds if tr.kind == "played" and tr.colour)
        meets = [tr for tr in rounds if _meeting(tr, profile)]
        prev = rounds[-1] if rounds else None
        floated = (prev is not None and prev.kind == "played" and prev.opponent is not None
                   and before[t][prev.round - 1] != before[prev.opponent][prev.round - 1])
        out.append(SwissTeam(
            team_id=t,
            tpn=tpn[t],
            score=(gp if gp_primary else mp) + (baku.points if baku and t in group else 0),
            secondary=mp if gp_primary else gp,
            played=len(meets),
            colours=colours,
            by_round=tuple(tr.colour if tr.kind == "played" else None for tr in rounds),
            preference=colour_preference(colours, rules.colour_preferences, last_round, rules.typeb_last_round_ww),
            floated=floated,
            met=frozenset(tpn[tr.opponent] for tr in meets if tr.opponent is not None),
            bye_block=_bye_block(rounds, profile),
        ))
    return sorted(out, key=lambda s: s.tpn)


def _meeting(tr: TeamRound, profile: RuleProfile) -> bool:
    """A meeting for [C1] and a played match for art. 3.4.3: a played match (forfeits only with
    ``whole_forfeit_is_meeting``; open reading A3/A9, gacrux: no)."""
    return tr.kind == "played" or (profile.whole_forfeit_is_meeting and tr.kind in _FORFEITS)


def _bye_block(rounds: tuple[TeamRound, ...], profile: RuleProfile) -> str:
    """[C2] art. 2.1.2: no PAB for a team that had one or won a match by forfeit."""
    for tr in rounds:
        if tr.kind == "bye":
            return f"had the PAB in round {tr.round}"
        if tr.kind == "forfeit-win" and profile.bye_ineligible_after_forfeit_win:
            return f"won round {tr.round} by forfeit"
    return ""
