"""Reading a whole topic in tests: every record up to the end offsets the broker reports when the
read starts, however long the broker takes to answer (a machine under load)."""
from __future__ import annotations

import time
from typing import Any

from kafka import KafkaConsumer, TopicPartition


def read_topic(bootstrap: str, topic: str, partitions: int, timeout: float = 120) -> list[Any]:
    """Every record of ``topic`` (``partitions`` partitions), from the beginning to the end offset
    of each partition as the broker reports it at the start. A read that stops after some seconds
    without a record returned nothing at all on a loaded 2-core machine (12 partitions, load 17: the
    first fetch came later than that), so this one waits for the end offsets instead. Raises
    ``TimeoutError`` when they are not reached in ``timeout`` seconds."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False)
    try:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        ends = consumer.end_offsets(tps)
        records: list[Any] = []
        deadline = time.monotonic() + timeout
        while any(consumer.position(tp) < end for tp, end in ends.items()):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{topic}: end offsets {ends} not reached in {timeout:.0f} s")
            for tp, batch in consumer.poll(timeout_ms=500).items():
                records.extend(r for r in batch if r.offset < ends[tp])
        return records
    finally:
        consumer.close()
