"""Issue 32 (spectators): the standings stream's fan-out, ``olympiad.web.broadcast``.

Each update is encoded once and the same bytes go to every subscriber; a subscriber has a
one-message mailbox, so a slow one gets the newest standings, never a queue of stale ones, and
never misses the newest. Checked on the mailbox itself and through the ASGI response that writes
it to a connection whose writes are held up.
"""
from __future__ import annotations

import asyncio

from bench.bench_web import figures
from olympiad.web.broadcast import KEEPALIVE, Broadcaster, Subscription, SubscriptionResponse

U1, U2, U3, U4 = (f"event: standings\nid: {i}\ndata: {{}}\n\n".encode() for i in range(1, 5))


def run(coro):
    return asyncio.run(coro)


async def settle(turns: int = 10) -> None:
    """Let the event loop turn: the fan-out hands messages out in its own task."""
    for _ in range(turns):
        await asyncio.sleep(0)


def test_a_subscriber_that_has_not_taken_its_messages_gets_only_the_newest():
    async def go():
        hub = Broadcaster()
        slow = hub.subscribe()
        for m in (U1, U2, U3):
            hub.publish(m)
            await settle()
        got = await slow.get()
        return got, slow.dropped, hub.published

    assert run(go()) == (U3, 2, 3)


def test_messages_published_before_the_fan_out_ran_reach_a_subscriber_once_as_the_newest():
    async def go():
        hub = Broadcaster()
        s = hub.subscribe()
        for m in (U1, U2, U3):
            hub.publish(m)
        await settle()
        return await s.get(), s.dropped

    assert run(go()) == (U3, 0)


def test_the_fan_out_wakes_a_batch_per_turn_and_a_newer_message_takes_over_without_repeats(monkeypatch):
    monkeypatch.setattr(Broadcaster, "BATCH", 2)

    async def go():
        hub = Broadcaster()
        subs = [hub.subscribe() for _ in range(5)]
        got: list[list[bytes]] = [[] for _ in subs]

        async def read(i):
            while (m := await subs[i].get()) is not None:
                got[i].append(m)

        readers = [asyncio.ensure_future(read(i)) for i in range(5)]
        await settle()
        hub.publish(U1)
        await asyncio.sleep(0)  # the fan-out's first turn: two subscribers only
        first_turn = sum(1 for s in subs if s._message is not None)
        hub.publish(U2)  # published mid fan-out
        await settle(30)
        hub.close()
        await asyncio.gather(*readers)
        return first_turn, got

    first_turn, got = run(go())
    assert first_turn == 2
    for seen in got:
        assert seen[-1] is U2  # every subscriber ends on the newest
        assert len(seen) == len(set(seen))  # none twice


def test_every_subscriber_gets_the_same_bytes_object_encoded_once():
    async def go():
        hub = Broadcaster()
        a, b = hub.subscribe(), hub.subscribe()
        hub.publish(U1)
        await settle()
        return await a.get(), await b.get()

    first, second = run(go())
    assert first is second is U1


def test_a_new_subscriber_starts_with_the_latest_update_then_waits_for_the_next():
    async def go():
        hub = Broadcaster()
        hub.publish(U1)
        hub.publish(U2)
        await settle()
        late = hub.subscribe()
        first = await late.get()
        waiting = asyncio.ensure_future(late.get())
        await asyncio.sleep(0)
        pending = not waiting.done()
        hub.publish(U3)
        await settle()
        return first, pending, await asyncio.wait_for(waiting, 1)

    assert run(go()) == (U2, True, U3)


def test_a_keep_alive_never_replaces_an_update_and_an_update_replaces_a_keep_alive_uncounted():
    async def go():
        hub = Broadcaster()
        s = hub.subscribe()
        hub.publish(U1)
        await settle()
        hub.ping()  # an update is waiting: no keep-alive
        first = await s.get()
        hub.ping()
        hub.publish(U2)  # the keep-alive not yet sent is replaced: nothing of value dropped
        await settle()
        return first, await s.get(), s.dropped

    assert run(go()) == (U1, U2, 0)


def test_an_idle_subscriber_gets_a_keep_alive():
    async def go():
        s = Subscription()
        s.ping()
        return await s.get()

    assert run(go()) == KEEPALIVE


def test_close_ends_the_stream_of_a_waiting_subscriber():
    async def go():
        hub = Broadcaster()
        s = hub.subscribe()
        waiting = asyncio.ensure_future(s.get())
        await asyncio.sleep(0)
        hub.close()
        return await asyncio.wait_for(waiting, 1)

    assert run(go()) is None


