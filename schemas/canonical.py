"""Canonical JSON and SHA-256 digests: the byte-exact form auditors compare.

Canonical form: UTF-8, keys sorted, no insignificant white space, points as decimal strings
(never floats), datetimes in ISO 8601. Two equal values always give the same bytes.
"""
from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from pydantic import BaseModel

from schemas.points import fmt_points


def _default(obj: Any) -> Any:
    if isinstance(obj, Decimal):
        return fmt_points(obj)
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"not canonical JSON: {type(obj).__name__}")


def canonical_json(value: Any) -> str:
    """Return the canonical JSON text of ``value`` (dicts, lists, models, Decimals)."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_none=False)
    if isinstance(value, float):
        raise TypeError("floats are not allowed in canonical JSON: use Decimal half-points")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)


def digest(value: Any) -> str:
    """SHA-256 hex digest of ``canonical_json(value)``."""
    return text_digest(canonical_json(value))


def text_digest(canonical: str) -> str:
    """SHA-256 hex digest of a canonical JSON text already at hand."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
