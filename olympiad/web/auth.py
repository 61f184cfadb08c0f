"""Terminal tokens: who may write results, and for which tables; captains' tokens.

The chief arbiter holds a token scoped to the whole tournament; with it they issue one token per
result-entry terminal, scoped to a set of table numbers (any round) or to the whole tournament,
one token per team captain (scoped to the team), and revoke tokens. A token only says who asks
(``Terminal.actor``): what that actor may do is the command's role rule
(``processors.deciders.roles``), the same at every door. Only a SHA-256 of each token is stored (table ``terminal_tokens`` in the given
database), so a leaked database does not leak tokens. Reading is public; only writes are checked.

Refusals raise ``Refused(status, message, field)``: 401 for a missing, unknown or revoked token, 403
for a valid token used outside its scope; ``field`` is what the refusal is about (the
``Authorization`` header, or the ``table`` outside a terminal's scope). The messages say what to do.
"""
from __future__ import annotations

import hashlib
import json
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from sqlalchemy import Boolean, Column, MetaData, String, Table, Text, delete, insert, inspect, select, text, update
from sqlalchemy.engine import Engine

CHIEF_TERMINAL = "chief-arbiter"
MIN_TOKEN_BITS = 128
TOKEN_RULE = "a chief token holds at least 128 bits: 22 URL-safe base64 or 32 hex characters, 8 different at least"
_ALPHABETS = (("0123456789", 10), ("0123456789abcdef", 16), ("0123456789ABCDEF", 16),
              ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 64),
              ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", 64))

_metadata = MetaData()
tokens_table = Table(
    "terminal_tokens",
    _metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("tournament_id", String(100), nullable=False, index=True),
    Column("terminal_id", String(60), nullable=False),
    Column("tables", Text),  # JSON list of table numbers; NULL = the whole tournament
    Column("chief", Boolean, nullable=False),
    Column("revoked", Boolean, nullable=False),
    Column("issued_at", String(40), nullable=False),
    Column("team", String(40)),  # a captain's team; NULL for terminals and the chief arbiter
)
NEW_EVENT = "(new)"
"""The tournament id of the setup token (``olympiad serve --new``), while no tournament exists yet."""
CAPTAIN_PREFIX = "captain-"
"""A captain's token is held by terminal id ``captain-<team id>`` (one live token per team)."""


class Refused(Exception):
    """A write refused by the token check: ``status`` 401 (who are you?) or 403 (not yours), about
    ``field`` (the request's ``Authorization`` header unless a table is outside the scope)."""

    def __init__(self, status: int, message: str, field: str = "Authorization"):
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Terminal:
    """A token's holder: ``tables`` None means every table of ``tournament_id``."""

    terminal_id: str
    tournament_id: str
    tables: frozenset[int] | None
    chief: bool
    issued_at: str
    team: str | None = None

    def actor(self, table: int | None = None) -> dict:
        """The command's ``actor`` (``schemas.commands.Actor`` fields) for this holder: the chief
        arbiter; a captain of ``team``; a token for every table is an arbiter's (results, forfeits,
        line-ups of any table); else a terminal, of ``table`` when the command names one."""
        if self.chief:
            return {"role": "chief", "id": "chief"}
        if self.team is not None:
            return {"role": "captain", "id": self.terminal_id, "team": self.team}
        if self.tables is None:
            return {"role": "arbiter", "id": self.terminal_id}
        return {"role": "terminal", "id": self.terminal_id, **({"table": table} if table is not None else {})}

    def scope_text(self) -> str:
        if self.team is not None:
            return f"team {self.team}"
        if self.tables is None:
            return "every table"
        return "table" + ("s " if len(self.tables) > 1 else " ") + ", ".join(str(t) for t in sorted(self.tables))


def token_bits(token: str) -> float:
    """The bits a token holds at most: its length times log2 of the smallest usual alphabet (digits,
    hex, base64) that holds every one of its characters (0 for other characters)."""
    for alphabet, size in _ALPHABETS:
        if set(token) <= set(alphabet):
            return len(token) * math.log2(size)
    return 0.0


