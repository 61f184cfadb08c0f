"""Fan-out of standings updates to stream subscribers (server-sent events), in one event loop.

Each update is encoded once as an SSE message (bytes) and the same bytes are handed to every
subscriber. An update is a full standings snapshot, so each subscriber has a one-message mailbox
("drop to latest"): a subscriber still writing an earlier message finds only the newest one when
it is done, never a queue of stale ones (memory is one reference per subscriber whatever the
rate), and it never misses the newest one. ``publish`` and ``subscribe`` must be called in the
event loop's thread.
"""
from __future__ import annotations

import asyncio
import json
import resource
from typing import Any

from starlette.responses import Response

KEEPALIVE = b": keep-alive\n\n"  # an SSE comment: keeps idle connections open through proxies


def sse_message(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One SSE message: ``event:``, optional ``id:``, ``data:`` (compact JSON, one line)."""
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return (head + "data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n\n").encode("utf-8")


class Subscription:
    """One subscriber's mailbox: the newest message not yet taken, or nothing.

    ``dropped`` counts the messages replaced by a newer one before the subscriber took them (a
    keep-alive comment replaced by anything is not counted).
    """

    __slots__ = ("_message", "_last", "_waiter", "_closed", "dropped", "transport")

    def __init__(self, first: bytes | None = None) -> None:
        self._message = first
        self._last = first  # the last message put: putting it again is a no-op
        self._waiter: asyncio.Future[None] | None = None
        self._closed = False
        self.dropped = 0
        self.transport: asyncio.WriteTransport | None = None  # set once the response has started

    def put(self, message: bytes) -> None:
        """Leave ``message`` in the mailbox, replacing what the subscriber has not taken yet; the
        message put last (taken or not) is not put again."""
        if message is self._last:
            return
        self._last = message
        if self._message is not None and self._message is not KEEPALIVE:
            self.dropped += 1
        self._message = message
        self._wake()

    def offer(self, message: bytes, chunk: bytes) -> None:
        """``put``, or, when the subscriber is idle (waiting, nothing in its mailbox) and its
        connection has nothing left to write, ``chunk`` (``message`` framed as one HTTP chunk)
        written to the connection at once: no task woken, no per-subscriber copy. A connection
        still writing an earlier message goes through the mailbox (drop to latest)."""
        if message is self._last:
            return
        transport = self.transport
        if (transport is not None and self._message is None and self._waiter is not None
                and not self._waiter.done() and not transport.is_closing() and not transport.get_write_buffer_size()):
            self._last = message
            transport.write(chunk)
            return
        self.put(message)

    def ping(self) -> None:
        """Leave ``KEEPALIVE`` if the mailbox is empty (never replaces an update)."""
        if self._message is None:
            self._message = KEEPALIVE
            self._wake()

    def close(self) -> None:
        """End the stream: ``get`` answers None from now on (what is in the mailbox is not sent)."""
        self._closed = True
        self._wake()

    async def get(self) -> bytes | None:
        """The newest message (waiting for one while the mailbox is empty); None once closed."""
        while self._message is None and not self._closed:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        if self._closed:
            return None
        message, self._message = self._message, None
        return message

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


def chunk(message: bytes) -> bytes:
    """``message`` as one chunk of an HTTP/1.1 chunked body (size in hex, CRLF, data, CRLF)."""
    return b"%x\r\n%b\r\n" % (len(message), message)


def transport_of(send: Any) -> asyncio.WriteTransport | None:
    """The connection under an ASGI ``send``, when it is uvicorn's own (its ``RequestResponseCycle``
    keeps the transport, and the response is chunked); None under any other server, or when a
    middleware wraps ``send`` (its ``StreamFastPath`` stands outside them all for this)."""
    cycle = getattr(send, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if not getattr(cycle, "chunked_encoding", False) or not all(
            callable(getattr(transport, name, None)) for name in ("write", "is_closing", "get_write_buffer_size")):
        return None  # (uvloop's transports are not registered as asyncio.WriteTransport: duck typing)
    return transport


class Broadcaster:
    """The set of live subscribers and the latest message published to them.

    ``publish`` hands the message to the subscribers ``BATCH`` at a time, yielding to the event
    loop between two batches: each subscriber woken costs a write of the whole standings (about
    30 KB), and 5,000 of them in one turn of the loop would hold up everything else it serves (a
    result entered, the thread that computes the next standings) for the whole fan-out. A message
    published during a fan-out takes over: the subscribers not reached yet get the newer one, those
    reached get it in one more pass, and none gets the same message twice.
    """

    BATCH = 250  # subscribers woken per turn of the event loop

    def __init__(self) -> None:
        self._subscriptions: set[Subscription] = set()
        self.latest: bytes | None = None  # the last message published: a new subscriber's first
        self.published = 0  # messages published since start (tests read it)
        self._fan_out: asyncio.Task | None = None

    @property
    def subscribers(self) -> int:
        return len(self._subscriptions)

    def subscribe(self) -> Subscription:
        """A new subscription whose first message is ``latest`` (if any has been published)."""
        subscription = Subscription(self.latest)
        self._subscriptions.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        self._subscriptions.discard(subscription)

    def publish(self, message: bytes) -> None:
        """Make ``message`` every subscriber's next (and the first of those who subscribe later).
        Costs one reference per subscriber: the bytes are shared, never copied or encoded again.
        The subscribers get it within the next turns of the loop (``BATCH`` per turn)."""
        self.published += 1
        self.latest = message
        if self._fan_out is None or self._fan_out.done():
            self._fan_out = asyncio.get_running_loop().create_task(self._hand_out(), name="standings-fan-out")

    async def _hand_out(self) -> None:
        framed: tuple[bytes | None, bytes] = (None, b"")
        while True:
            message = self.latest
            for i, subscription in enumerate(list(self._subscriptions)):
                newest = self.latest  # the newest, should one be published meanwhile
                if framed[0] is not newest:
                    framed = (newest, chunk(newest))  # framed once per message, not per subscriber
                subscription.offer(newest, framed[1])
                if i % self.BATCH == self.BATCH - 1:
                    await asyncio.sleep(0)
            if self.latest is message:
                return

    def ping(self) -> None:
        """Queue ``KEEPALIVE`` for every subscriber with nothing queued."""
        for subscription in self._subscriptions:
            subscription.ping()

    def close(self) -> None:
        """End every subscriber's stream (server shutdown)."""
        if self._fan_out is not None:
            self._fan_out.cancel()
        for subscription in self._subscriptions:
            subscription.close()


