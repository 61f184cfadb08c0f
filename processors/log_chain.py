"""The hash chain of each tournament's ``tournament-log`` as the processors append it.

Every record the processors write to ``tournament-log`` carries, in its Kafka headers
(``schemas.chain.CHAIN_HEADER``, ``PREV_HEADER``), the chain hash through its event and the
hash before it (``schemas.chain``: ``h_i = chain_next(h_{i-1}, body_i)`` over the record values
of the tournament's accepted events, first copies only, in log order: what an auditor and the
Kafka door's ``checkpoint_basis`` recompute from the topic). A redelivered copy re-appended to
the log carries the hashes of its first copy, so the chain read from the topic does not depend on
how often an event was appended. With both hashes a record can be checked on its own (its value
against its hashes) and against the record before it, so an auditor names the very event where
a copy of the topic was changed, cut or reordered.

Pure bookkeeping, no I/O: ``processors.judge.Judge`` feeds it the events it accepts, and on a
rebuild (a restart, a rebalance) the events of its store in acceptance order.
"""
from __future__ import annotations

from schemas.chain import CHAIN_HEADER, PREV_HEADER, chain_next, chain_start


class LogChain:
    """Per tournament: the chain head and ``event id -> (previous hash, hash)`` of every event
    appended so far (hex SHA-256)."""

    def __init__(self) -> None:
        self.heads: dict[str, str] = {}
        self.links: dict[str, dict[str, tuple[str, str]]] = {}

    def forget(self, tournament_id: str | None = None) -> None:
        """Drop one tournament's chain (it is about to be rebuilt), or every one (None)."""
        if tournament_id is None:
            self.heads.clear()
            self.links.clear()
        else:
            self.heads.pop(tournament_id, None)
            self.links.pop(tournament_id, None)

    def add(self, tournament_id: str, event_id: str, body: str) -> tuple[str, str]:
        """Chain the accepted event ``event_id`` whose record value is ``body`` (its canonical
        JSON); returns ``(previous hash, hash)``. An id already chained keeps its first link."""
        links = self.links.setdefault(tournament_id, {})
        link = links.get(event_id)
        if link is None:
            prev = self.heads.get(tournament_id) or chain_start(tournament_id)
            link = links[event_id] = (prev, chain_next(prev, body))
            self.heads[tournament_id] = link[1]
        return link

    def headers(self, tournament_id: str, event_id: str) -> list[tuple[str, bytes]]:
        """The Kafka record headers of the ``tournament-log`` record of ``event_id``; none for an
        event this chain does not hold (a stored event a rebuild could not apply)."""
        link = self.links.get(tournament_id, {}).get(event_id)
        if link is None:
            return []
        return [(CHAIN_HEADER, link[1].encode()), (PREV_HEADER, link[0].encode())]
