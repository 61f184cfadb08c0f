"""The processors' Outbox: a batch's messages go out as record batches, none lost, order kept per partition."""
import asyncio

from aiokafka.producer.message_accumulator import BatchBuilder
from aiokafka.record.default_records import DefaultRecordBatch

from deploy import topics
from processors.app import Outbox


class Producer:
    """What Outbox needs of aiokafka's producer; record batches are real ones, 16 KB as by default."""

    def __init__(self):
        self.sent = []
        self.headers = []

    async def partitions_for(self, topic):
        return {0, 1, 2}

    def create_batch(self):
        return BatchBuilder(16384, 0, is_transactional=False)

    async def send_batch(self, batch, topic, *, partition):
        batch.close()
        records = list(DefaultRecordBatch(bytearray(batch._build())))
        self.sent += [(topic, partition, r.key, r.value) for r in records]
        self.headers += [list(r.headers) for r in records]


def test_every_message_is_sent_once_in_order_on_its_keys_partition():
    producer = Producer()
    # 60 messages of 1-30 KB over two tournaments: several batches fill up, one record exceeds a batch
    messages = [(f"t{i % 2}".encode(), bytes([65 + i % 26]) * (1000 + 500 * i)) for i in range(60)]

    async def run():
        outbox = Outbox(producer)
        for key, value in messages:
            await outbox.add(topics.TOURNAMENT_LOG, key, value)
        await outbox.send()

    asyncio.run(run())
    topic = topics.name(topics.TOURNAMENT_LOG)
    assert sorted((k, v) for _, _, k, v in producer.sent) == sorted(messages)
    for key in (b"t0", b"t1"):
        got = [(p, v) for t, p, k, v in producer.sent if k == key and t == topic]
        assert {p for p, _ in got} == {topics.partition_for(key, 3)}
        assert [v for _, v in got] == [v for k, v in messages if k == key]


def test_a_records_headers_go_with_it():
    producer = Producer()
    headers = [("chain", b"a" * 64), ("chain-prev", b"b" * 64)]

    async def run():
        outbox = Outbox(producer)
        await outbox.add(topics.TOURNAMENT_LOG, b"t0", b"{}", headers)
        await outbox.add(topics.TOURNAMENT_LOG, b"t0", b"[]")
        await outbox.send()

    asyncio.run(run())
    assert [v for _, _, _, v in producer.sent] == [b"{}", b"[]"] and producer.headers == [headers, []]
