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
