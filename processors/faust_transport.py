"""faust's aiokafka transport with the consumer's fetch timing made fit for low latency.

faust-streaming 0.15 builds its ``AIOKafkaConsumer`` with ``fetch_max_wait_ms=1500`` hard-coded,
and aiokafka 0.14 gives every fetched-but-not-taken partition a ``prefetch_backoff`` of 100 ms
that its ``AIOKafkaConsumer`` does not expose. On a single broker both couple unrelated
partitions: aiokafka sends no fetch to a broker while one is in flight there, or while any of its
partitions holds records the application has not taken (faust never takes the records of a
table's changelog partitions after recovery). A board result whose partition missed the fetch in
flight then waits up to 1.5 s for it to come back, and a changelog write can stall every agent
for 100 ms (measured: docs/live.md).

``FETCH_MAX_WAIT_MS`` bounds how long the broker holds a fetch with no new data, hence how long
new records wait behind a fetch in flight that does not name their partition (the price: an idle
consumer sends up to 1000 / FETCH_MAX_WAIT_MS empty fetches per second). ``PREFETCH_BACKOFF_S``
bounds how long records fetched but not yet taken hold back the next fetch: faust takes an
agent's records within a few milliseconds, so the next fetch names their partition again; records
faust never takes (a table's changelog after recovery) hold it back once, for this long, and
their partition is not fetched again. Measured with ``bench/bench_live.py`` (docs/live.md):
1500 ms / 100 ms (faust's and aiokafka's values), 5 ms / 1 ms and 100 ms / 50 ms all gave
higher latency than 20 ms / 20 ms on the same run.

After a rebalance, faust seeks every assigned partition to its committed offset, and aiokafka's
``seek_to_committed`` leaves a partition that has no committed offset where it is. A partition
newly assigned in a rebalance is fetched (from offset 0, ``auto_offset_reset="earliest"``)
before faust has paused it for recovery; faust drops those records, and the position stays past
them: the events of a partition whose former owner was SIGKILLed before its first commit were
then never judged (seen: the soak waited 600 s for a pairing). ``seek_to_committed`` below seeks
such partitions back to their beginning, which is what "committed" means for a partition nobody
has committed: its events are judged again, and the judge is idempotent (event ids).

Commits come from ``processors.offset_gate.OffsetGate`` (``app.offset_gate``), not from faust's
acks and gaps, which can pass records never judged in a rebalance (that module's docstring):
``Consumer._new_offset`` returns the gate's committable offset, and every seek to the committed
offsets (each assignment, a stall) gives the gate its starts.

The app selects this transport with the broker URL scheme ``olympiad-kafka://`` (registered
below); everything else is faust's own aiokafka driver.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import aiokafka
from faust.transport import drivers
from faust.transport.drivers import aiokafka as driver

FETCH_MAX_WAIT_MS = 20
PREFETCH_BACKOFF_S = 0.02
SCHEME = "olympiad-kafka"


class ConsumerThread(driver.AIOKafkaConsumerThread):
    """faust's consumer thread; its worker consumer gets the fetch timing above."""

    def _create_worker_consumer(self, transport: Any) -> aiokafka.AIOKafkaConsumer:
        consumer = super()._create_worker_consumer(transport)
        consumer._fetch_max_wait_ms = FETCH_MAX_WAIT_MS
        start = consumer.start

        async def start_with_short_backoff() -> None:
            await start()
            # The fetcher exists only once the consumer has started; it reads the value per fetch.
            consumer._fetcher._prefetch_backoff = PREFETCH_BACKOFF_S

        consumer.start = start_with_short_backoff
        return consumer

    async def seek_to_committed(self) -> Mapping[Any, int]:
        """Seek every assigned partition to its committed offset, and a stream partition with
        none to its beginning (module docstring); returns the committed offsets as faust expects."""
        return await self.call_thread(self._seek_to_committed_or_beginning)

    async def _seek_to_committed_or_beginning(self) -> Mapping[Any, int]:
        consumer = self._ensure_consumer()
        committed = await consumer.seek_to_committed()
        changelogs = self.app.tables.changelog_topics  # positioned by faust's recovery: left alone
        uncommitted = [tp for tp, offset in committed.items() if not offset and tp.topic not in changelogs]
        if uncommitted:
            await consumer.seek_to_beginning(*uncommitted)
        gate = getattr(self.app, "offset_gate", None)
        if gate is not None:
            # Where judging resumes: the committed offset, or where the beginning put the position.
            gate.start({tp: (offset if offset else await consumer.position(tp))
                        for tp, offset in committed.items() if tp.topic not in changelogs})
        return committed


class ReadOffsets(dict):
    """faust's read offsets (per partition, the last offset its consumer loop handed to the agents;
    a record at or past it is handed on, one before it dropped), with none for the partitions the
    gate judges (``gated(tp)``): every record of theirs is handed on, and the gate skips what was
    judged already (``Admission.SEEN``).

    Why: the gate's seek back to a dropped record (``processors.app._judge_batch``) sets faust's
    read offset to it, but records of the same partition fetched before the seek are still being
    handed on, and move the read offset past it again; its refetched copy was then dropped, and
    only the 5 s stall check got it judged (``OffsetGate.stuck``)."""

    def __init__(self, gated: Callable[[Any], bool]):
        super().__init__()
        self._gated = gated

    def __missing__(self, tp: Any) -> None:
        return None  # faust's own is a defaultdict(lambda: None)

    def __getitem__(self, tp: Any) -> int | None:
        return None if self._gated(tp) else super().__getitem__(tp)


class Consumer(driver.Consumer):
    """faust's aiokafka consumer, running ``ConsumerThread``; no read offsets for the gate's partitions."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_offset = ReadOffsets(self._gated)

    def _gated(self, tp: Any) -> bool:
        gate = getattr(self.app, "offset_gate", None)
        return gate is not None and gate.next(tp) is not None

    def _new_consumer_thread(self) -> ConsumerThread:
        return ConsumerThread(self, loop=self.loop, beacon=self.beacon)

    def _new_offset(self, tp: Any) -> int | None:
        """The offset to commit for ``tp``: the gate's (every record before it judged; None, no
        commit, for a partition it has no start for), never one derived from acks and gaps. Only
        the judge's inputs are acked, so only they come here. Without a gate: faust's own."""
        gate = getattr(self.app, "offset_gate", None)
        if gate is None:
            return super()._new_offset(tp)
        self._acked[tp].clear()  # faust's bookkeeping of acks, unused here: kept from growing
        self._acked_index[tp].clear()
        return gate.committable(tp)


class Transport(driver.Transport):
    """faust's aiokafka transport with ``Consumer``."""

    Consumer = Consumer


drivers.TRANSPORTS.aliases[SCHEME] = f"{__name__}:Transport"
