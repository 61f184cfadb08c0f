"""Issue 16: the chain hash of every ``tournament-log`` record (``processors.log_chain``) and the
auditor's reading of it (``projections.audit``): a changed, a deleted and two swapped events of a
copy of the log are each named at the event, with what the stored hashes say happened."""
from __future__ import annotations

from processors.judge import Judge, judge_message
from projections.audit import LogRecord, audit
from schemas.canonical import canonical_json
from schemas.chain import CHAIN_HEADER, PREV_HEADER, chain_of, chain_start
from tests.factories import TID, four_team_round_one
from tests.kafka_messages import imported

KEY = TID.encode()


def batch(judge: Judge, store: dict, events: list) -> list[tuple[str, list]]:
    """Judge ``events`` as one batch, commit it to ``store``; ``(record value, headers)`` of each
    accepted event, as ``processors.app.judge_batch`` writes them to tournament-log."""
    out = []
    for e in events:
        verdict = judge_message(judge, imported(e), KEY)
        assert verdict.accepted, verdict.reason
        out += [(canonical_json(a), judge.chain.headers(TID, a.event_id)) for a in verdict.events]
    for _, key, value in judge.commit():
        store[key] = value
    return out


def records(logged: list[tuple[str, list]]) -> list[LogRecord]:
    """The log as the Kafka audit source reads it: each value with its chain headers."""
    return [LogRecord(body, dict(h)[CHAIN_HEADER].decode(), f"tournament-log 0:{n}", dict(h)[PREV_HEADER].decode())
            for n, (body, h) in enumerate(logged)]


def the_log() -> tuple[dict, list[tuple[str, list]]]:
    """Round 1 of the four-team tournament judged in two batches, but for its last board."""
    store: dict = {}
    judge = Judge(store)
    events = four_team_round_one()[:-1]
    return store, batch(judge, store, events[:8]) + batch(judge, store, events[8:])


def at(logged: list[tuple[str, list]], event_id: str) -> int:
    return next(n for n, (body, _) in enumerate(logged) if f'"event_id":"{event_id}"' in body)


def test_every_record_carries_the_hash_through_its_event_and_the_one_before():
    _, logged = the_log()
    hashes = chain_of(TID, [body for body, _ in logged])
    assert [dict(h)[CHAIN_HEADER].decode() for _, h in logged] == hashes
    assert [dict(h)[PREV_HEADER].decode() for _, h in logged] == [chain_start(TID), *hashes[:-1]]
    assert audit(TID, records(logged)).ok


def test_a_redelivered_copy_and_a_restarted_judge_continue_the_same_chain():
    store, logged = the_log()
    restarted = Judge(store)  # a restart or a rebalance: the chain is rebuilt from the store
    events = four_team_round_one()
    assert batch(restarted, store, [events[7]]) == [logged[7]]  # a redelivered copy: re-appended with its first hashes
    last = batch(restarted, store, [events[-1]])  # the last board, judged after the restart
    assert dict(last[0][1])[PREV_HEADER].decode() == chain_of(TID, [body for body, _ in logged])[-1]
    report = audit(TID, records(logged + [logged[7]] + last))
    assert report.ok and report.events == len(events)


def test_a_changed_result_is_named_at_the_event():
    _, logged = the_log()
    victim = at(logged, f"{TID}/r1/t1/b3")
    body, headers = logged[victim]
    logged[victim] = (body.replace('"result":"1-0"', '"result":"0-1"'), headers)
    report = audit(TID, records(logged))
    chain = [d for d in report.divergences if d.kind == "chain"]
    assert [(d.round, d.subject) for d in chain] == [(1, f"{TID}/r1/t1/b3")]
    assert "its text is not the text that was logged (changed after it was logged)" in chain[0].what
    assert f"(tournament-log 0:{victim})" in chain[0].what


def test_a_deleted_event_is_named_between_its_neighbours():
    _, logged = the_log()
    del logged[at(logged, f"{TID}/r1/t1/b3")]
    chain = [d for d in audit(TID, records(logged)).divergences if d.kind == "chain"]
    assert [(d.round, d.subject) for d in chain] == [(1, f"{TID}/r1/t1/b4")]
    assert f"is not in the log: an event between {TID}/r1/t1/b2 and this one was deleted" in chain[0].what


def test_two_swapped_events_are_named_both():
    _, logged = the_log()
    b2, b3 = at(logged, f"{TID}/r1/t1/b2"), at(logged, f"{TID}/r1/t1/b3")
    logged[b2], logged[b3] = logged[b3], logged[b2]
    chain = [d for d in audit(TID, records(logged)).divergences if d.kind == "chain"]
    assert [(d.round, d.subject) for d in chain] == [(1, f"{TID}/r1/t1/b3")]
    assert (f"it was logged right after {TID}/r1/t1/b2 (tournament-log 0:{b3}), which the log now has after it: "
            "the events were swapped or moved") in chain[0].what


def test_a_record_without_hashes_among_chained_ones_is_named():
    _, logged = the_log()
    recs = records(logged)
    n = at(logged, f"{TID}/r1/t1/b1")
    recs[n] = LogRecord(recs[n].body, None, recs[n].where)  # its headers cut, or put in by hand
    chain = [d for d in audit(TID, recs).divergences if d.kind == "chain"]
    assert [(d.round, d.subject) for d in chain] == [(1, f"{TID}/r1/t1/b1")]
    assert f"no chain hash (tournament-log 0:{n}), though the records before it have one" in chain[0].what
