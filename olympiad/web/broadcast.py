"""Fan-out of standings updates to stream subscribers (server-sent events), in one event loop.

Each update is encoded once as an SSE message (bytes) and handed to every subscriber's queue.
An update is a full standings snapshot, so a subscriber too slow to keep up loses the older
queued messages, never the newest one ("latest wins"). ``publish`` and ``subscribe`` must be
called in the event loop's thread.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any

QUEUE_SIZE = 8  # messages kept per subscriber before the oldest are dropped
KEEPALIVE = b": keep-alive\n\n"  # an SSE comment: keeps idle connections open through proxies


def sse_message(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One SSE message: ``event:``, optional ``id:``, ``data:`` (compact JSON, one line)."""
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return (head + "data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n\n").encode("utf-8")


class Broadcaster:
    """The set of live subscribers and the latest message sent to them."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[bytes | None]] = set()
        self.published = 0  # messages published since start (tests read it)

    @property
    def subscribers(self) -> int:
        return len(self._queues)

    def subscribe(self) -> asyncio.Queue[bytes | None]:
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE_SIZE)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[bytes | None]) -> None:
        self._queues.discard(queue)

    def publish(self, message: bytes) -> None:
        """Queue ``message`` for every subscriber (dropping a slow subscriber's oldest message)."""
        self.published += 1
        for queue in self._queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(message)

    def ping(self) -> None:
        """Queue ``KEEPALIVE`` for every subscriber with nothing queued."""
        for queue in self._queues:
            if queue.empty():
                queue.put_nowait(KEEPALIVE)

    def close(self) -> None:
        """End every subscriber's stream (server shutdown): each queue gets ``None``."""
        for queue in self._queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(None)
