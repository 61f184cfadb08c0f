"""The auditor: reproduce every round from a tournament's log, compare with what was published,
check the hash chain and the signed checkpoints against the anchors kept outside the log, list
the arbiter's actions.

``audit(tournament_id, records, published, trusted_key, anchors)`` takes the log as it was found
(``LogRecord``: the stored text of each event, the chain hash stored beside it if any, where it
was found), what was published (``Published``: standings documents and pairings per round, the
event ids a log file's chain file lists), the key the auditor pins and the anchors published
outside the log (``projections.anchors.Anchors``: the key and the signed checkpoints), and
returns an ``AuditReport``: one ``Divergence`` per disagreement, naming the round, the team or
the event and the values, what the audit was anchored to and what it could not check. The
sources (a file, an event store's database, Kafka topics, published anchors) are read by
``producers.audit_sources``; this module does no I/O.

What is checked:
- the hash chain (``schemas.chain``): each stored hash against the one the log's bytes give; the
  first event where they part is named (a changed, deleted or reordered event breaks it there).
  Where the hash before each event is stored too (the Kafka record headers), that event is
  named with what happened: its text changed, an event before it deleted, or it moved (with the
  event it was logged after); a record without hashes after chained ones is named too; a chain
  file that lists events after the log's last names a cut log;
- each ``CheckpointSigned`` of the log: its signed head (the log's length and chain hash as the
  round was closed, right before its ``RoundClosed``; version 1: the head through it), the chain
  of checkpoints (``previous``), its standings and pairing digests against the log's, its
  signature with the chief arbiter's key (the pinned one, the published one, else the log's
  ``TournamentCreated.chief_key``);
- the anchors: a log key other than the pinned or published one; each published checkpoint
  against the log's own of its round and its signed head against the log (a log shorter than
  a head it once had: "the log ends at event N; the published checkpoint of round R signed a
  head of M events");
- each round's standings (``projections.replay``) against the published document, value by value;
- each round's pairing against the published one (table by table), and the engine's proposal
  against a published proposal (reproduced in the same pass over the log as the standings).

The verdict (``AuditReport.exit_status``): a divergence (1); everything agrees and the audit was
anchored to a pinned key or published checkpoints (0); consistent but anchored to nothing outside
the log (3: whoever rewrites a whole log under a key of their own, or cuts it after its last
checkpoint, leaves a log consistent in itself).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from processors.rules import pairing_digest
from processors.tournament import RuleViolation, TournamentState
from projections.anchors import Anchors
from projections.feed_trail import FEED_TRAIL
from projections.pairing.proposal import propose_round
from projections.replay import replay
from schemas.chain import chain_next, chain_start, last_checkpoint_hash, signed_message
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
    ``{table: (home, away)}``, ``proposals[r]`` the engine's proposed tables, ``chained`` the
    event ids the chain file beside a log file lists (``projections.eventlog.chain_path``)."""

    standings: dict[int, dict[str, Any]] = field(default_factory=dict)
    pairings: dict[int, dict[int, tuple[str, str]]] = field(default_factory=dict)
    proposals: dict[int, dict[int, tuple[str, str]]] = field(default_factory=dict)
    chained: list[str] | None = None  # a log file's chain file: the event ids it lists, in order (None: no chain file)


