"""The rules an input event must meet against the state before it: one function per event type.

``check_event(state, event)`` raises ``RuleViolation`` naming the field and the rule, and
changes nothing. It judges an event that arrives as a fact (an importer's, a published data
set's); the deciders of ``processors.deciders`` run it on every event a command yields, so a
rule is written once for both. Loading a log never calls it (``TournamentState.evolve``).
"""
from __future__ import annotations

from datetime import timezone
from types import SimpleNamespace
from typing import Any, Callable

from processors.violation import RuleViolation
from schemas import event_ids
from schemas.canonical import canonical_json, text_digest
from schemas.chain import last_checkpoint_hash, signed_message
from schemas.profile import PROFILES

# ``TournamentState`` in the annotations is ``processors.tournament.TournamentState``: named, not
# imported, because the state calls these rules (an import back would be a cycle).


ENGINE_RULES: dict[str, Callable[["TournamentState", Any], None]] = {}
"""Event rules that need the pure engines (the standings, the pairing checker), which sit above
this module in the layers: ``projections.event_rules`` registers them here when ``projections``
is imported (every door that judges events imports it: the store, replay, the deciders)."""


def check_event(state: "TournamentState", event: Any) -> None:
    """Judge ``event`` (one a decider yielded, or a fact an ``ImportFacts`` holds) against
    ``state``; raises ``RuleViolation`` for the first rule it breaks. Who may issue it is the
    command's rule (``check_role``, run by ``processors.deciders.handle``)."""
    check = _CHECKS.get(event.type)
    if check is None:
        raise RuleViolation(f"{event.type} is derived, not an input event", field="type", rule="input events")
    if event.type != "TournamentCreated":
        check_tournament(state, event.tournament_id, "event")
    check(state, event)
    check_event_id(event)
    if event.type in ENGINE_TYPES:
        if event.type not in ENGINE_RULES:  # a rule never goes unchecked: a process that judges imports projections
            raise RuntimeError(f"the event rule of {event.type} is not registered: import projections first")
        ENGINE_RULES[event.type](state, event)


ENGINE_TYPES = frozenset({"RoundPaired", "RoundClosed"})
"""The input events judged by an ``ENGINE_RULES`` rule as well."""


def check_event_id(event: Any) -> None:
    """An event's id is the id of what it says (``schemas.event_ids``: ``T/r2/t1/b1`` is round 2
    table 1 board 1): an id that names another fact would hold that fact's place, and every
    later entry of it would be refused as already recorded."""
    if not event_ids.matches(event):
        want, numbered = event_ids.of_event(event)
        raise RuleViolation(f"event id {event.event_id!r} is not the id of what the event says: "
                            f"{want}{'<n>' if numbered else ''}", field="event_id",
                            rule="an event's id is derived from its content")


def check_tournament(state: "TournamentState", tournament_id: str, what: str) -> None:
    """Raise ``RuleViolation`` (field ``tournament_id``) unless the tournament of the ``what``
    ("event", "command") was created and is the one this log holds (one tournament per log)."""
    if state.created is None:
        raise RuleViolation(f"tournament {tournament_id!r} has not been created", field="tournament_id",
                            rule="tournament exists")
    if tournament_id != state.tournament_id:
        raise RuleViolation(f"{what} is for {tournament_id!r}, this log holds {state.tournament_id!r}",
                            field="tournament_id", rule="one tournament per log")


def _created(state: "TournamentState", e: Any) -> None:
    """A log holds one tournament, created once (another tournament's creation names the one it
    holds); a built-in profile's name keeps its rules."""
    if state.created is not None and e.tournament_id != state.tournament_id:
        raise RuleViolation(f"this log already holds the tournament {state.tournament_id!r} ({state.created.name}); "
                            f"create {e.tournament_id!r} in a store of its own", field="tournament_id",
                            rule="one tournament per log")
    if state.created is not None:
        raise RuleViolation("the tournament already exists", field="type", rule="created once")
    builtin = PROFILES.get(e.profile.name)
    if builtin is not None and builtin != e.profile:
        raise RuleViolation(f"profile {e.profile.name!r} changes the rules of the built-in profile of that name; give it "
                            "a name of its own", field="profile.name", rule="a profile's name names its rules")


def team_known(state: "TournamentState", team: str, field: str) -> None:
    """Raise unless ``team`` is registered."""
    if team not in state.teams:
        raise RuleViolation(f"unknown team {team!r}", field=field, rule="registered teams only")


