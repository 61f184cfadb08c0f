"""The processors' own count of what they judged, per input partition: what is judged next, and
what may be committed.

Why: faust (0.15) computes the offset it commits from the offsets acked, and fills the holes
between them with its "gaps" (offsets it believes absent, from jumps in what it read). In a
rebalance records can be dropped between the fetch and the agent (faust clears the agents'
buffers when partitions are revoked, and drops the records fetched before it pauses a newly
assigned partition), and a jump over them is then taken for a gap: faust commits past records
nobody judged, and their commands are lost. Its read offset after a seek is also off by one
(``perform_seek`` takes the committed offset, the next to read, for the last one read), so a
single dropped record at the committed offset is committed past as well.

``OffsetGate`` holds, per (topic, partition), the next offset to judge and the next offset whose
outputs are with the producer (``committable``). The judge asks ``admit`` for each record: the
next offset is judged; a record already judged is skipped (a refetched copy); a record past the
next offset means records were dropped: it is not judged, and the caller seeks the partition
back to the next offset (once: ``admit`` says so for the first record past it). The consumer
commits only ``committable`` offsets (``processors.faust_transport``), so a commit never passes a
record that was not judged. The starts come from the committed offsets each time the consumer
seeks to them (every assignment, and ``processors.app.resume_stalled_partitions``).

``stuck`` names the partitions whose next offset has not moved for a while although later records
were written: a seek back whose records faust dropped again leaves a partition so, every record
after it skipped as ``WAIT`` (seen with 3 processors, one SIGKILLed: a partition stuck for 90 s
while the member judged its other partitions; ``processors.app.resume_stalled_partitions``
seeks it back again).

Pure (no faust, no Kafka; the clock is given); thread-safe, since the consumer's thread sets the
starts while the agent admits records on the event loop.
"""
from __future__ import annotations

import threading
import time
from enum import Enum
from typing import Callable, Hashable, Iterable, Mapping

Partition = Hashable  # (topic, partition); faust's TP and aiokafka's TopicPartition are such tuples


class Admission(Enum):
    """What to do with a record (``OffsetGate.admit``)."""

    JUDGE = "judge"  # the next offset of its partition
    SEEN = "seen"  # before the next offset: judged already (a refetched copy); skip it
    SEEK = "seek"  # past the next offset (records before it were dropped): skip it, seek back to ``next``
    WAIT = "wait"  # past the next offset, a seek back already asked for: skip it
    UNKNOWN = "unknown"  # a partition without a start (not assigned, or before the seek of its assignment): skip it


class OffsetGate:
    """Per partition the next offset to judge (``next``) and the next offset to commit (``committable``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        self._next: dict[Partition, int] = {}
        self._done: dict[Partition, int] = {}
        self._seeking: set[Partition] = set()
        self._moved: dict[Partition, float] = {}  # when ``next`` was last set or moved (clock s)

    def start(self, starts: Mapping[Partition, int]) -> None:
        """The consumer was positioned at ``starts`` (partition -> offset, the committed offset or
        the beginning): judging resumes there, and nothing before it is committed again."""
        with self._lock:
            for tp, offset in starts.items():
                key = tuple(tp)
                self._next[key] = self._done[key] = int(offset)
                self._seeking.discard(key)
                self._moved[key] = self._clock()

    def forget(self, partitions: Iterable[Partition]) -> None:
        """``partitions`` were revoked: their records are skipped until a ``start`` names them again."""
        with self._lock:
            for tp in partitions:
                key = tuple(tp)
                self._next.pop(key, None)
                self._done.pop(key, None)
                self._seeking.discard(key)
                self._moved.pop(key, None)

    def admit(self, tp: Partition, offset: int) -> Admission:
        """Whether to judge the record at ``offset`` of ``tp``; a judged record moves ``next`` past it."""
        key = tuple(tp)
        with self._lock:
            expected = self._next.get(key)
            if expected is None:
                return Admission.UNKNOWN
            if offset == expected:
                self._next[key] = offset + 1
                self._seeking.discard(key)
                self._moved[key] = self._clock()
                return Admission.JUDGE
            if offset < expected:
                return Admission.SEEN
            if key in self._seeking:
                return Admission.WAIT
            self._seeking.add(key)
            return Admission.SEEK

    def next(self, tp: Partition) -> int | None:
        """The next offset of ``tp`` to judge (None: no start)."""
        with self._lock:
            return self._next.get(tuple(tp))

    def stuck(self, highwaters: Mapping[Partition, int | None], after: float) -> list[tuple[Partition, int]]:
        """``(partition, next)`` for each partition of ``highwaters`` (partition -> the next offset
        to be written, None: not fetched yet) that has records at or past its next offset to judge
        and whose next offset has not moved for ``after`` seconds; each such partition's clock
        restarts, so it is named again only after another ``after`` seconds without progress, and
        the records past it are skipped (``WAIT``) until the caller's seek back delivers it."""
        now = self._clock()
        out = []
        with self._lock:
            for tp, high in highwaters.items():
                key = tuple(tp)
                expected = self._next.get(key)
                if expected is None or high is None or high <= expected or now - self._moved[key] < after:
                    continue
                self._moved[key] = now
                self._seeking.add(key)
                out.append((tp, expected))
        return out

    def settle(self, partitions: Iterable[Partition]) -> None:
        """The outputs of every record admitted so far on ``partitions`` are with the producer:
        their offsets may be committed."""
        with self._lock:
            for tp in partitions:
                key = tuple(tp)
                if key in self._next:
                    self._done[key] = self._next[key]

    def committable(self, tp: Partition) -> int | None:
        """The offset to commit for ``tp``: every record before it was judged and its outputs handed
        to the producer (None: no start)."""
        with self._lock:
            return self._done.get(tuple(tp))
