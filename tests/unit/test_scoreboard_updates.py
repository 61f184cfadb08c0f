"""The embedded backend's standings updates: each names the writes that caused it, and none is
sent without one (a close then a signature back to back woke the updater twice, and the second
update reached the scoreboards with ``caused_by`` empty)."""
from __future__ import annotations

import asyncio

from olympiad.web.embedded import EmbeddedBackend, store_engine
from projections.store import EventStore
from schemas.commands import parse_command
from tests.factories import TID, four_team_round_one, imported


def record(e) -> object:
    return parse_command({"command": "RecordResult", "tournament_id": TID, "actor": {"role": "chief", "id": "chief"},
                          "round": e.round, "table": e.table, "board": e.board, "result": e.result})


def test_a_write_landing_inside_an_update_is_carried_by_it_and_no_empty_update_follows():
    events = four_team_round_one()
    results = [e for e in events if e.type == "BoardResultRecorded"]
    store = EventStore(engine=store_engine("sqlite://"))
    imported(store, [e for e in events if e.type != "BoardResultRecorded"] + results[:-2])
    backend = EmbeddedBackend(store)
    updates: list = []
    original, injected = backend._recompute, []

    def recompute():  # the second write arrives after the wake is cleared, before the update takes the writes
        if not injected:
            injected.append(backend.command(record(results[-1])))
        return original()

    backend._recompute = recompute

    async def run() -> None:
        await backend.start(updates.append)
        await asyncio.to_thread(backend.command, record(results[-2]))
        await asyncio.sleep(0.5)
        await backend.stop()

    asyncio.run(run())
    assert injected[0].accepted
    assert [len(u.caused_by) for u in updates] == [2]  # one update, carrying both results
    assert updates[0].complete