def check_roster(state: "TournamentState", players: tuple, field: str = "players") -> None:
    """R-D1: ``boards`` to ``boards + reserves`` nominated players, board order 1..n, no player twice."""
    p = state.profile
    orders = [pl.board_order for pl in players]
    if not p.boards <= len(orders) <= p.boards + p.reserves:
        raise RuleViolation(f"{len(orders)} players nominated; the profile needs {p.boards} to {p.boards + p.reserves}",
                            field=field, rule=f"R-D1 team of {p.boards} boards + {p.reserves} reserve")
    if sorted(orders) != list(range(1, len(orders) + 1)):
        raise RuleViolation(f"board order {orders} is not 1..{len(orders)}", field=f"{field}.board_order",
                            rule="R-D1 fixed board order")
    ids = [pl.fide_id for pl in players if pl.fide_id]
    if len(ids) != len(set(ids)):
        raise RuleViolation("a FIDE id is nominated twice", field=f"{field}.fide_id", rule="a player plays for one team")


def _registered(state: "TournamentState", e: Any) -> None:
    if e.team_id in state.teams:
        raise RuleViolation(f"team {e.team_id!r} is already registered", field="team_id", rule="unique team")
    check_roster(state, e.players)
    late = state.last_round > 0
    if e.from_round is not None:
        if e.from_round <= state.last_round:
            raise RuleViolation(f"round {e.from_round} is already published; a late entry plays from round "
                                f"{state.last_round + 1} on", field="from_round", rule="late entries join unpublished rounds")
        if e.from_round > state.profile.rounds:
            raise RuleViolation(f"round {e.from_round} is outside 1..{state.profile.rounds}", field="from_round",
                                rule="rounds of the profile")
    if e.pairing_number is not None:
        # Pairing numbers are stable (R-I1): a late entry is numbered after every team already
        # registered, so that no other team is renumbered.
        if late and e.pairing_number <= max([len(state.teams)] + [t.pairing_number or 0 for t in state.teams.values()]):
            raise RuleViolation(f"pairing number {e.pairing_number} would renumber other teams; a late entry is "
                                f"numbered after the {len(state.teams)} teams registered", field="pairing_number",
                                rule="stable pairing numbers")
        if any(t.pairing_number == e.pairing_number for t in state.teams.values()):
            raise RuleViolation(f"pairing number {e.pairing_number} is taken", field="pairing_number",
                                rule="unique pairing number")


def nominations_open(state: "TournamentState", when: Any, field: str) -> None:
    """Rosters are fixed at the nomination deadline (R-D1), or at the publication of round 1."""
    deadline = state.created.nomination_deadline
    if state.rounds:
        raise RuleViolation("round 1 is published: rosters are fixed from then on", field=field,
                            rule="R-D1 nomination deadline")
    if deadline is not None and when is not None and _after(when, deadline):
        raise RuleViolation(f"the nomination deadline {deadline.isoformat()} has passed", field=field,
                            rule="R-D1 nomination deadline")


def _after(when: Any, deadline: Any) -> bool:
    if (when.tzinfo is None) != (deadline.tzinfo is None):  # compare naive as UTC
        when, deadline = (w.replace(tzinfo=timezone.utc) if w.tzinfo is None else w for w in (when, deadline))
    return when > deadline


def _roster_changed(state: "TournamentState", e: Any) -> None:
    team_known(state, e.team_id, "team_id")
    nominations_open(state, e.occurred_at, "players")
    check_roster(state, e.players)


def _starting_ranks(state: "TournamentState", e: Any) -> None:
    if state.rounds:
        raise RuleViolation("round 1 is published: starting ranks are fixed", field="order", rule="stable pairing numbers")
    if sorted(e.order) != sorted(state.teams):
        missing = sorted(set(state.teams) - set(e.order))
        extra = sorted(set(e.order) - set(state.teams))
        raise RuleViolation(f"the order must hold every registered team once (missing {missing}, unknown {extra})",
                            field="order", rule="every team ranked once")