class SubscriptionResponse(Response):
    """An ASGI response that streams a new ``Subscription`` of ``hub`` to one HTTP connection (chunked
    transfer, one chunk per message) until the client leaves or the hub closes. Lighter than a
    streaming response over a generator: once the headers are sent, the fan-out writes an update
    to the connection itself while this task waits (``Subscription.offer``); the task sends what
    the mailbox holds otherwise (the first message, keep-alives, an update to a connection still
    writing), one ``send`` of the shared bytes each. A watcher ends the subscription when the
    client disconnects (a send to a gone client returns silently under uvicorn)."""

    def __init__(self, hub: Broadcaster, headers: list[tuple[bytes, bytes]]) -> None:
        self.hub = hub
        self.stream_headers = headers
        self.background = None  # the app may attach background tasks to a response; the stream runs none

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        subscription = self.hub.subscribe()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            subscription.close()

        watcher = asyncio.ensure_future(watch())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.stream_headers})
            subscription.transport = transport_of(send)  # from now on the fan-out may write to it directly
            while (message := await subscription.get()) is not None:
                await send({"type": "http.response.body", "body": message, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:  # the client went away mid-write
            pass
        finally:
            watcher.cancel()
            self.hub.unsubscribe(subscription)


def raise_open_files_limit() -> int:
    """Raise this process's soft limit of open file descriptors (``RLIMIT_NOFILE``) to its hard
    limit: every stream subscriber holds one socket, and a default soft limit of 1,024 would refuse
    the 1,000th spectator. Returns the soft limit now in force (unchanged where it cannot be raised)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        want = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):  # a platform that refuses: keep the limit there is
            pass
    return soft
