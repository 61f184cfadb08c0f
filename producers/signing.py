"""The chief arbiter's Ed25519 key and the checkpoints it signs (``schemas.chain``).

The key lives in a file of the chief arbiter's (PEM, PKCS#8, mode 600), never in the log: the
log holds its public half (``TournamentCreated.chief_key``) and, for each round closed by a
door holding the key, a ``CheckpointSigned``: the door reads the log as it stands (its length
and chain head), ``checkpoint_basis`` says what closing the round signs, ``signed_head`` signs
it, and the ``CloseRound`` command carries the signature, so that closing and signing are one
decision (``processors.deciders.rounds.close``). The file is ``$OLYMPIAD_KEY``, else
``<tournament>.chief.key`` in the current folder.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from processors.rules import CHECKPOINT_HEAD, missing_results, pairing_digest
from processors.violation import RuleViolation
from projections.event_rules import standings_digest
from schemas.chain import checkpoint_message, last_checkpoint_hash


def key_path(tournament_id: str) -> Path:
    """Where the chief arbiter's key of ``tournament_id`` is kept."""
    return Path(os.environ.get("OLYMPIAD_KEY") or f"{tournament_id}.chief.key")


def load_or_create_key(path: Path) -> Ed25519PrivateKey:
    """The key in ``path``; a new one written there (mode 600) if the file does not exist."""
    if path.exists():
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path}: not an Ed25519 private key")
        return key
    key = Ed25519PrivateKey.generate()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()))
    return key


def public_hex(key: Ed25519PrivateKey) -> str:
    """The public key as 64 hex digits (what ``TournamentCreated.chief_key`` holds)."""
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


def checkpoint_basis(rnd: int, state: Any, events: int, head: str | None) -> dict[str, Any] | None:
    """What closing round ``rnd`` signs, from the log's ``state`` as it stands, ``events`` events
    long with the chain ``head`` through them (``schemas.chain``; the three as a door's
    ``log_head`` gives them): ``{"round", "events", "head", "previous", "standings_digest",
    "pairing_digest", "chief_key"}``. None when there is nothing to sign: an empty log, a round
    closed already, not paired or still missing a result (the decider then says why), or a
    tournament without a key."""
    if head is None or rnd in state.closed or rnd not in state.rounds or state.created is None or state.created.chief_key is None:
        return None
    try:
        missing_results(state, rnd)
    except RuleViolation:
        return None
    return {"round": rnd, "events": events, "head": head,
            "previous": last_checkpoint_hash(state.created.tournament_id, list(state.checkpoints.values())),
            "standings_digest": standings_digest(state, rnd), "pairing_digest": pairing_digest(state, rnd),
            "chief_key": state.created.chief_key}


def signed_head(tournament_id: str, basis: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """The ``checkpoint`` of a ``CloseRound`` command (``schemas.commands.SignedHead``): ``basis``
    as ``checkpoint_basis`` gives it, signed over ``schemas.chain.checkpoint_message``."""
    message = checkpoint_message(tournament_id, basis["round"], basis["head"], basis["standings_digest"],
                                 basis["pairing_digest"], basis["events"], basis["previous"])
    return {"events": basis["events"], "head": basis["head"], "previous": basis["previous"], "public_key": public_hex(key),
            "signature": key.sign(message).hex()}


class ChiefKey:
    """The chief arbiter's key as a door that creates tournaments and closes rounds holds it
    (``olympiad serve``): ``path`` the key file given (``--key``, else ``$OLYMPIAD_KEY``), or
    None: ``<tournament>.chief.key`` in the current folder, as ``olympiad new`` writes it."""

    def __init__(self, path: Path | None = None):
        self.path = path

    def path_for(self, tournament_id: str) -> Path:
        """The key file of ``tournament_id``."""
        return self.path or key_path(tournament_id)

    def public_key(self, tournament_id: str) -> str:
        """The public half (64 hex digits) of the key of a tournament being created, the key made
        and written (mode 600) if its file does not exist. Raises ``OSError``/``ValueError`` for a
        file that cannot be read or written, or that holds no Ed25519 key."""
        return public_hex(load_or_create_key(self.path_for(tournament_id)))

    def sign(self, tournament_id: str, basis: dict[str, Any] | None) -> dict[str, Any] | None:
        """The ``checkpoint`` of the ``CloseRound`` command closing ``basis["round"]`` (``basis``
        as ``checkpoint_basis`` gives it; None: nothing to sign), or None when this door has no key
        file for the tournament (never made here: the tournament's key was made elsewhere).
        Raises ``ValueError`` when the file holds another key than the one recorded at the creation."""
        path = self.path_for(tournament_id)
        if basis is None or not path.exists():
            return None
        key = load_or_create_key(path)
        if public_hex(key) != basis["chief_key"]:
            raise ValueError(f"the key in {path} is not the one recorded when the tournament was created")
        return signed_head(tournament_id, basis, key)


SIGN_ATTEMPTS = 3
"""How often ``close_signed`` signs the log again when it moved on before the decision."""


def close_signed(tournament_id: str, rnd: int, signer: ChiefKey | None, basis: Callable[[], dict[str, Any] | None],
                 decide: Callable[[dict[str, Any] | None], Any]) -> Any:
    """Close round ``rnd`` by one ``CloseRound`` command that carries the chief arbiter's
    signature of the log as it stands (``basis()``: ``checkpoint_basis`` of the log read now, by
    the door), so that the round is closed and signed in one decision; the signature is None when
    ``signer`` is None or has no key file for the tournament. ``decide(checkpoint)`` submits the
    command and returns the ``Outcome``; a refusal under ``CHECKPOINT_HEAD`` (the log moved on
    between the reading and the decision) is signed again, up to ``SIGN_ATTEMPTS`` times. Used by
    ``olympiad round close`` and the web app. Raises ``OSError``/``ValueError`` for a key file that
    cannot be read or holds another key than the tournament's (nothing is then submitted)."""
    keyed = signer if signer is not None and signer.path_for(tournament_id).exists() else None
    outcome = None
    for _ in range(SIGN_ATTEMPTS):
        outcome = decide(keyed.sign(tournament_id, basis()) if keyed else None)
        if outcome.accepted or outcome.rule != CHECKPOINT_HEAD:
            break
    return outcome