def _lineup(state: "TournamentState", e: Any) -> None:
    team_known(state, e.team_id, "team_id")
    if e.team_id in state.withdrawn and state.withdrawn[e.team_id] <= e.round:
        raise RuleViolation(f"team {e.team_id!r} withdrew from round {state.withdrawn[e.team_id]}", field="team_id",
                            rule="withdrawn teams are not paired")
    round_of_profile(state, e.round)
    if e.round in state.rounds:
        raise RuleViolation(f"round {e.round} is published: its line-ups are fixed", field="round",
                            rule="line-ups before the round is published")
    boards = state.profile.boards
    nominated = len(state.teams[e.team_id].players)
    if len(e.boards) != boards:
        raise RuleViolation(f"{len(e.boards)} players; a line-up has {boards}", field="boards", rule=f"R-D1 {boards} boards")
    for i, order in enumerate(e.boards):
        if order > nominated:
            raise RuleViolation(f"board order {order} is not a nominated player of {e.team_id} (1..{nominated})",
                                field=f"boards.{i}", rule="R-D1 only nominated players")
    if list(e.boards) != sorted(set(e.boards)):
        raise RuleViolation(f"board orders {list(e.boards)} are not in nominated order", field="boards",
                            rule="R-D1 fixed board order")


def round_of_profile(state: "TournamentState", rnd: int, field: str = "round") -> None:
    """Raise unless ``rnd`` is one of the profile's rounds."""
    if not 1 <= rnd <= state.profile.rounds:
        raise RuleViolation(f"round {rnd} is outside 1..{state.profile.rounds}", field=field, rule="rounds of the profile")


def _absence(state: "TournamentState", e: Any) -> None:
    team_known(state, e.team_id, "team_id")
    round_of_profile(state, e.round)
    if e.round in state.rounds:
        raise RuleViolation(f"round {e.round} is already paired", field="round", rule="absences before the pairing")


def check_pairing(state: "TournamentState", rnd: int, tables: tuple, bye: str | None, absent: tuple[str, ...],
                  announced: bool = True) -> None:
    """A pairing of round ``rnd`` places every team that plays it exactly once: at a table, as the
    bye (PAB) or absent; only registered teams that have entered and not withdrawn; unique table
    numbers; at most one bye, and only when the number of teams at tables is even.
    ``announced``: teams that announced their absence must be listed absent."""
    seen: dict[str, str] = {}
    numbers: set[int] = set()

    def place(team: str, where: str, fld: str) -> None:
        team_known(state, team, fld)
        if team in seen:
            raise RuleViolation(f"team {team!r} is in {seen[team]} and in {where}", field=fld, rule="a team is paired once per round")
        if where != "absent":
            if team in state.withdrawn and state.withdrawn[team] <= rnd:
                raise RuleViolation(f"team {team!r} withdrew before round {rnd}", field=fld, rule="withdrawn teams are not paired")
            if state.entered.get(team, 1) > rnd:
                raise RuleViolation(f"team {team!r} enters from round {state.entered[team]}", field=fld,
                                    rule="late entries play from their first round")
            if announced and team in state.absences.get(rnd, {}):
                raise RuleViolation(f"team {team!r} announced its absence from round {rnd}", field=fld,
                                    rule="absent teams are not paired")
        seen[team] = where

    for i, t in enumerate(tables):
        if t.table in numbers:
            raise RuleViolation(f"table {t.table} appears twice", field=f"tables.{i}.table", rule="unique table numbers")
        numbers.add(t.table)
        place(t.home, f"table {t.table}", f"tables.{i}.home")
        place(t.away, f"table {t.table}", f"tables.{i}.away")
    if bye is not None:
        place(bye, "the bye", "bye")
    for i, team in enumerate(absent):
        place(team, "absent", f"absent.{i}")
    missing = [t for t in state.present(rnd) if t not in seen] if announced else []
    if missing:
        raise RuleViolation(f"teams {missing} play round {rnd} but are neither at a table, the bye nor absent",
                            field="tables", rule="every present team paired once")
    if not tables and len(seen) - len(absent) >= 2:
        raise RuleViolation("the pairing has no tables", field="tables", rule="every present team paired once")


