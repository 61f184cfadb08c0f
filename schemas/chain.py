"""The hash chain of a tournament's log and the message a checkpoint signs.

Each accepted event is stored with the hash of the log before it: ``h_0 = chain_start(T)``,
``h_i = chain_next(h_{i-1}, body_i)`` where ``body_i`` is the event's stored text (its canonical
JSON as written: the event store's ``body`` column, a ``tournament-log`` record, a line of an
event log file). Changing, deleting or reordering one event changes every later hash, so an
auditor names the first event where the stored or signed hashes stop agreeing (as transparency
logs do: Certificate Transparency, Sigstore Rekor). A checkpoint (``CheckpointSigned``, at each
closed round) holds the chain head, the standings digest and the pairing digest, signed with the
chief arbiter's Ed25519 key.
"""
from __future__ import annotations

import hashlib

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


def checkpoint_message(tournament_id: str, rnd: int, head: str, standings_digest: str, pairing_digest: str) -> bytes:
    """The bytes a round's checkpoint signs."""
    return f"olympiad-events checkpoint\n{tournament_id}\n{rnd}\n{head}\n{standings_digest}\n{pairing_digest}".encode()
