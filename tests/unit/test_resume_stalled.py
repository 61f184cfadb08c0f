"""Issue 12: which partitions the processors' stall check seeks back (``processors.app.stalled_partitions``)."""
from __future__ import annotations

from faust.types import TP

from processors.app import stalled_partitions

EVENTS = [TP("tournament-events", p) for p in range(3)]


def test_partitions_with_events_past_their_commit_are_stalled():
    committed = {EVENTS[0]: 208, EVENTS[1]: None, EVENTS[2]: 3}
    highwaters = {EVENTS[0]: 208, EVENTS[1]: 0, EVENTS[2]: 207}
    assert stalled_partitions(committed, highwaters) == [EVENTS[2]]


def test_nothing_committed_counts_as_offset_zero_and_unfetched_is_skipped():
    assert stalled_partitions({EVENTS[1]: None}, {EVENTS[1]: 5, EVENTS[2]: None}) == [EVENTS[1]]
    assert stalled_partitions({}, {EVENTS[0]: 0}) == []