def next_round(state: "TournamentState", rnd: int) -> None:
    """Raise unless ``rnd`` is the round to pair: a round of the profile, not yet published, the
    one after the last published round, whose previous round is complete (FIDE D.02 2022: round
    r is paired once round r - 1 is complete, every board with a result)."""
    round_of_profile(state, rnd)
    if rnd in state.rounds:
        raise RuleViolation(f"round {rnd} is already published", field="round", rule="one pairing per round")
    if rnd != state.last_round + 1:
        raise RuleViolation(f"round {rnd} is not the next round ({state.last_round + 1})", field="round", rule="rounds in order")
    if rnd > 1 and not state.round_complete(rnd - 1):
        missing = sum(1 for t in state.rounds[rnd - 1].tables if not state.match(rnd - 1, t.table).complete)
        raise RuleViolation(f"round {rnd - 1} is not complete: {missing} match(es) still miss results", field="round",
                            rule="pair a round when the previous round is complete")


def _round_paired(state: "TournamentState", e: Any) -> None:
    next_round(state, e.round)
    check_pairing(state, e.round, e.tables, e.bye, e.absent)


def _proposed(state: "TournamentState", e: Any) -> None:
    next_round(state, e.round)
    check_pairing(state, e.round, e.tables, e.bye, e.absent)


def _amended(state: "TournamentState", e: Any) -> None:
    if e.round not in state.proposals:
        raise RuleViolation(f"round {e.round} has no proposed pairing to amend", field="round",
                            rule="amend the engine's proposal")
    check_pairing(state, e.round, e.tables, e.bye, e.absent)


def board_key(state: "TournamentState", e: Any) -> tuple[int, int, int]:
    """The board a result event is about; raises unless its round and table are published and the
    board exists (R-D1)."""
    if e.round not in state.rounds:
        proposed = " (it is proposed, not published)" if e.round in state.proposals else ""
        raise RuleViolation(f"round {e.round} has not been published{proposed}", field="round",
                            rule="results only for paired rounds")
    if (e.round, e.table) not in state.tables:
        raise RuleViolation(f"round {e.round} has no table {e.table}", field="table",
                            rule="results only for tables of the round's pairing")
    boards = state.profile.boards
    if hasattr(e, "board") and not 1 <= e.board <= boards:
        raise RuleViolation(f"board {e.board} does not exist in a {boards}-board match", field="board",
                            rule=f"R-D1 boards 1..{boards}")
    return (e.round, e.table, getattr(e, "board", 0))


def _board_result(state: "TournamentState", e: Any) -> None:
    key = board_key(state, e)
    if e.forfeit is not None:
        note_rule(e.forfeit, e.note, "note")
    if key in state.results:
        prior_id, prior = state.results[key]
        if prior != e.result:
            raise RuleViolation(
                f"round {e.round} table {e.table} board {e.board} already has {prior} (event {prior_id}); "
                f"{e.result} needs a correction with a reason",
                field="result", rule="one result per board; changes go through a correction")


def _corrected(state: "TournamentState", e: Any) -> None:
    key = board_key(state, e)
    replaced = state.result_history.get(e.supersedes)
    # A MatchForfeited event stands for every board of its table (recorded as board 0).
    if replaced not in (key, (e.round, e.table, 0)):
        raise RuleViolation(f"event {e.supersedes!r} is not a result of round {e.round} table {e.table} board {e.board}",
                            field="supersedes", rule="a correction names the result it replaces")


def _match_forfeited(state: "TournamentState", e: Any) -> None:
    board_key(state, e)
    if e.winner is not None:
        winner_at_table(state.tables[(e.round, e.table)], e.winner)
    note_rule(e.forfeit, e.note, "note")
    if any((e.round, e.table, b) in state.results for b in range(1, state.profile.boards + 1)):
        raise RuleViolation("boards of this table already have results", field="table",
                            rule="one result per board; changes go through a correction")


FORFEIT_NOTE_MIN = 0
"""Characters a forfeit's note needs (its reason "other" needs one at least)."""


def note_rule(reason: str, note: str, field: str) -> None:
    """A forfeit says why (R-D6 zero tolerance names its cases): its note has ``FORFEIT_NOTE_MIN``
    characters at least, one for the reason "other" (which the note then names)."""
    need = max(FORFEIT_NOTE_MIN, 1 if reason == "other" else 0)
    if len(note) < need:
        raise RuleViolation(f"a forfeit for the reason {reason!r} needs a note of {need} characters at least",
                            field=field, rule="a forfeit says why")


def winner_at_table(table: Any, winner: str) -> None:
    """Raise (field ``winner``) unless ``winner`` is one of the two teams of ``table`` (a
    ``schemas.events.Table``): a forfeit is won by a team that plays at the table (R-D6)."""
    if winner not in (table.home, table.away):
        raise RuleViolation(f"{winner!r} does not play at table {table.table} ({table.home} v {table.away})",
                            field="winner", rule="winner is one of the two teams")


