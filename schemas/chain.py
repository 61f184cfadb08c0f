"""The hash chain of a tournament's log and the message a checkpoint signs.

Each accepted event is stored with the hash of the log before it: ``h_0 = chain_start(T)``,
``h_i = chain_next(h_{i-1}, body_i)`` where ``body_i`` is the event's stored text (its canonical
JSON as written: the event store's ``body`` column, a ``tournament-log`` record, a line of an
event log file). Changing, deleting or reordering one event changes every later hash, so an
auditor names the first event where the stored or signed hashes stop agreeing (as transparency
logs do: Certificate Transparency, Sigstore Rekor). A checkpoint (``CheckpointSigned``, made
with each closed round's ``RoundClosed`` by one decision) holds the log's head as the round was
closed (its event count and chain hash), the standings digest, the pairing digest and the hash
of the checkpoint before it (``checkpoint_hash``: the checkpoints form a chain of their own),
signed with the chief arbiter's Ed25519 key. Copies of the checkpoints kept outside the log (the
scoreboard's API, the standings topic, a TRF export) anchor an audit: a log shorter than a head
it once had, or rewritten under another key, no longer agrees with them.
"""
from __future__ import annotations

import hashlib
from typing import Any

# The Kafka record headers of a ``tournament-log`` record: the chain hash through its event and
# the hash before it (hex SHA-256, ASCII), written by the processors, verified by the auditor.
CHAIN_HEADER = "chain"
PREV_HEADER = "chain-prev"


def chain_start(tournament_id: str) -> str:
    """The hash before a tournament's first event (hex SHA-256)."""
    return hashlib.sha256(f"olympiad-events chain\n{tournament_id}".encode()).hexdigest()


def chain_next(prev: str, body: str) -> str:
    """The hash of the log through the event stored as ``body``, after ``prev`` (hex SHA-256)."""
    return hashlib.sha256(f"{prev}\n{body}".encode("utf-8", "surrogatepass")).hexdigest()


def chain_of(tournament_id: str, bodies: list[str]) -> list[str]:
    """The hash after each of ``bodies`` (a tournament's log in order)."""
    out, head = [], chain_start(tournament_id)
    for body in bodies:
        head = chain_next(head, body)
        out.append(head)
    return out


def checkpoint_message(tournament_id: str, rnd: int, head: str, standings_digest: str, pairing_digest: str,
                       events: int | None = None, previous: str | None = None) -> bytes:
    """The bytes a round's checkpoint signs: the log's ``head`` through its first ``events``
    events (the log as the round was closed), the digests, and ``previous`` (``checkpoint_hash``
    of the checkpoint before it, ``checkpoints_start`` for the first). ``events`` None: a version 1
    checkpoint (head, digests only)."""
    v1 = f"olympiad-events checkpoint\n{tournament_id}\n{rnd}\n{head}\n{standings_digest}\n{pairing_digest}"
    return (v1 if events is None else f"{v1}\n{events}\n{previous}").encode()


def checkpoints_start(tournament_id: str) -> str:
    """The ``previous`` of a tournament's first checkpoint (hex SHA-256)."""
    return hashlib.sha256(f"olympiad-events checkpoints\n{tournament_id}".encode()).hexdigest()


def checkpoint_hash(message: bytes, signature: str) -> str:
    """The hash of a signed checkpoint (its ``checkpoint_message`` and its hex ``signature``): the
    ``previous`` of the next checkpoint (hex SHA-256)."""
    return hashlib.sha256(message + b"\n" + signature.encode()).hexdigest()


def signed_message(checkpoint: object) -> bytes:
    """The ``checkpoint_message`` a ``CheckpointSigned`` event (or any object with its fields) signs."""
    c: Any = checkpoint
    return checkpoint_message(c.tournament_id, c.round, c.head, c.standings_digest, c.pairing_digest, c.events, c.previous)


def last_checkpoint_hash(tournament_id: str, checkpoints: list[Any]) -> str:
    """The ``previous`` of the next checkpoint of ``tournament_id`` after ``checkpoints`` (its
    ``CheckpointSigned`` events in log order): the hash of the last, ``checkpoints_start`` if none."""
    if not checkpoints:
        return checkpoints_start(tournament_id)
    return checkpoint_hash(signed_message(checkpoints[-1]), checkpoints[-1].signature)
