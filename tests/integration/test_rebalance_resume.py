"""Issue 12: the processors resume every partition after a rebalance that follows SIGKILLed members.

Three processors share the consumer group; the one owning the tournament's partition and another
are SIGKILLed before anything is committed, and the tournament's registration is published. When
their sessions expire (10 s) the survivor is assigned every partition and must judge all of it.
Before ``processors.faust_transport.ConsumerThread.seek_to_committed`` the survivor never judged
it (faust dropped the records fetched before it paused the partition, and aiokafka left the
position past them: 4 runs of 4); ``processors.app.resume_stalled_partitions`` covers the rarer
case where faust skips the refetched copies (offsets 3-148 of 207 in one run of 11).
"""
from __future__ import annotations

import re
import signal
import subprocess
import time
import uuid

import pytest

from bench.soak import events_through
from deploy import topics
from olympiad.cmd_live import ROOT, LivePipeline
from producers.publish import publish
from producers.sources import load_source

pytestmark = pytest.mark.integration

ASSIGNMENT = re.compile(r"tournament-events +\| \{([0-9, -]+)\}")
PID = re.compile(r"\[[^]]+\] \[(\d+)\]")


def partition_set(text: str) -> frozenset[int]:
    """The partitions of faust's form ``0-3, 7, 9-11`` (its log of an assignment)."""
    out: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        first, _, last = part.partition("-")
        out.update(range(int(first), int(last or first) + 1))
    return frozenset(out)


def last_assignments(log: str) -> dict[int, frozenset[int]]:
    """pid -> the tournament-events partitions of its last assignment, read from faust's log."""
    pid, out = None, {}
    for line in log.splitlines():
        m = PID.match(line)
        if m:
            pid = int(m.group(1))
        m = ASSIGNMENT.search(line)
        if m and pid:
            out[pid] = partition_set(m.group(1))
    return out


def test_survivor_judges_the_partitions_of_killed_members(kafka_bootstrap, fresh_database):
    events = events_through(load_source("samarkand-2026-open"), 0)  # the registration: 207 events
    prefix = f"rebalance{uuid.uuid4().hex[:8]}."
    with LivePipeline(kafka_bootstrap, prefix, fresh_database()) as pipeline:
        log = pipeline.logdir / f"{prefix}processors.log"
        procs = {pipeline.children["processors"].pid: pipeline.children["processors"]}
        for _ in range(2):
            time.sleep(0.3)
            extra = subprocess.Popen(pipeline.command("processors"), cwd=ROOT, env=pipeline.env(),
                                     stdout=log.open("ab"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            procs[extra.pid] = extra
        deadline = time.monotonic() + 120
        every = frozenset(range(topics.TOURNAMENT_EVENTS.partitions))
        while True:  # until one generation gave each of the three a share of the partitions
            owners = last_assignments(log.read_text(errors="replace"))
            shares = [owners.get(pid, frozenset()) for pid in procs]
            if all(shares) and sum(map(len, shares)) == len(every) and frozenset().union(*shares) == every:
                break
            assert time.monotonic() < deadline, f"no three-way assignment: {owners}"
            time.sleep(0.2)
        time.sleep(1)  # the three settle (seen: the stall followed in 4 runs of 4)
        home = topics.partition_for(b"samarkand-2026-open", topics.TOURNAMENT_EVENTS.partitions)
        survivor = next(pid for pid in procs if home not in owners[pid])
        for pid, proc in procs.items():
            if pid != survivor:
                proc.send_signal(signal.SIGKILL)
                proc.wait()
        pipeline.children["processors"] = procs[survivor]
        follower = publish(events, bootstrap=kafka_bootstrap, topic_prefix=prefix, timeout=90)
        try:
            assert all(follower.judged(e.event_id) for e in events)
            assert not follower.refused
            assert {e.event_id for e in events} <= set(follower.accepted)
        finally:
            follower.close()