def test_a_slow_connection_is_written_the_newest_standings_not_the_ones_in_between():
    """Through the ASGI response: the first write is held up (a full socket) while three updates
    are published; once it completes, the next write is the newest update, and nothing more."""
    async def go():
        hub = Broadcaster()
        hub.publish(U1)
        written: list[bytes] = []
        release = asyncio.Event()
        leave = asyncio.Event()

        async def send(message):
            if message["type"] == "http.response.body":
                written.append(message["body"])
                if len(written) == 1:
                    await release.wait()  # the client reads slowly

        async def receive():
            await leave.wait()
            return {"type": "http.disconnect"}

        response = asyncio.ensure_future(SubscriptionResponse(hub, [])({"type": "http"}, receive, send))
        while not written:
            await asyncio.sleep(0)
        for m in (U2, U3, U4):
            hub.publish(m)
            await settle()
        release.set()
        for _ in range(20):
            await asyncio.sleep(0)
        before_leaving = list(written)
        leave.set()
        await asyncio.wait_for(response, 1)
        return before_leaving, hub.subscribers

    writes, left = run(go())
    assert writes == [U1, U4]
    assert left == 0  # the client's disconnect ended the subscription


def test_the_bench_measures_a_skipped_update_at_the_newer_one_that_includes_it():
    # Subscriber 0 got updates 1, 2, 3; subscriber 1 skipped 2 (drop to latest) and got 3 at 0.5 s.
    records = [("A", [(1, 0.1), (2, 0.3), (3, 0.45)]), ("A", [(1, 0.12), (3, 0.5)])]
    caused = {"A": {1: ["a"], 2: ["b"], 3: ["c"]}}
    submitted = [(0.0, {"a"}, "A"), (0.2, {"b"}, "A"), (0.4, {"c"}, "A")]
    f = figures(records, caused, submitted)
    assert [round(x) for x in f.latencies] == [100, 100, 50, 120, 300, 100]
    assert (f.missing, f.got_last, f.got_every) == (0, 2, 1)


def test_the_bench_counts_a_submission_no_update_carried_as_missing_everywhere():
    f = figures([("A", [(1, 0.1)]), ("A", [(1, 0.2)])], {"A": {1: ["a"]}}, [(0.0, {"a"}, "A"), (0.5, {"z"}, "A")])
    assert (len(f.latencies), f.missing) == (2, 2)


def test_the_bench_measures_a_submission_at_its_own_tournaments_subscribers_only():
    # Tournaments A and B each number their updates from 1 (one server each): A's seq 1 is not B's.
    records = [("A", [(1, 0.1), (2, 0.6)]), ("B", [(1, 0.35)]), ("B", [(1, 0.3)])]
    caused = {"A": {1: ["a1"], 2: ["a2"]}, "B": {1: ["b1"]}}
    submitted = [(0.0, {"a1"}, "A"), (0.25, {"b1"}, "B"), (0.5, {"a2"}, "A")]
    f = figures(records, caused, submitted)
    assert [round(x) for x in f.latencies] == [100, 100, 100, 50]  # A: 2 submissions x 1; B: 1 x 2
    assert (f.missing, f.got_last, f.got_every) == (0, 3, 3)


class FakeTransport:
    """A connection whose writes are recorded; ``backlog`` bytes still to write make it busy."""

    def __init__(self, backlog: int = 0) -> None:
        self.written: list[bytes] = []
        self.backlog = backlog

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return self.backlog


def test_an_idle_subscriber_on_a_free_connection_is_written_the_framed_chunk_directly_and_once():
    async def go():
        hub = Broadcaster()
        idle, busy = hub.subscribe(), hub.subscribe()
        idle.transport, busy.transport = FakeTransport(), FakeTransport(backlog=30_000)
        waiting = [asyncio.ensure_future(s.get()) for s in (idle, busy)]
        await settle()
        hub.publish(U1)
        await settle()
        hub.publish(U1)  # the same message again: nothing more
        await settle()
        return idle.transport.written, waiting[0].done(), await asyncio.wait_for(waiting[1], 1), busy.transport.written

    direct, idle_woken, via_mailbox, busy_direct = run(go())
    assert direct == [b"%x\r\n" % len(U1) + U1 + b"\r\n"]  # one HTTP chunk, framed once for all
    assert not idle_woken  # no task woken for it
    assert via_mailbox is U1 and busy_direct == []  # a connection still writing: the mailbox (drop to latest)