@dataclass(frozen=True)
class Divergence:
    """One disagreement: ``kind`` (chain, checkpoint, key, anchor, standings, pairing, proposal), the round,
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


EXIT_AGREES, EXIT_DIVERGES, EXIT_UNANCHORED = 0, 1, 3
"""``olympiad audit``'s exit status: everything agrees with an anchor; a divergence; consistent
but anchored to nothing outside the log (2 is a source that cannot be read)."""


@dataclass
class AuditReport:
    """The audit of one tournament: the rounds reproduced, every divergence, the arbiter's actions,
    what it was anchored to outside the log (``anchored``) and what it could not check (``unchecked``)."""

    tournament_id: str
    events: int
    rounds: list[int]
    checkpoints: int
    divergences: list[Divergence]
    trail: list[Action]
    hashed: int = 0  # records found with a stored chain hash (the event store's column, Kafka's headers)
    anchored: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    compared: list[str] = field(default_factory=list)  # what beside the log's own bytes it was compared with

    def compared_line(self) -> str:
        """The audit's first line: what the log was compared with (its chain file or stored chain
        hashes, the pinned key, the published checkpoints, the published read models), or nothing."""
        with_ = ", ".join(self.compared) if self.compared else "nothing outside the log (no chain file, no --key, no --against)"
        return f"{self.tournament_id}: log compared with {with_}"

    def round_lines(self) -> list[str]:
        """One line per replayed round: ``round N reproduced``, or the number of its divergences."""
        count: dict[int | None, int] = {}
        for d in self.divergences:
            count[d.round] = count.get(d.round, 0) + 1
        return [f"round {r} reproduced" if not count.get(r) else f"round {r}: {count[r]} divergence(s)" for r in self.rounds]

    @property
    def ok(self) -> bool:
        """True when nothing diverges (anchored or not: see ``exit_status``)."""
        return not self.divergences

    @property
    def exit_status(self) -> int:
        """``EXIT_DIVERGES`` for a divergence, else ``EXIT_AGREES`` when anchored outside the log
        (a pinned key or published checkpoints), else ``EXIT_UNANCHORED``."""
        if self.divergences:
            return EXIT_DIVERGES
        return EXIT_AGREES if self.anchored else EXIT_UNANCHORED

    def verdict(self) -> str:
        """The audit's last line: everything agrees (with what), consistent but not anchored (and
        what was not checked), or the number of divergences."""
        if self.divergences:
            return f"audit: {len(self.divergences)} divergence(s)"
        if self.anchored:
            rest = f"; not checked: {'; '.join(self.unchecked)}" if self.unchecked else ""
            return f"audit: everything agrees, anchored to {' and '.join(self.anchored)}{rest}"
        return f"audit: consistent but not anchored (exit status {EXIT_UNANCHORED}); not checked: {'; '.join(self.unchecked)}"


def audit(tournament_id: str, records: list[LogRecord], published: Published | None = None,
          trusted_key: str | None = None, anchors: Anchors | None = None) -> AuditReport:
    """Audit the log ``records`` of ``tournament_id`` against ``published`` (see the module docstring).

    ``trusted_key``: the chief arbiter's public key (hex) the auditor pins (``--key``); ``anchors``:
    the key and the signed checkpoints published outside the log (``--against``). Without either
    the checkpoints are checked with the key the log itself records (``TournamentCreated.chief_key``)
    and the report is not anchored. Raises ``EventSchemaError`` for a record that is not an event.
    """
    published = published or Published()
    anchors = anchors or Anchors()
    out: list[Divergence] = []
    events, heads = _chain(tournament_id, records, out)
    if published.chained is not None:
        _chain_file(published.chained, events, out)
    proposals = _Proposals(published.proposals)
    result = replay(events, before=proposals.before)  # one pass: standings and proposals of every round
    state = result.state
    logged = state.created.chief_key if state.created else None
    key = trusted_key or anchors.key or logged
    for name, given in (("the pinned key", trusted_key), (f"the key published ({anchors.source})", anchors.key)):
        if given is not None and given != logged:
            out.append(Divergence("key", None, "TournamentCreated", f"the log's chief arbiter key {(logged or 'none')[:12]}... "
                                  f"is not {name} {given[:12]}...: the log was signed by another key (rewritten?)"))
    if trusted_key and anchors.key and trusted_key != anchors.key:
        out.append(Divergence("key", None, "the published key", f"{anchors.key[:12]}... is not the pinned key {trusted_key[:12]}..."))
    _checkpoints(tournament_id, events, heads, result, key, out)
    _published_checkpoints(tournament_id, events, heads, state, anchors, trusted_key or anchors.key, out)
    for rnd, doc in sorted(published.standings.items()):
        _standings(rnd, doc, result.rounds.get(rnd), out)
    for rnd, tables in sorted(published.pairings.items()):
        _pairing("pairing", rnd, tables, state.rounds.get(rnd), out)
    out.extend(proposals.finish(state))
    hashed = sum(1 for rec in records if rec.chain is not None)
    report = AuditReport(tournament_id, len(events), sorted(result.rounds), len(state.checkpoints), out, trail(state), hashed)
    _anchoring(report, trusted_key, anchors)
    report.compared = _compared(published, hashed, trusted_key, anchors)
    return report


def _compared(published: Published, hashed: int, trusted_key: str | None, anchors: Anchors) -> list[str]:
    """What the audit compared the log with, for ``AuditReport.compared_line``."""
    out = []
    if published.chained is not None:
        out.append("its chain file (LOG.chain)")
    elif hashed:
        out.append(f"the chain hashes stored with {hashed} record(s)")
    if trusted_key:
        out.append(f"the pinned key {trusted_key[:12]}...")
    if anchors.checkpoints or anchors.key:
        out.append(f"{len(anchors.checkpoints)} published checkpoint(s)" + (" and the published key" if anchors.key else "")
                   + f" ({anchors.source})")
    kinds = [(len(published.standings), "standings"), (len(published.pairings), "pairings"), (len(published.proposals), "proposals")]
    out += [f"{n} published {what}" for n, what in kinds if n]
    return out


def _anchoring(report: AuditReport, trusted_key: str | None, anchors: Anchors) -> None:
    """What ``report`` is anchored to outside the log, and what it could not check."""
    if trusted_key:
        report.anchored.append(f"the pinned key {trusted_key[:12]}...")
    if anchors.checkpoints or anchors.key:
        report.anchored.append(f"{len(anchors.checkpoints)} published checkpoint(s)"
                               + (" and the published key" if anchors.key else "") + f" ({anchors.source})")
    if not report.anchored:
        report.unchecked.append("the chief arbiter's key (no --key) and the published checkpoints (no --against): a log "
                                "cut after its last checkpoint, or rewritten whole and signed with another key, reads the same")
    elif not anchors.checkpoints:
        report.unchecked.append("the published checkpoints (no --against): a log cut after its last checkpoint reads the same")
    if report.hashed == 0 and report.events:
        report.unchecked.append("the log is unchained (no stored chain hash: a log file without its chain file "
                                "LOG.chain): an event changed, deleted or moved is found by the signed checkpoints alone")
    if not report.checkpoints and not anchors.checkpoints:
        report.unchecked.append("no signed checkpoint in the log: nothing proves that nobody rewrote it consistently")


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


def _chain_file(chained: list[str], events: list[Any], out: list[Divergence]) -> None:
    """A chain file that lists events the log ends before: the log was cut (a log longer than its
    chain file is named by ``_chain``: its last records carry no hash)."""
    if len(chained) > len(events):
        out.append(Divergence("chain", None, "the chain file", f"lists {len(chained)} events, the log ends at event {len(events)}: "
                              f"the events from {chained[len(events)]} on were cut from the log"))


def _checkpoints(tid: str, events: list[Any], heads: dict[str, str], result: Any, key: str | None,
                 out: list[Divergence]) -> None:
    """Each ``CheckpointSigned`` of the log against the log: its signed head (version 2: the log's
    first ``events`` events, right before its ``RoundClosed``; version 1: through the
    ``RoundClosed``), its digests, the chain of checkpoints (``previous``), its key and signature."""
    checkpoints = [e for e in events if e.type == "CheckpointSigned"]
    if not checkpoints:
        return  # a log without them (an import): no need to load the signature code
    state = result.state
    position = {e.event_id: i for i, e in enumerate(events)}
    closed = {e.round: e.event_id for e in events if e.type == "RoundClosed"}
    before: list[Any] = []
    for cp in checkpoints:
        subject = cp.event_id
        if cp.events is None:  # version 1: the head through the RoundClosed
            at_close = heads.get(closed.get(cp.round, ""))
            if at_close != cp.head:
                out.append(Divergence("checkpoint", cp.round, subject, f"signed chain head {cp.head[:12]}..., the log gives "
                                      f"{(at_close or 'no RoundClosed')[:12]}... at the round's close: an event up to it was "
                                      "changed, deleted or moved"))
        else:
            _signed_head(cp, events, heads, out)
            at = position.get(closed.get(cp.round, ""))
            if at is not None and at != cp.events:
                out.append(Divergence("checkpoint", cp.round, subject, f"signed a log of {cp.events} events as round {cp.round} "
                                      f"was closed; the log has {at} events before the round's RoundClosed"))
            if cp.previous != last_checkpoint_hash(tid, before):
                out.append(Divergence("checkpoint", cp.round, subject, "it is not chained to the checkpoint before it in the log "
                                      "(previous hash): a checkpoint before it was removed, changed or put in"))
        before.append(cp)
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
        if not _verifies(key, cp):
            out.append(Divergence("checkpoint", cp.round, subject, "the signature does not verify with the chief arbiter's key"))


def _signed_head(cp: Any, events: list[Any], heads: dict[str, str], out: list[Divergence], kind: str = "checkpoint") -> None:
    """A version 2 checkpoint's signed head against the log's first ``cp.events`` events (``kind``
    "checkpoint": the log's own, "anchor": a published copy): a log shorter than that is named
    with both lengths."""
    whose = "published " if kind == "anchor" else ""
    if cp.events > len(events):
        out.append(Divergence(kind, cp.round, cp.event_id, f"the log ends at event {len(events)}; the {whose}checkpoint "
                              f"of round {cp.round} signed a head of {cp.events} events: the log was cut"))
        return
    head = heads[events[cp.events - 1].event_id] if cp.events else chain_start(cp.tournament_id)
    if head != cp.head:
        out.append(Divergence(kind, cp.round, cp.event_id, f"{whose}signed chain head {cp.head[:12]}... over the first "
                              f"{cp.events} events; the log's give {head[:12]}...: an event up to it was changed, deleted "
                              "or moved"))


def _verifies(key: str, cp: Any) -> bool:
    """True when ``cp``'s signature verifies with ``key`` (hex)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(bytes.fromhex(cp.signature), signed_message(cp))
    except InvalidSignature:
        return False
    return True


def _published_checkpoints(tid: str, events: list[Any], heads: dict[str, str], state: TournamentState, anchors: Anchors,
                           key: str | None, out: list[Divergence]) -> None:
    """The checkpoints published outside the log (``anchors``) against the log: each must be the
    log's own checkpoint of its round, signed with the trusted key, chained to the one before it,
    and its signed head must be the log's (a log shorter than a head it once had is named)."""
    before: list[Any] = []
    for cp in anchors.checkpoints:
        subject = f"the published checkpoint of round {cp.round}"
        if key is not None and cp.public_key != key:
            out.append(Divergence("anchor", cp.round, subject, f"signed with key {cp.public_key[:12]}..., not the trusted "
                                  f"{key[:12]}..."))
        elif not _verifies(cp.public_key, cp):
            out.append(Divergence("anchor", cp.round, subject, "its signature does not verify: the copy was changed"))
        if cp.events is not None and cp.previous != last_checkpoint_hash(tid, before):
            out.append(Divergence("anchor", cp.round, subject, "it is not chained to the published checkpoint before it"))
        before.append(cp)
        mine = state.checkpoints.get(cp.round)
        if cp.events is not None:
            _signed_head(cp, events, heads, out, "anchor")
        if mine is None:
            if cp.events is None or cp.events <= len(events):
                out.append(Divergence("anchor", cp.round, subject, "not in the log: the log has no checkpoint of the round"))
        elif (signed_message(mine), mine.signature) != (signed_message(cp), cp.signature):
            out.append(Divergence("anchor", cp.round, subject, f"the log's checkpoint of the round ({mine.event_id}) is another "
                                  "one: it signs another head, digest or key"))


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
