"""processors.offset_gate: the processors judge each input offset once, in order, and commit only
offsets whose records were judged (issue 32: faust's gaps committed past records dropped in a rebalance)."""
from __future__ import annotations

from processors.offset_gate import Admission, OffsetGate

TP = ("board-results", 3)


def test_records_in_order_are_judged_and_committed_once_settled() -> None:
    gate = OffsetGate()
    gate.start({TP: 10})
    assert [gate.admit(TP, o) for o in (10, 11, 12)] == [Admission.JUDGE] * 3
    assert gate.next(TP) == 13
    assert gate.committable(TP) == 10  # judged, but the outputs are not yet with the producer
    gate.settle([TP])
    assert gate.committable(TP) == 13


def test_a_jump_past_dropped_records_is_not_judged_and_asks_for_one_seek_back() -> None:
    gate = OffsetGate()
    gate.start({TP: 50})
    # faust dropped 50..99 in a rebalance; its gaps would have committed past them
    assert gate.admit(TP, 100) is Admission.SEEK
    assert [gate.admit(TP, o) for o in (101, 102)] == [Admission.WAIT, Admission.WAIT]
    gate.settle([TP])
    assert gate.committable(TP) == 50 and gate.next(TP) == 50
    # the seek back delivers 50 again: judged, and the next jump asks for a seek again
    assert gate.admit(TP, 50) is Admission.JUDGE
    assert gate.admit(TP, 52) is Admission.SEEK


def test_refetched_copies_are_seen_not_judged_again() -> None:
    gate = OffsetGate()
    gate.start({TP: 0})
    for o in range(5):
        assert gate.admit(TP, o) is Admission.JUDGE
    assert [gate.admit(TP, o) for o in (2, 3, 4)] == [Admission.SEEN] * 3
    assert gate.admit(TP, 5) is Admission.JUDGE


def test_a_single_dropped_record_at_the_start_is_not_committed_past() -> None:
    # faust's read offset after a seek takes the committed offset for one already read: it would commit past 7
    gate = OffsetGate()
    gate.start({TP: 7})
    assert gate.admit(TP, 8) is Admission.SEEK
    gate.settle([TP])
    assert gate.committable(TP) == 7


def test_revoked_partitions_are_skipped_until_started_again() -> None:
    gate = OffsetGate()
    gate.start({TP: 4, ("tournament-events", 3): 9})
    gate.admit(TP, 4)
    gate.forget([TP])
    assert gate.admit(TP, 5) is Admission.UNKNOWN
    assert gate.committable(TP) is None and gate.committable(("tournament-events", 3)) == 9
    gate.start({TP: 20})  # another member judged up to 20 meanwhile
    assert gate.admit(TP, 5) is Admission.SEEN
    assert gate.admit(TP, 20) is Admission.JUDGE


def test_settle_names_only_the_partitions_judged() -> None:
    gate = OffsetGate()
    other = ("tournament-events", 0)
    gate.start({TP: 0, other: 0})
    gate.admit(TP, 0)
    gate.admit(other, 0)
    gate.settle([TP])
    assert (gate.committable(TP), gate.committable(other)) == (1, 0)


def test_the_partition_count_is_a_setting_of_twelve_by_default(monkeypatch) -> None:
    import pytest

    from deploy import topics

    monkeypatch.delenv("OLYMPIAD_PARTITIONS", raising=False)
    assert topics.partitions() == 12
    monkeypatch.setenv("OLYMPIAD_PARTITIONS", "24")
    assert topics.partitions() == 24
    for bad in ("0", "twelve", "-3"):
        monkeypatch.setenv("OLYMPIAD_PARTITIONS", bad)
        with pytest.raises(ValueError, match="OLYMPIAD_PARTITIONS"):
            topics.partitions()


class Clock:
    """A clock the test moves (seconds)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_partition_whose_next_offset_does_not_move_while_later_records_wait_is_stuck_once_per_interval() -> None:
    clock = Clock()
    gate = OffsetGate(clock)
    other = ("board-results", 4)
    gate.start({TP: 50, other: 7})
    assert gate.admit(TP, 60) is Admission.SEEK  # 50..59 dropped; the seek back drops 50 again
    clock.now = 4.0
    assert gate.admit(other, 7) is Admission.JUDGE  # the member is busy with its other partitions
    assert gate.stuck({TP: 61, other: 9}, after=5.0) == []
    clock.now = 5.5
    assert gate.stuck({TP: 61, other: 9, ("board-results", 5): 3}, after=5.0) == [(TP, 50)]
    # asked once: the records past it wait for the seek back, and it is named again only 5 s later
    assert gate.admit(TP, 61) is Admission.WAIT
    clock.now = 9.0
    assert gate.stuck({TP: 61}, after=5.0) == []
    clock.now = 11.0
    assert gate.stuck({TP: 61, other: 9}, after=5.0) == [(TP, 50), (other, 8)]
    assert gate.admit(TP, 50) is Admission.JUDGE and gate.next(TP) == 51


def test_a_partition_with_nothing_past_its_next_offset_or_not_fetched_is_not_stuck() -> None:
    clock = Clock()
    gate = OffsetGate(clock)
    gate.start({TP: 10})
    clock.now = 100.0
    assert gate.stuck({TP: 10}, after=5.0) == []  # nothing written past it: idle, not stuck
    assert gate.stuck({TP: None}, after=5.0) == []  # not fetched yet
    gate.forget([TP])
    assert gate.stuck({TP: 20}, after=5.0) == []  # revoked: not this member's


def test_faust_hands_on_every_record_of_a_gated_partition_and_keeps_its_read_offsets_for_the_others() -> None:
    from processors.faust_transport import ReadOffsets

    gate = OffsetGate()
    gate.start({TP: 410})
    changelog = ("judged-changelog", 3)
    offsets = ReadOffsets(lambda tp: gate.next(tp) is not None)
    # records fetched before the gate's seek back to 410 moved faust's read offset past it ...
    offsets[TP] = 415
    offsets[changelog] = 7
    # ... and faust would drop the refetched 410 (410 < 415): none for the gate's partition
    assert offsets[TP] is None and offsets[changelog] == 7
    assert offsets[("judged-changelog", 4)] is None  # nothing read yet, as faust's defaultdict
    gate.forget([TP])
    assert offsets[TP] == 415
    offsets.update({TP: 3})
    assert offsets.pop(TP) == 3
