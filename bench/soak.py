"""Soak (issue 12, acceptance 4): SIGKILL the processors and the projection worker at random points
while a whole tournament is published; nothing is lost, nothing doubled, the standings are those
of the replay.

The pipeline is ``olympiad.cmd_live.LivePipeline`` on the broker of ``KAFKA_BOOTSTRAP_SERVERS``
with a fresh topic prefix, the worker on a fresh SQLite file (or ``--database-url``). The source
is published with ``producers.publish.publish`` (round by round, ``--speed`` board results per
second) while a killer thread waits a random 1 to ``--gap`` seconds, SIGKILLs the processors or
the worker (at random) and starts it again, until the publisher is done and at least ``--kills``
kills were made; the soak passes only if ``--kills`` of them came while the publisher ran. Then, once the worker has caught up with ``tournament-log``:

- the standings digest of the last round in the worker's read model and on the ``standings``
  topic equals that of ``olympiad replay`` on the same events (the embedded path);
- results lost: source events missing from the read model's event table; results doubled: rows
  of it beyond one per event id, and board results of one board under two ids.

Prints one line per figure; exit status 1 if a figure is off.

Run: ``KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 .venv/bin/python -m bench.soak [--kills 50] [--rounds 11]``
(the whole Samarkand 2026 Open: some 10 to 20 minutes, most of them faust rebalancing after kills).
"""
from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from olympiad.cmd_live import LivePipeline
from producers.doors import EmbeddedDoor
from producers.publish import publish
from producers.sources import Source, import_command, load_source
from projections.store import EventStore, events_table, standings_documents
from projections.worker import caught_up

TID = "samarkand-2026-open"
REPLAY_DIGEST = "ead914151892446a1f353a407cf91b571d7cf649e8cb7a430b3f8d01cdd094c8"  # olympiad replay samarkand-2026-open


@dataclass
class SoakReport:
    """What a soak saw: kills made, the digests, results lost and doubled."""

    kills: list[tuple[float, str]] = field(default_factory=list)  # (seconds since start, "processors"|"projections")
    expected_digest: str = ""
    stored_digest: str | None = None
    published_digest: str | None = None
    lost: int = 0
    doubled: int = 0
    seconds: float = 0.0
    published: float = 0.0  # seconds since start when the publisher was done

    @property
    def kills_while_publishing(self) -> int:
        return sum(1 for t, _ in self.kills if t <= self.published)

    def ok(self, kills: int) -> bool:
        return (self.kills_while_publishing >= kills and self.stored_digest == self.expected_digest == self.published_digest
                and self.lost == 0 and self.doubled == 0)

    def lines(self) -> list[str]:
        names = Counter(name for _, name in self.kills)
        return [
            f"kills (SIGKILL)      {len(self.kills)} ({names['processors']} processors, {names['projections']} worker), "
            f"{self.kills_while_publishing} while publishing ({self.published:.0f} s); {self.seconds:.0f} s in all",
            f"replay digest        {self.expected_digest}",
            f"read model digest    {self.stored_digest}",
            f"standings topic      {self.published_digest}",
            f"results lost         {self.lost}",
            f"results doubled      {self.doubled}",
        ]


def events_through(events: list[Any], rounds: int) -> list[Any]:
    """The events of ``events`` before the pairing of round ``rounds + 1``."""
    out = []
    for e in events:
        if e.type == "RoundPaired" and e.round > rounds:
            break
        out.append(e)
    return out


def soak(events: list[Any], kills: int, *, bootstrap: str, database_url: str, speed: float = 0.0,
         gap: float = 6.0, seed: int | None = None, timeout: float = 1800.0, most: int | None = None) -> SoakReport:
    """Publish ``events`` through a fresh pipeline while SIGKILLing its children ``kills`` times
    or more, ``most`` at most (module docstring); returns the report once the worker has caught up."""
    rng = random.Random(seed)
    report = SoakReport()
    store = EventStore("sqlite://")
    EmbeddedDoor(store).decide(import_command(Source("soak", events, True)))
    result = store.project()
    last = max(result.rounds)
    report.expected_digest = result.rounds[last].digest
    prefix = f"soak{uuid.uuid4().hex[:8]}."
    start = time.monotonic()
    with LivePipeline(bootstrap, prefix, database_url) as pipeline:
        done = threading.Event()
        lock = threading.Lock()

        def killer() -> None:
            while not done.is_set() or len(report.kills) < kills:
                if time.monotonic() - start > timeout or (most is not None and len(report.kills) >= most):
                    return
                time.sleep(rng.uniform(1.0, gap))
                name = rng.choice(["processors", "projections"])
                with lock:
                    pipeline.stop(name, signal.SIGKILL)
                    pipeline.start(name)
                report.kills.append((time.monotonic() - start, name))

        thread = threading.Thread(target=killer, name="killer", daemon=True)
        thread.start()
        try:
            follower = publish(events, speed=speed, bootstrap=bootstrap, topic_prefix=prefix, timeout=timeout)
        finally:
            done.set()
            report.published = time.monotonic() - start
        thread.join(timeout)
        with lock:
            pipeline.check()
        deadline = time.monotonic() + timeout
        while not caught_up(database_url, bootstrap, prefix) or _stored_digest(database_url, last) != report.expected_digest:
            if time.monotonic() > deadline:
                break
            time.sleep(1)
        report.stored_digest = _stored_digest(database_url, last)
        latest = follower.latest(events[0].tournament_id, last)
        report.published_digest = latest.body["digest"] if latest else None
        follower.close()
        report.lost, report.doubled = _lost_and_doubled(database_url, events)
    report.seconds = time.monotonic() - start
    return report


def _stored_digest(url: str, rnd: int) -> str | None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.select(standings_documents.c.digest).where(standings_documents.c.round == rnd)).scalar()
    except sa.exc.SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def _lost_and_doubled(url: str, events: list[Any]) -> tuple[int, int]:
    """(source events missing from the read model, rows beyond one per event id + boards under two result ids)."""
    import json

    engine = sa.create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(sa.select(events_table.c.event_id, events_table.c.type, events_table.c.body)).all()
    engine.dispose()
    ids = Counter(r.event_id for r in rows)
    lost = len({e.event_id for e in events} - set(ids))
    boards = Counter()
    for r in rows:
        if r.type == "BoardResultRecorded":
            body = json.loads(r.body)
            boards[(body["round"], body["table"], body["board"])] += 1
    source_boards = Counter((e.round, e.table, e.board) for e in events if e.type == "BoardResultRecorded")
    doubled = sum(n - 1 for n in ids.values() if n > 1) + sum(max(0, n - source_boards[k]) for k, n in boards.items())
    return lost, doubled


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--speed", type=float, default=15.0, help="board results per second (0: as fast as taken)")
    parser.add_argument("--gap", type=float, default=3.0, help="most seconds between two kills")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--database-url", default=None, help="the worker's database (default: a fresh SQLite file)")
    args = parser.parse_args()
    import os

    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    url = args.database_url or f"sqlite:///{tempfile.mkdtemp(prefix='soak-')}/worker.sqlite"
    events = events_through(load_source(TID), args.rounds)
    report = soak(events, args.kills, bootstrap=bootstrap, database_url=url, speed=args.speed, gap=args.gap, seed=args.seed)
    for line in report.lines():
        print(line)
    if args.rounds == 11 and report.expected_digest != REPLAY_DIGEST:
        print(f"the embedded replay gave {report.expected_digest}, olympiad replay {REPLAY_DIGEST}")
        return 1
    return 0 if report.ok(args.kills) else 1


if __name__ == "__main__":
    sys.exit(main())
