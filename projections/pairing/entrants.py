"""The teams of one round's pairing, as the pairing rules see them, in pairing order.

Built from the ``History`` of rounds 1..r-1 (``projections.history``). Per team: real MP and the
pairing score (MP + imaginary MP, R-A2), the board-1 colours (R-C4), the opponents met (R-P1,
R-D7: only played matches, unless the profile's ``whole_forfeit_is_meeting``), and whether it may
get the bye (R-B1, D.02 2022 art. 4.2).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable

from projections.history import History
from projections.pairing.acceleration import imaginary_points
from projections.pairing.colours import ColourHistory
from projections.pairing.score_groups import order_keys
from projections.standings.elements import match_points_total
from schemas.profile import RuleProfile

_FORFEITS = {"forfeit-win", "forfeit-loss", "forfeit-draw"}


@dataclass(frozen=True)
class Entrant:
    """A team to pair in one round.

    ``place`` is its 0-based place in the pairing order (0 = highest ranked); ``mp`` its real MP,
    ``score`` its pairing score (MP + ``imaginary`` MP, both in MP); ``met`` maps the places of the
    entrants it has met to the round of the meeting; ``bye_block`` says why it may not get the bye
    ("" if it may); ``rating`` is the average rating of its top four (R-I1, for D.02 11.1).
    """

    place: int
    team_id: str
    pairing_number: int
    mp: int
    score: int
    imaginary: int
    colours: ColourHistory
    met: dict[int, int]
    bye_block: str
    rating: Decimal


def teams_to_pair(history: History, rnd: int, absent: Iterable[str] = ()) -> list[str]:
    """The team ids to pair in round ``rnd``, in registration order: every registered team that
    has entered by ``rnd`` (a late entry plays from its ``entered`` round), has not withdrawn by
    ``rnd`` and is not in ``absent`` (the first step of every pairing system of the package: D.02
    and C.04.6).

    Raises ``ValueError`` if the history does not end with round ``rnd - 1``, if a match of it is
    not complete, or if ``absent`` names an unknown team.
    """
    if history.through_round != rnd - 1:
        raise ValueError(f"pairing round {rnd} needs the history of rounds 1..{rnd - 1}, got 1..{history.through_round}")
    for r, per in history.rounds.items():
        pending = sorted(t for t, tr in per.items() if tr.kind == "pending")
        if pending:
            raise ValueError(f"round {r} is not complete: the match of {pending[0]} has no result on every board yet")
    absent = set(absent)
    unknown = sorted(absent - set(history.teams))
    if unknown:
        raise ValueError(f"absent team {unknown[0]!r} is not registered")
    return [
        t for t, info in history.teams.items()
        if t not in absent and info.entered <= rnd and not (t in history.withdrawn and history.withdrawn[t] <= rnd)
    ]


def build_entrants(history: History, profile: RuleProfile, rnd: int, absent: Iterable[str] = ()) -> list[Entrant]:
    """The entrants of round ``rnd`` in pairing order.

    Teams to pair: ``teams_to_pair`` (which raises ``ValueError`` for an unusable history).
    """
    present = teams_to_pair(history, rnd, absent)
    imaginary = imaginary_points(history, profile, rnd, present)
    mp = {t: match_points_total(history, t) for t in present}
    score = {t: mp[t] + imaginary.get(t, 0) for t in present}
    keys = order_keys(history, profile, rnd, score)
    ordered = sorted(present, key=keys.__getitem__)
    place = {t: i for i, t in enumerate(ordered)}
    out = []
    for t in ordered:
        rounds = history.team_rounds(t)
        met = {}
        for tr in rounds:
            meeting = tr.met or (profile.whole_forfeit_is_meeting and tr.kind in _FORFEITS)
            if meeting and tr.opponent in place:
                met[place[tr.opponent]] = tr.round
        info = history.teams[t]
        out.append(
            Entrant(
                place=place[t],
                team_id=t,
                pairing_number=info.pairing_number,
                mp=mp[t],
                score=score[t],
                imaginary=imaginary.get(t, 0),
                colours=ColourHistory(tuple(tr.colour for tr in rounds)),
                met=met,
                bye_block=_bye_block(history, profile, rounds),
                rating=info.rating,
            )
        )
    return out


def _bye_block(history: History, profile: RuleProfile, rounds: list) -> str:
    for tr in rounds:
        if tr.kind == "bye":
            return f"had the bye in round {tr.round}"
        if tr.kind == "forfeit-win" and profile.bye_ineligible_after_forfeit_win:
            return f"won round {tr.round} by default"
    if profile.bye_ineligible_late_entry and rounds and rounds[0].kind in ("absent", "not-entered"):
        return "late entry (not paired in round 1)"
    return ""
