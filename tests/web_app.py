"""The web app over an in-memory embedded event store, as the web tests set it up."""
from __future__ import annotations

from typing import Any, Iterable

from olympiad.web.app import create_app
from olympiad.web.auth import TokenStore
from olympiad.web.embedded import EmbeddedBackend, store_engine
from projections.store import EventStore
from tests.factories import imported


def embedded_app(events: Iterable[Any], chief: str | None = None) -> tuple[Any, EventStore, EmbeddedBackend]:
    """``(app, store, backend)``: ``olympiad.web.app.create_app`` over a fresh in-memory store that
    holds ``events`` (imported: ``tests.factories.imported``), with ``chief`` (if given) the chief arbiter's token of their tournament."""
    engine = store_engine("sqlite://")
    store = EventStore(engine=engine)
    imported(store, events)
    tokens = TokenStore(engine)
    if chief is not None:
        tokens.set_chief_token(store.state.tournament_id, chief)
    backend = EmbeddedBackend(store)
    return create_app(backend, tokens), store, backend
