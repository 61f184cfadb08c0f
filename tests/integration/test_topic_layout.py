"""A broker whose topics were made with another partition count (an older release's 3, another
``OLYMPIAD_PARTITIONS``) is refused at start, naming the count to run with (issue 32)."""
from __future__ import annotations

import uuid

import pytest
from kafka.admin import KafkaAdminClient, NewTopic

from deploy.topics import PARTITIONS, ensure_topics


def test_a_topic_with_another_partition_count_is_refused_naming_the_count_it_has(kafka_bootstrap: str) -> None:
    prefix = f"layout{uuid.uuid4().hex[:6]}."
    other = 3 if PARTITIONS != 3 else 5
    admin = KafkaAdminClient(bootstrap_servers=kafka_bootstrap)
    try:
        admin.create_topics([NewTopic(f"{prefix}tournament-events", num_partitions=other, replication_factor=1)],
                            wait_for_metadata=True)
    finally:
        admin.close()
    with pytest.raises(RuntimeError) as refused:
        ensure_topics(kafka_bootstrap, prefix)
    assert (f"topic {prefix}tournament-events has {other} partitions, the layout says {PARTITIONS}" in str(refused.value)
            and f"run with OLYMPIAD_PARTITIONS={other}," in str(refused.value)), refused.value
