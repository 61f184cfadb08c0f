"""C.07 (2026) art. 13.4 Scores and Schedule Strength Combination (SSSC).

SSSC = secondary score + Schedule Strength, where Schedule Strength = Buchholz on the primary score
(Fore Buchholz with ``/F``) / the normalising factor. The factor is the highest primary score
achievable in the tournament divided by the highest secondary score of one match, rounded toward
zero, unless ``/Kx`` gives it: MP primary (C.04.6 art. 1.2 default): win MP x rounds / boards, and
the secondary score is GP; GP primary: boards x rounds / win MP, and the secondary score is MP.
Units: secondary score plus primary score / factor (an exact decimal).
"""
from __future__ import annotations

from decimal import Decimal

from schemas.profile import RuleProfile


def normalising_factor(profile: RuleProfile, given: str | None = None) -> Decimal:
    """The 13.4 factor: ``given`` (/Kx), or floor(win MP x rounds / boards) with MP primary,
    floor(boards x rounds / win MP) with GP primary (``RuleProfile.primary_score``)."""
    if given is not None:
        return Decimal(given)
    if profile.primary_score == "gp":
        return Decimal(profile.boards * profile.rounds // profile.match_points.win)
    return Decimal(profile.match_points.win * profile.rounds // profile.boards)


def score_strength_combination(secondary: Decimal, schedule_buchholz: Decimal, factor: Decimal) -> Decimal:
    """``secondary`` + ``schedule_buchholz`` / ``factor`` (a factor of 0 leaves the Buchholz whole)."""
    return secondary + (schedule_buchholz / factor if factor else schedule_buchholz)