def check_chief_token(token: str) -> None:
    """Refuse a chief token given by the operator that is guessable (``TOKEN_RULE``): fewer than
    ``MIN_TOKEN_BITS`` bits by ``token_bits``, or fewer than 8 different characters.
    Raises ``ValueError`` naming the rule; ``secrets.token_urlsafe(16)`` and ``openssl rand -hex 16`` pass."""
    if token_bits(token) < MIN_TOKEN_BITS or len(set(token)) < 8:
        raise ValueError(f"chief token of {len(token)} characters holds {token_bits(token):.0f} bits at most "
                         f"[rule: {TOKEN_RULE}]")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header value, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class TokenStore:
    """Issued terminal tokens of the tournaments served, kept in an SQL database."""

    def __init__(self, engine: Engine):
        self.engine = engine
        _metadata.create_all(engine)
        self._add_team_column()

    def set_chief_token(self, tournament_id: str, token: str | None = None, issued_at: str | None = None) -> str:
        """Make ``token`` (or a fresh random one) the chief arbiter's token of ``tournament_id``;
        an earlier chief token stops working. Returns the token. ``issued_at`` (ISO 8601): when, as
        the caller's clock says (default: now, UTC).
        Raises ``ValueError`` for a given token weaker than ``TOKEN_RULE``."""
        if token is not None:
            check_chief_token(token)
        token = token or secrets.token_urlsafe(24)
        with self.engine.begin() as conn:
            conn.execute(delete(tokens_table).where(
                (tokens_table.c.tournament_id == tournament_id) & (tokens_table.c.terminal_id == CHIEF_TERMINAL)))
            conn.execute(insert(tokens_table), self._row(token, tournament_id, CHIEF_TERMINAL, None, chief=True,
                                                        issued_at=issued_at))
        return token

    def issue(self, tournament_id: str, terminal_id: str, tables: list[int] | None, issued_at: str | None = None) -> str:
        """A new token for ``terminal_id`` scoped to ``tables`` (None: the whole tournament), issued
        at ``issued_at`` (as ``set_chief_token``).

        A terminal holds one token at a time: issuing again revokes its earlier tokens.
        Raises ``ValueError`` for the reserved chief terminal id or an empty table list.
        """
        if terminal_id == CHIEF_TERMINAL:
            raise ValueError(f"{CHIEF_TERMINAL!r} is reserved for the chief arbiter's own token")
        if tables is not None and not tables:
            raise ValueError("a terminal needs at least one table (or no list: the whole tournament)")
        token = secrets.token_urlsafe(24)
        with self.engine.begin() as conn:
            self._revoke(conn, tournament_id, terminal_id)
            conn.execute(insert(tokens_table), self._row(token, tournament_id, terminal_id, tables, chief=False,
                                                        issued_at=issued_at))
        return token

    def issue_captain(self, tournament_id: str, team_id: str, issued_at: str | None = None) -> tuple[str, str]:
        """A new token for the captain of ``team_id`` (terminal id ``captain-<team id>``), issued at
        ``issued_at`` (as ``set_chief_token``): it asks as role ``captain`` of that team; the team's
        earlier captain token stops working.
        Returns (terminal id, token). Whether the team exists is the command's rule, not this one's."""
        terminal_id = f"{CAPTAIN_PREFIX}{team_id}"
        token = secrets.token_urlsafe(24)
        with self.engine.begin() as conn:
            self._revoke(conn, tournament_id, terminal_id)
            conn.execute(insert(tokens_table), self._row(token, tournament_id, terminal_id, None, chief=False, team=team_id,
                                                        issued_at=issued_at))
        return terminal_id, token

    def revoke(self, tournament_id: str, terminal_id: str) -> int:
        """Revoke every token of ``terminal_id``; returns how many were live."""
        with self.engine.begin() as conn:
            return self._revoke(conn, tournament_id, terminal_id)

    def terminals(self, tournament_id: str) -> list[tuple[Terminal, bool]]:
        """Every issued token's holder (never the token) with its ``revoked`` flag, oldest first
        (tokens issued at the same time by terminal id)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(tokens_table).where(tokens_table.c.tournament_id == tournament_id)
                                .order_by(tokens_table.c.issued_at, tokens_table.c.terminal_id)).all()
        return [(self._terminal(r), r.revoked) for r in rows]

    def authorize(self, token: str | None, tournament_id: str, table: int) -> Terminal:
        """The terminal allowed to write to ``table`` of ``tournament_id`` with ``token``.
        Raises ``Refused`` (401/403) otherwise."""
        terminal = self.holder(token, tournament_id)
        if terminal.team is None and terminal.tables is not None and table not in terminal.tables:
            raise Refused(403, f"terminal {terminal.terminal_id!r} may enter results for {terminal.scope_text()} "
                               f"only; table {table} is outside its scope", field="table")
        return terminal

    def authorize_chief(self, token: str | None, tournament_id: str) -> Terminal:
        """The chief arbiter, for issuing and revoking tokens. Raises ``Refused`` (401/403) otherwise."""
        terminal = self.holder(token, tournament_id)
        if not terminal.chief:
            raise Refused(403, f"terminal {terminal.terminal_id!r} is not the chief arbiter: only the chief "
                               "arbiter's token issues and revokes terminal tokens")
        return terminal

    def holder(self, token: str | None, tournament_id: str) -> Terminal:
        """The holder of ``token`` for ``tournament_id``. Raises ``Refused`` (401/403) for none."""
        if token is None:
            raise Refused(401, "no terminal token: writes need 'Authorization: Bearer <token>' with a token "
                               "issued by the chief arbiter (reading is public)")
        with self.engine.connect() as conn:
            row = conn.execute(select(tokens_table).where(tokens_table.c.token_sha256 == _hash(token))).first()
        if row is None or row.revoked:
            raise Refused(401, "unknown or revoked terminal token: ask the chief arbiter for a token for this terminal")
        terminal = self._terminal(row)
        if terminal.tournament_id != tournament_id:
            raise Refused(403, f"terminal {terminal.terminal_id!r} is registered for tournament "
                               f"{terminal.tournament_id!r}, not {tournament_id!r}")
        return terminal

    # ------------------------------------------------------------------ rows
    @staticmethod
    def _row(token: str, tournament_id: str, terminal_id: str, tables: list[int] | None, *, chief: bool,
             team: str | None = None, issued_at: str | None = None) -> dict:
        return {"team": team,
            "token_sha256": _hash(token), "tournament_id": tournament_id, "terminal_id": terminal_id,
            "tables": None if tables is None else json.dumps(sorted(set(tables))), "chief": chief, "revoked": False,
            "issued_at": issued_at or datetime.now(timezone.utc).isoformat(timespec="microseconds"),
        }

    @staticmethod
    def _terminal(row) -> Terminal:
        tables = None if row.tables is None else frozenset(json.loads(row.tables))
        return Terminal(row.terminal_id, row.tournament_id, tables, row.chief, row.issued_at, row.team)

    def _add_team_column(self) -> None:
        """A token table made before captains' tokens existed gets the ``team`` column."""
        if "team" not in {c["name"] for c in inspect(self.engine).get_columns("terminal_tokens")}:
            with self.engine.begin() as conn:
                conn.execute(text("ALTER TABLE terminal_tokens ADD COLUMN team VARCHAR(40)"))

    @staticmethod
    def _revoke(conn, tournament_id: str, terminal_id: str) -> int:
        res = conn.execute(update(tokens_table).where(
            (tokens_table.c.tournament_id == tournament_id) & (tokens_table.c.terminal_id == terminal_id)
            & (tokens_table.c.revoked == False)  # noqa: E712 (SQL expression)
        ).values(revoked=True))
        return res.rowcount
