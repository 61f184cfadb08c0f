"""Event ids derived from a command's identity: equal for a retry, different for a new decision.

One scheme for every door (CLI, HTTP, Kafka), the importers and the simulator, which use the same
ids for the same facts: ``T/created``, ``T/team/<team>``, ``T/r<round>/t<table>/b<board>`` ... A
command that may be repeated with new content (a line-up resubmitted before the round is
published, a second proposal) numbers its events ``/1``, ``/2`` ... in the order they were
accepted: for those, ``roster``, ``starting_ranks``, ``lineup``, ``proposal``, ``amendment`` and
``correction`` give the series' prefix (``processors.deciders.identity.numbered`` the next event).
"""
from __future__ import annotations


def created(t: str) -> str:
    """``TournamentCreated``."""
    return f"{t}/created"


def team(t: str, team_id: str) -> str:
    """``TeamRegistered``."""
    return f"{t}/team/{team_id}"


def roster(t: str, team_id: str) -> str:
    """Prefix of the ``RosterChanged`` series of a team."""
    return f"{t}/team/{team_id}/roster/"


def starting_ranks(t: str) -> str:
    """Prefix of the ``StartingRanksSet`` series."""
    return f"{t}/starting-ranks/"


def withdrawn(t: str, team_id: str) -> str:
    """``TeamWithdrawn``."""
    return f"{t}/team/{team_id}/withdrawn"


def lineup(t: str, rnd: int, team_id: str) -> str:
    """Prefix of the ``LineupSubmitted`` series of a team in a round."""
    return f"{t}/r{rnd}/lineup/{team_id}/"


def absence(t: str, rnd: int, team_id: str) -> str:
    """``AbsenceAnnounced``."""
    return f"{t}/r{rnd}/absent/{team_id}"


def proposal(t: str, rnd: int) -> str:
    """Prefix of the ``PairingProposed`` series of a round."""
    return f"{t}/r{rnd}/proposal/"


def amendment(t: str, rnd: int) -> str:
    """Prefix of the ``PairingAmended`` series of a round."""
    return f"{t}/r{rnd}/amendment/"


def pairing(t: str, rnd: int) -> str:
    """``RoundPaired`` (the published pairing)."""
    return f"{t}/r{rnd}/pairing"


def board(t: str, rnd: int, table: int, board_no: int) -> str:
    """A board's first result (``BoardResultRecorded``, a forfeited board too)."""
    return f"{t}/r{rnd}/t{table}/b{board_no}"


def match_forfeit(t: str, rnd: int, table: int) -> str:
    """``MatchForfeited``."""
    return f"{t}/r{rnd}/t{table}/forfeit"


def correction(t: str, rnd: int, table: int, board_no: int) -> str:
    """Prefix of the ``BoardResultCorrected`` series of a board."""
    return f"{t}/r{rnd}/t{table}/b{board_no}/correction/"


def closed(t: str, rnd: int) -> str:
    """``RoundClosed``."""
    return f"{t}/r{rnd}/closed"


def checkpoint(t: str, rnd: int) -> str:
    """``CheckpointSigned`` (the round's signed checkpoint)."""
    return f"{t}/r{rnd}/checkpoint"