def _withdrawn(state: "TournamentState", e: Any) -> None:
    team_known(state, e.team_id, "team_id")
    if e.team_id in state.withdrawn:
        raise RuleViolation(f"team {e.team_id!r} already withdrew from round {state.withdrawn[e.team_id]}",
                            field="team_id", rule="a team withdraws once")


def _closed(state: "TournamentState", e: Any) -> None:
    if e.round not in state.rounds:
        raise RuleViolation(f"round {e.round} has not been paired", field="round", rule="close a published round")
    if e.round in state.closed:
        raise RuleViolation(f"round {e.round} is already closed", field="round", rule="a round is closed once")
    missing_results(state, e.round)


def missing_results(state: "TournamentState", rnd: int) -> None:
    """Raise, naming the tables and boards, unless every board of round ``rnd`` has a result."""
    missing = [f"table {t.table} board {b}" for t in state.rounds[rnd].tables for b in range(1, state.profile.boards + 1)
               if (rnd, t.table, b) not in state.results]
    if missing:
        shown = ", ".join(missing[:8]) + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        raise RuleViolation(f"round {rnd} still misses {len(missing)} result(s): {shown}", field="round",
                            rule="close a round when every result is in")


def pairing_digest(state: "TournamentState", rnd: int) -> str:
    """SHA-256 of the canonical JSON of round ``rnd``'s published pairing (``RoundPaired``)."""
    return text_digest(canonical_json(state.rounds[rnd]))


CHECKPOINT_HEAD = "a checkpoint signs the log as its round is closed"
"""The rule a ``CheckpointSigned`` whose signed head is not the log's length is refused by: the
door signs again on the log as it now stands."""


def _checkpoint(state: "TournamentState", e: Any) -> None:
    """A checkpoint of a closed round, once, signed with the chief arbiter's key over the round's
    digests; a version 2 checkpoint comes right after its ``RoundClosed`` (the same decision),
    signs the log's length before it (``events``; its chain ``head`` is the door's word, which
    the audit checks against the log) and chains to the tournament's last checkpoint
    (``previous``, ``schemas.chain.last_checkpoint_hash``)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if e.round not in state.closed:
        raise RuleViolation(f"round {e.round} is not closed", field="round", rule="a checkpoint of a closed round")
    if e.round in state.checkpoints:
        raise RuleViolation(f"round {e.round} already has a checkpoint", field="round", rule="one checkpoint per round")
    if state.created.chief_key is None or e.public_key != state.created.chief_key:
        raise RuleViolation("the key is not the chief arbiter's key recorded at the tournament's creation",
                            field="public_key", rule="checkpoints are signed with the chief arbiter's key")
    if (e.standings_digest, e.pairing_digest) != (state.closed[e.round], pairing_digest(state, e.round)):
        raise RuleViolation(f"the digests are not those of round {e.round}'s official standings and pairing",
                            field="standings_digest", rule="a checkpoint holds the round's digests")
    if e.events is not None:
        closed = event_ids.closed(e.tournament_id, e.round)
        if next(reversed(state.applied), None) != closed or e.events != len(state.applied) - 1:
            raise RuleViolation(f"the checkpoint signs a log of {e.events} events; round {e.round} was closed after "
                                f"{len(state.applied) - 1}: sign the log as it stands", field="checkpoint.events",
                                rule=CHECKPOINT_HEAD)
        if e.previous != last_checkpoint_hash(e.tournament_id, list(state.checkpoints.values())):
            raise RuleViolation("the checkpoint does not chain to the tournament's last checkpoint",
                                field="checkpoint.previous", rule=CHECKPOINT_HEAD)
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(e.public_key)).verify(bytes.fromhex(e.signature), signed_message(e))
    except InvalidSignature:
        raise RuleViolation("the signature does not verify with the chief arbiter's key", field="signature",
                            rule="checkpoints are signed with the chief arbiter's key") from None


def _game_event(state: "TournamentState", e: Any) -> None:
    """A game's events are about a board of a published round (``board_key``); its progress, end
    and flags follow its start (``GameStarted``)."""
    board_key(state, e)
    if e.type != "GameStarted" and (e.round, e.table, e.board) not in state.feed.games:
        raise RuleViolation(f"round {e.round} table {e.table} board {e.board} has no game started", field="board",
                            rule="a game's events follow its start")


def _feed_problem(state: "TournamentState", e: Any) -> None:
    """A feed problem that names a board names one of a published round."""
    if e.round is not None and e.table is not None:
        board_key(state, e if e.board is not None else SimpleNamespace(round=e.round, table=e.table))


_CHECKS = {
    "TournamentCreated": _created,
    "TeamRegistered": _registered,
    "RosterChanged": _roster_changed,
    "StartingRanksSet": _starting_ranks,
    "LineupSubmitted": _lineup,
    "AbsenceAnnounced": _absence,
    "RoundPaired": _round_paired,
    "PairingProposed": _proposed,
    "PairingAmended": _amended,
    "BoardResultRecorded": _board_result,
    "BoardResultCorrected": _corrected,
    "MatchForfeited": _match_forfeited,
    "TeamWithdrawn": _withdrawn,
    "RoundClosed": _closed,
    "CheckpointSigned": _checkpoint,
    "GameStarted": _game_event,
    "GameProgressed": _game_event,
    "GameEnded": _game_event,
    "DrawOfferRuleFlagged": _game_event,
    "LateArrivalSuspected": _game_event,
    "FeedProblemReported": _feed_problem,
}


# ------------------------------------------------------------------ who may issue what
CHIEF_ONLY = "the chief arbiter's command"
ALLOWED: dict[str, frozenset[str]] = {
    "RecordResult": frozenset({"chief", "arbiter", "terminal"}),
    "RecordResults": frozenset({"chief", "arbiter", "terminal"}),
    "RecordForfeit": frozenset({"chief", "arbiter"}),
    "SubmitLineup": frozenset({"chief", "arbiter", "captain"}),
    "AnnounceAbsence": frozenset({"chief", "captain"}),
    "ImportFacts": frozenset({"chief", "importer"}),
    "ReportGame": frozenset({"chief", "feed"}),
    "ReportFeedProblem": frozenset({"chief", "feed"}),
    "ConfirmResults": frozenset({"chief", "arbiter"}),
}
"""Commands open to more than the chief arbiter, and the roles that may issue them."""


def role_may(role: str, command: str) -> bool:
    """True if an actor of ``role`` may issue ``command`` at all (``ALLOWED``; the chief arbiter
    every command), before the scope of a table, a team or a round is checked (``check_role``):
    what a page offers a token's holder."""
    return role == "chief" or role in ALLOWED.get(command, ())


