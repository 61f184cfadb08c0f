"""The dead-letter envelope: what ``dead-letters`` holds for a refused or unprojectable message.

One JSON object per refused message: where it came from (``topic``, ``partition``, ``offset``),
its ``key`` and ``value`` (as text), the ``field`` and the ``rule`` it broke and the ``reason``.
A message over ``MAX_COPY_BYTES`` is kept as its first ``MAX_COPY_BYTES`` (``truncated`` true);
``value_bytes`` and ``value_sha256`` always name the whole message. An envelope therefore stays
within some 25 kB whatever was refused, well inside the broker's 1 MB record limit: a dead letter
that does not fit is lost, with the message it was about.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

MAX_COPY_BYTES = 16 * 1024  # of a refused message's value kept in its dead letter
MAX_KEY_BYTES = 1024
MAX_REASON_CHARS = 2000  # of a reason (a schema error quotes the offending input)
MAX_NAME_CHARS = 200  # of a field or rule name


def dead_letter(origin: dict[str, Any], key: bytes | None, value: bytes | None, field: str, rule: str, reason: str) -> bytes:
    """The dead-letter envelope (JSON bytes, at most some 25 kB) of one refused message.

    ``origin``: ``{"topic", "partition", "offset"}`` of the message (any extra keys are kept).
    """
    whole = value if value is not None else b""
    copy = whole[:MAX_COPY_BYTES]
    return json.dumps({
        **origin,
        "key": key[:MAX_KEY_BYTES].decode("utf-8", "replace") if key is not None else None,
        "value": copy.decode("utf-8", "replace") if value is not None else None,
        "truncated": len(whole) > len(copy),
        "value_bytes": len(whole),
        "value_sha256": hashlib.sha256(whole).hexdigest(),
        "field": str(field)[:MAX_NAME_CHARS], "rule": str(rule)[:MAX_NAME_CHARS], "reason": str(reason)[:MAX_REASON_CHARS],
    }, sort_keys=True).encode()
