"""The auditor: reproduce every round from a tournament's log, compare with what was published,
check the hash chain and the signed checkpoints, list the arbiter's actions.

``audit(tournament_id, records, published)`` takes the log as it was found (``LogRecord``: the
stored text of each event, the chain hash stored beside it if any, where it was found) and what
was published (``Published``: standings documents and pairings per round), and returns an
``AuditReport``: one ``Divergence`` per disagreement, naming the round, the team or the event and
the values. The sources (a file, an event store's database, Kafka topics) are read by
``producers.audit_sources``; this module does no I/O.

What is checked:
- the hash chain (``schemas.chain``): each stored hash against the one the log's bytes give; the
  first event where they part is named (a changed, deleted or reordered event breaks it there).
  Where the hash before each event is stored too (the Kafka record headers), that event is
  named with what happened: its text changed, an event before it deleted, or it moved (with the
  event it was logged after); a record without hashes after chained ones is named too;
- each ``CheckpointSigned``: its chain head against the log's at the round's ``RoundClosed``,
  its standings and pairing digests against the log's, its signature with the chief arbiter's
  key (``TournamentCreated.chief_key``, or the key the auditor trusts);
- each round's standings (``projections.replay``) against the published document, value by value;
- each round's pairing against the published one (table by table), and the engine's proposal
  against a published proposal (reproduced in the same pass over the log as the standings).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processors.rules import pairing_digest
from processors.tournament import RuleViolation, TournamentState
from projections.feed_trail import FEED_TRAIL
from projections.pairing.proposal import propose_round
from projections.replay import replay
from schemas.chain import chain_next, chain_start, checkpoint_message
from schemas.events import parse_event


@dataclass(frozen=True)
class LogRecord:
    """One event as found: its stored text, the chain hash stored with it (None: not stored),
    where (``"seq 17"``, ``"line 17"``, ``"tournament-log 1:34"``), and the hash stored as the
    one before it (None: not stored; the Kafka record headers hold both)."""

    body: str
    chain: str | None = None
    where: str = ""
    prev: str | None = None


@dataclass
class Published:
    """What was published: ``standings[r]`` the standings document after round r (the canonical
    document's dict, with ``digest`` when known), ``pairings[r]`` a round's tables as
    ``{table: (home, away)}``, ``proposals[r]`` the engine's proposed tables."""

    standings: dict[int, dict[str, Any]] = field(default_factory=dict)
    pairings: dict[int, dict[int, tuple[str, str]]] = field(default_factory=dict)
    proposals: dict[int, dict[int, tuple[str, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Divergence:
    """One disagreement: ``kind`` (chain, checkpoint, standings, pairing, proposal), the round,
    the event or the team concerned, and what differs."""

    kind: str
    round: int | None
    subject: str
    what: str

    def text(self) -> str:
        where = f"round {self.round}: " if self.round else ""
        return f"{self.kind}: {where}{self.subject}: {self.what}"


@dataclass(frozen=True)
class Action:
    """One arbiter action of the audit trail: when, who, what, and the reason."""

    when: str
    who: str
    round: int | None
    what: str
    reason: str


@dataclass
class AuditReport:
    """The audit of one tournament: the rounds reproduced, every divergence, the arbiter's actions."""

    tournament_id: str
    events: int
    rounds: list[int]
    checkpoints: int
    divergences: list[Divergence]
    trail: list[Action]
    hashed: int = 0  # records found with a stored chain hash (the event store's column, Kafka's headers)

    @property
    def ok(self) -> bool:
        """True when everything agrees."""
        return not self.divergences


def audit(tournament_id: str, records: list[LogRecord], published: Published | None = None,
          trusted_key: str | None = None) -> AuditReport:
    """Audit the log ``records`` of ``tournament_id`` against ``published`` (see the module docstring).

    ``trusted_key``: the chief arbiter's public key (hex) as the auditor knows it; default the
    one recorded in the log's ``TournamentCreated``. Raises ``EventSchemaError`` for a record that
    is not an event.
    """
    published = published or Published()
    out: list[Divergence] = []
    events, heads = _chain(tournament_id, records, out)
    proposals = _Proposals(published.proposals)
    result = replay(events, before=proposals.before)  # one pass: standings and proposals of every round
    state = result.state
    key = trusted_key or (state.created.chief_key if state.created else None)
    _checkpoints(tournament_id, events, heads, result, key, out)
    for rnd, doc in sorted(published.standings.items()):
        _standings(rnd, doc, result.rounds.get(rnd), out)
    for rnd, tables in sorted(published.pairings.items()):
        _pairing("pairing", rnd, tables, state.rounds.get(rnd), out)
    out.extend(proposals.finish(state))
    hashed = sum(1 for rec in records if rec.chain is not None)
    return AuditReport(tournament_id, len(events), sorted(result.rounds), len(state.checkpoints), out, trail(state), hashed)


def _chain(tid: str, records: list[LogRecord], out: list[Divergence]) -> tuple[list[Any], dict[str, str]]:
    """The events (first copy of each id) and the chain hash through each; the first record whose
    stored hash the log's bytes do not give is a divergence (the first only: every later hash
    follows from it), named with what its stored hashes say happened (``_chain_break``)."""
    firsts: list[tuple[LogRecord, Any]] = []
    seen: set[str] = set()
    for rec in records:
        event = parse_event(rec.body)
        if event.event_id in seen:
            continue  # a redelivered copy (the processors re-append what they may have lost)
        seen.add(event.event_id)
        firsts.append((rec, event))
    events, heads = [], {}
    head = chain_start(tid)
    broken, chained = False, None
    for i, (rec, event) in enumerate(firsts):
        before, head = head, chain_next(head, rec.body)
        heads[event.event_id] = head
        events.append(event)
        if broken:
            continue
        if rec.chain is None:
            if chained is not None:  # the hashes stop: a record put in by hand, or its headers cut
                out.append(Divergence("chain", getattr(event, "round", None), event.event_id,
                                      f"no chain hash ({rec.where}), though the records before it have one "
                                      f"({chained}): it was not logged by the processors"))
                broken = True
            continue
        chained = chained or rec.where
        if rec.chain != head:
            out.append(Divergence("chain", getattr(event, "round", None), event.event_id,
                                  _chain_break(firsts, i, before, head)))
            broken = True
    return events, heads


def _chain_break(firsts: list[tuple[LogRecord, Any]], i: int, before: str, head: str) -> str:
    """What the stored hashes say of the first record ``i`` whose stored hash is not the log's
    ``head`` (``before``: the log's hash before it). With the previous hash stored beside each
    hash (Kafka record headers), a changed text, a missing event and a moved one are told apart;
    with the hash alone (the event store's column) a moved event is, the two others are not."""
    rec, event = firsts[i]
    base = f"the stored hash {rec.chain[:12]}... is not the log's {head[:12]}... ({rec.where})"
    if rec.prev is None:
        # The hash alone: the event whose text gives the hash stored here, if the log has it later,
        # was moved; else this event's text was changed or an event before it deleted.
        here = next((j for j in range(i + 1, len(firsts)) if chain_next(before, firsts[j][0].body) == rec.chain), None)
        if here is not None:
            return (f"{base}: the hash stored here is that of {firsts[here][1].event_id} ({firsts[here][0].where}), "
                    "which the log has later: the events were swapped or moved")
        return f"{base}: this event, or one before it, was changed, deleted or moved"
    own = chain_next(rec.prev, rec.body) == rec.chain  # its text is the text that was chained
    if rec.prev == before:
        return f"{base}: its text is not the text that was logged (changed after it was logged)"
    previous = firsts[i - 1][1].event_id if i else "the tournament's start"
    later = next((j for j in range(i + 1, len(firsts)) if firsts[j][0].chain == rec.prev), None)
    changed = "" if own else "; its text was changed too"
    if later is not None:
        moved = firsts[later]
        return (f"{base}: it was logged right after {moved[1].event_id} ({moved[0].where}), which the log now has after "
                f"it: the events were swapped or moved{changed}")
    earlier = next((j for j in range(i - 1, -1, -1) if firsts[j][0].chain == rec.prev), None)
    if earlier is not None:
        return (f"{base}: it was logged right after {firsts[earlier][1].event_id} ({firsts[earlier][0].where}); "
                f"the events between them were put in or moved there{changed}")
    return (f"{base}: the event logged before it (hash {rec.prev[:12]}...) is not in the log: an event between "
            f"{previous} and this one was deleted{changed}")


def _checkpoints(tid: str, events: list[Any], heads: dict[str, str], result: Any, key: str | None,
                 out: list[Divergence]) -> None:
    checkpoints = [e for e in events if e.type == "CheckpointSigned"]
    if not checkpoints:
        return  # a log without them (an import): no need to load the signature code
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    state = result.state
    closed = {e.round: e.event_id for e in events if e.type == "RoundClosed"}
    for cp in checkpoints:
        subject = cp.event_id
        at_close = heads.get(closed.get(cp.round, ""))
        if at_close != cp.head:
            out.append(Divergence("checkpoint", cp.round, subject, f"signed chain head {cp.head[:12]}..., the log gives "
                                  f"{(at_close or 'no RoundClosed')[:12]}... at the round's close: an event up to it was "
                                  "changed, deleted or moved"))
        replayed = result.rounds.get(cp.round)
        if replayed is not None and replayed.digest != cp.standings_digest:
            out.append(Divergence("checkpoint", cp.round, subject, f"signed standings digest {cp.standings_digest[:12]}..., "
                                  f"the log's standings give {replayed.digest[:12]}..."))
        if cp.round in state.rounds and pairing_digest(state, cp.round) != cp.pairing_digest:
            out.append(Divergence("checkpoint", cp.round, subject, "the signed pairing digest is not the log's pairing"))
        if key is None or cp.public_key != key:
            out.append(Divergence("checkpoint", cp.round, subject, f"signed with key {cp.public_key[:12]}..., not the chief "
                                  f"arbiter's {(key or 'unknown')[:12]}..."))
            continue
        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
                bytes.fromhex(cp.signature), checkpoint_message(tid, cp.round, cp.head, cp.standings_digest, cp.pairing_digest))
        except InvalidSignature:
            out.append(Divergence("checkpoint", cp.round, subject, "the signature does not verify with the chief arbiter's key"))


def _standings(rnd: int, doc: dict[str, Any], replayed: Any, out: list[Divergence]) -> None:
    if replayed is None:
        out.append(Divergence("standings", rnd, "the table", "published, but the log has no such round"))
        return
    mine = {r["team_id"]: r for r in replayed.document["rows"]}
    theirs = {r["team_id"]: r for r in doc.get("rows", [])}
    found = False
    for team in sorted(set(mine) | set(theirs)):
        a, b = theirs.get(team), mine.get(team)
        if a is None or b is None:
            out.append(Divergence("standings", rnd, team, "in the log's standings only" if a is None else "published only"))
            found = True
            continue
        for key in ("rank", "mp", "gp"):
            if str(a.get(key)) != str(b.get(key)):
                out.append(Divergence("standings", rnd, team, f"{key}: published {a.get(key)}, the log gives {b.get(key)}"))
                found = True
        ta, tb = a.get("tiebreaks", {}), b.get("tiebreaks", {})
        for name in sorted(set(ta) | set(tb)):
            if str(ta.get(name)) != str(tb.get(name)):
                out.append(Divergence("standings", rnd, team, f"{name}: published {ta.get(name)}, the log gives {tb.get(name)}"))
                found = True
    if not found and doc.get("digest") not in (None, replayed.digest):
        out.append(Divergence("standings", rnd, "the table", f"published digest {str(doc.get('digest'))[:12]}..., the log's "
                              f"{replayed.digest[:12]}... (same values, another document)"))


def _tables(pairing: Any) -> dict[int, tuple[str, str]]:
    return {t.table: (t.home, t.away) for t in pairing.tables}


def _pairing(kind: str, rnd: int, tables: dict[int, tuple[str, str]], pairing: Any, out: list[Divergence]) -> None:
    if pairing is None:
        out.append(Divergence(kind, rnd, "the pairing", "published, but the log has no such round"))
        return
    mine = _tables(pairing)
    for table in sorted(set(mine) | set(tables)):
        if mine.get(table) != tables.get(table):
            a, b = tables.get(table), mine.get(table)
            out.append(Divergence(kind, rnd, f"table {table}", f"published {' v '.join(a) if a else 'nothing'}, the log "
                                  f"gives {' v '.join(b) if b else 'nothing'}"))


class _Proposals:
    """The engine's proposal of each round ``r`` with a published one, reproduced on the log as it
    stood before round ``r`` was paired (what the engine saw when it published), against the
    published tables. ``before`` is ``replay``'s hook (the state before each event), so one pass
    over the log serves the standings and every proposal."""

    def __init__(self, published: dict[int, dict[int, tuple[str, str]]]):
        self.published = published
        self.todo = sorted(published)
        self.found: dict[int, list[Divergence]] = {}

    def before(self, state: TournamentState, event: Any) -> None:
        """At the first ``RoundPaired`` of round ``r`` or later: the proposals of rounds up to ``r``."""
        if event.type == "RoundPaired":
            while self.todo and self.todo[0] <= event.round:
                rnd = self.todo.pop(0)
                self.found[rnd] = self._check(state, rnd)

    def finish(self, state: TournamentState) -> list[Divergence]:
        """The divergences of every round, in round order (rounds never paired: on the final state)."""
        for rnd in self.todo:
            self.found[rnd] = self._check(state, rnd)
        self.todo = []
        return [d for rnd in sorted(self.found) for d in self.found[rnd]]

    def _check(self, base: TournamentState, rnd: int) -> list[Divergence]:
        out: list[Divergence] = []
        if rnd - 1 > max(base.rounds, default=0):
            out.append(Divergence("proposal", rnd, "the engine", f"published a proposal; the log has not paired round {rnd - 1}"))
            return out
        if rnd > 1 and not base.round_complete(rnd - 1):
            return out  # published while the round was in progress: nothing to reproduce
        try:
            proposal = propose_round(base, rnd)
        except RuleViolation as exc:
            out.append(Divergence("proposal", rnd, "the engine", f"published a proposal; the log gives none ({exc})"))
            return out
        _pairing("proposal", rnd, self.published[rnd], proposal, out)
        return out


def trail(state: TournamentState) -> list[Action]:
    """Every arbiter action in the log, in log order: amended pairings, overridden absolute rules,
    corrections (late ones marked), forfeits, withdrawals, late entries, absences, closed rounds,
    a live feed's flags and problems (``projections.feed_trail``), with who, when and the reason."""
    out: list[Action] = []
    published_at: dict[int, int] = {}
    for i, e in enumerate(state.applied.values()):
        when = e.occurred_at.isoformat() if e.occurred_at else ""
        who = e.actor or "import"
        if e.type == "RoundPaired":
            published_at[e.round] = i
            if "overridden" in e.note or e.note.startswith("amended") or e.note.startswith("edited"):
                out.append(Action(when, who, e.round, "pairing published as amended", e.note))
        elif e.type == "PairingAmended":
            broken = f" (checker: {len(e.report)} finding(s))" if e.report else ""
            out.append(Action(when, who, e.round, f"pairing amended{broken}", e.reason))
        elif e.type == "BoardResultCorrected":
            late = e.round + 1 in published_at
            out.append(Action(when, who, e.round, f"{'late ' if late else ''}correction: table {e.table} board {e.board} "
                              f"-> {e.result}", e.reason))
        elif e.type == "BoardResultRecorded" and e.forfeit:
            out.append(Action(when, who, e.round, f"board forfeit: table {e.table} board {e.board} {e.result} ({e.forfeit})", e.note))
        elif e.type == "MatchForfeited":
            won = f"won by {e.winner}" if e.winner else "double forfeit"
            out.append(Action(when, who, e.round, f"match forfeit: table {e.table} {won} ({e.forfeit})", e.note))
        elif e.type == "TeamWithdrawn":
            out.append(Action(when, who, e.from_round, f"{e.team_id} withdrawn from round {e.from_round}", e.reason))
        elif e.type == "TeamRegistered" and state.entered.get(e.team_id, 1) > 1:
            out.append(Action(when, who, state.entered[e.team_id], f"late entry {e.team_id} from round "
                              f"{state.entered[e.team_id]}", ""))
        elif e.type == "AbsenceAnnounced":
            out.append(Action(when, who, e.round, f"{e.team_id} absent in round {e.round}", e.reason))
        elif e.type == "RoundClosed":
            out.append(Action(when, who, e.round, f"round {e.round} closed", ""))
        elif e.type in FEED_TRAIL:
            out.append(Action(when, who, e.round, *FEED_TRAIL[e.type](e)))
    return out