def check_role(state: TournamentState, command: Any) -> None:
    """Raise unless ``command.actor`` may issue ``command``: the chief arbiter may issue every
    command; a terminal only the results of its table in the current round; a captain only for
    its own team, and its line-up only for the round to pair (R-D1: each team submits its line-up
    for each round; a captain's token does not file later rounds ahead or change published ones)."""
    actor = command.actor
    if actor.role == "chief":
        return
    allowed = ALLOWED.get(command.command, frozenset({"chief"}))
    if actor.role not in allowed:
        who = " or ".join(sorted(allowed)) if len(allowed) > 1 else "chief arbiter"
        raise RuleViolation(f"{actor.role} {actor.id!r} may not {command.command}: only the {who} may",
                            field="actor", rule=CHIEF_ONLY if allowed == {"chief"} else f"{command.command} by {who}")
    if actor.role == "terminal":
        if actor.table is not None and command.table != actor.table:
            raise RuleViolation(f"terminal {actor.id!r} enters the results of table {actor.table}, not table {command.table}",
                                field="table", rule="a terminal enters its own table's results")
        if command.round != state.last_round:
            raise RuleViolation(f"terminal {actor.id!r} enters results of the current round {state.last_round}, "
                                f"not round {command.round}", field="round", rule="a terminal enters the current round")
    if actor.role == "captain" and command.team_id != actor.team:
        raise RuleViolation(f"captain {actor.id!r} of {actor.team!r} acts for its own team, not {command.team_id!r}",
                            field="team_id", rule="a captain acts for its own team")
    if actor.role == "captain" and command.command == "SubmitLineup" and command.round != state.last_round + 1:
        raise RuleViolation(f"captain {actor.id!r} submits the line-up of round {state.last_round + 1}, the round to "
                            f"pair, not round {command.round}", field="round", rule="a captain submits the next round's line-up")
