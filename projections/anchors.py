"""The anchors of an audit: the tournament's public key and its signed checkpoints, as published
outside the log, where others keep copies (transparency logs anchor their proofs the same way in
signed heads that others hold: Certificate Transparency, Sigstore Rekor).

One document, ``anchors_document(state)``: ``{"tournament_id", "chief_key", "checkpoints": [...]}``
with each ``CheckpointSigned`` as its JSON (round, events, head, previous, digests, public key,
signature). The scoreboard serves it at ``/api/tournaments/{tid}/checkpoints``, the projection
worker publishes it on the ``standings`` topic (key ``{tid}/checkpoints``), ``olympiad
export-trf`` writes it in ``### olympiad-events anchors`` comment lines (``trf_lines``);
``olympiad audit --against`` reads a copy back (``parse_anchors``, ``anchors_from_trf``) and
``projections.audit`` checks the log against it. Pure: no I/O.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from schemas.events import EventSchemaError, parse_event

TRF_ANCHORS = "### olympiad-events anchors "
"""The prefix of the TRF comment lines that hold the anchors document (one JSON line)."""


@dataclass
class Anchors:
    """What an auditor holds outside the log: ``key`` the chief arbiter's public key (hex) it
    trusts, ``checkpoints`` the published ``CheckpointSigned`` events in round order, ``source``
    where they came from (a URL, a file, a topic), ``pinned`` True when the key was given by
    the auditor (``--key``), not read with the checkpoints."""

    key: str | None = None
    checkpoints: list[Any] = field(default_factory=list)
    source: str = ""
    pinned: bool = False

    @property
    def given(self) -> bool:
        """True when there is anything to anchor to (a key, or checkpoints)."""
        return self.key is not None or bool(self.checkpoints)


def anchors_document(state: Any) -> dict[str, Any]:
    """The published anchors of a tournament's ``state``: its id, its chief arbiter's public key
    (None: the tournament has none), every signed checkpoint in round order, as JSON."""
    created = state.created
    return {"tournament_id": created.tournament_id if created else None,
            "chief_key": created.chief_key if created else None,
            "checkpoints": [state.checkpoints[r].model_dump(mode="json") for r in sorted(state.checkpoints)]}


def parse_anchors(doc: Any, source: str, tournament_id: str | None = None) -> Anchors:
    """The ``Anchors`` of a published ``anchors_document`` (a copy: from a URL, a file, a topic).
    Raises ``ValueError`` naming ``source`` for a document that is not one, or that is another
    tournament's (``tournament_id`` given)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("checkpoints"), list):
        raise ValueError(f"{source}: not the published checkpoints of a tournament "
                         "(a JSON object with chief_key and checkpoints, as /api/tournaments/T/checkpoints serves)")
    if tournament_id is not None and doc.get("tournament_id") not in (None, tournament_id):
        raise ValueError(f"{source}: the checkpoints of tournament {doc.get('tournament_id')!r}, not {tournament_id!r}")
    checkpoints = []
    for i, raw in enumerate(doc["checkpoints"], start=1):
        try:
            event = parse_event(raw)
        except EventSchemaError as exc:
            raise ValueError(f"{source}: checkpoint {i}: {exc.message}") from None
        if event.type != "CheckpointSigned":
            raise ValueError(f"{source}: checkpoint {i} is a {event.type}, not a CheckpointSigned")
        checkpoints.append(event)
    key = doc.get("chief_key")
    return Anchors(None if key is None else public_key(key, f"{source}: chief_key"),
                   sorted(checkpoints, key=lambda e: e.round), source)


PUBLIC_KEY = re.compile(r"[0-9a-f]{64}")
PUBLIC_KEY_RULE = "an Ed25519 public key is 64 hex digits, as TournamentCreated.chief_key holds it"


def public_key(text: Any, where: str) -> str:
    """``text`` as an Ed25519 public key: 64 lower-case hex digits (case and surrounding spaces
    are forgiven). Raises ``ValueError`` naming ``where`` and the rule for anything else (a
    shortened key, a typo), so that a key that cannot be one is refused, not read as a divergence."""
    key = text.strip().lower() if isinstance(text, str) else ""
    if not PUBLIC_KEY.fullmatch(key):
        raise ValueError(f"{where}: {str(text)[:24]!r} is not a public key [rule: {PUBLIC_KEY_RULE}]")
    return key


def trf_lines(state: Any) -> list[str]:
    """The TRF comment line holding the anchors document (none before the tournament exists)."""
    if state.created is None:
        return []
    return [TRF_ANCHORS + json.dumps(anchors_document(state), sort_keys=True, separators=(",", ":"), ensure_ascii=True)]


def anchors_from_trf(text: str, source: str, tournament_id: str | None = None) -> Anchors:
    """The ``Anchors`` in a TRF export's comment lines (``trf_lines``). Raises ``ValueError``
    when the file holds none."""
    for line in text.splitlines():
        if line.startswith(TRF_ANCHORS):
            try:
                doc = json.loads(line[len(TRF_ANCHORS):])
            except ValueError:
                raise ValueError(f"{source}: the anchors line is not JSON") from None
            return parse_anchors(doc, source, tournament_id)
    raise ValueError(f"{source}: no '{TRF_ANCHORS.strip()}' line (a TRF export of olympiad export-trf holds one)")


ANCHORS_SUFFIX = b"/checkpoints"
"""How the key of an anchors record on ``standings`` ends (the readers of standings skip it)."""


def anchors_key(tournament_id: str) -> bytes:
    """The key of the anchors document on the ``standings`` topic (compacted: the latest stays)."""
    return tournament_id.encode() + ANCHORS_SUFFIX
