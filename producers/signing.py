"""The chief arbiter's Ed25519 key and the checkpoints it signs (``schemas.chain``).

The key lives in a file of the chief arbiter's (PEM, PKCS#8, mode 600), never in the log: the
log holds its public half (``TournamentCreated.chief_key``) and, for each closed round, a
``CheckpointSigned`` made by ``checkpoint_command``. The file is ``$OLYMPIAD_KEY``, else
``<tournament>.chief.key`` in the current folder.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from processors.rules import pairing_digest
from schemas.chain import checkpoint_message


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


def checkpoint_basis(state: Any, rnd: int, head: str) -> dict[str, Any]:
    """What the checkpoint of closed round ``rnd`` signs, from the log's ``state`` and its chain
    ``head`` through the round's ``RoundClosed``: ``{"head", "standings_digest", "pairing_digest",
    "chief_key"}``."""
    return {"head": head, "standings_digest": state.closed[rnd], "pairing_digest": pairing_digest(state, rnd),
            "chief_key": state.created.chief_key}


def checkpoint_command(tournament_id: str, rnd: int, basis: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """The fields of the ``SignCheckpoint`` command of closed round ``rnd`` (``basis`` as
    ``checkpoint_basis`` gives it): the signature over ``schemas.chain.checkpoint_message``."""
    message = checkpoint_message(tournament_id, rnd, basis["head"], basis["standings_digest"], basis["pairing_digest"])
    return {"round": rnd, "head": basis["head"], "public_key": public_hex(key), "signature": key.sign(message).hex()}


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

    def checkpoint(self, tournament_id: str, rnd: int, basis: dict[str, Any] | None) -> dict[str, Any] | None:
        """The ``SignCheckpoint`` fields of closed round ``rnd`` (``basis`` as ``checkpoint_basis``
        gives it; None: nothing to sign), or None when this door has no key file for the
        tournament (never made here: the tournament's key was made elsewhere). Raises
        ``ValueError`` when the file holds another key than the one recorded at the creation."""
        path = self.path_for(tournament_id)
        if basis is None or not path.exists():
            return None
        key = load_or_create_key(path)
        if public_hex(key) != basis["chief_key"]:
            raise ValueError(f"the key in {path} is not the one recorded when the tournament was created")
        return checkpoint_command(tournament_id, rnd, basis, key)
