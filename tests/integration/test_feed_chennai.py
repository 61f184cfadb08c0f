"""Issue 29, acceptance 1: the Chennai 2022 Open PGN replayed as a live feed (per-round PGN files
written as the games progress, one round as DGT LiveChess Cloud JSON), with automatic
confirmation: every played board's result equals ``boards.csv`` and every match's game points
equal ``matches.json``, on the embedded store and through a real broker: all 11 rounds, fast mode
(two rounds written in two steps, the others ended at once; round 11 as DGT JSON), each poll's
games sent in one batch (``submit_all``)."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from producers.doors import EmbeddedDoor
from producers.feeds.ingester import Ingester
from producers.feeds.sources import open_source
from producers.sources import IMPORTER
from projections.store import EventStore
from schemas.commands import ImportFacts
from tests.chennai_feed import ChennaiReplay, expected, facts
from tests.conftest import SHARED_DATA

DATA = SHARED_DATA / "olympiad-2022-chennai-open"
DGT_ROUND = 11


def replay(submit: Any, submit_all: Any, tid_facts: tuple[list, dict], out: Path, rounds: range,
           dgt_round: int | None) -> Ingester:
    """Import the facts, then per round its pairing and write its games (the first round and
    ``dgt_round``, written as DGT JSON, in two steps: under way, then ended; the others ended), the
    ingester polling after each step and sending the poll's games through ``submit_all``."""
    head, per_round = tid_facts
    tid = head[0].tournament_id
    writer = ChennaiReplay(DATA, out / "pgn", out / "dgt")
    sources = [open_source(str(out / "pgn"))] + ([open_source(str(out / "dgt"), "dgt")] if dgt_round else [])
    ingester = Ingester(submit, tid, sources, submit_all=submit_all)
    assert submit(ImportFacts(tournament_id=tid, actor=IMPORTER, source="chennai facts", facts=head)).accepted
    for r in rounds:
        outcome = submit(ImportFacts(tournament_id=tid, actor=IMPORTER, source=f"chennai round {r}", facts=per_round[r]))
        assert outcome.accepted, outcome.text()
        for step in (0.4, 1.0) if r in (rounds[0], dgt_round) else (1.0,):  # fast mode: most rounds in one step
            writer.write(r, step, dgt=r == dgt_round)
            report = ingester.poll_once()
            assert not report.failed and report.problems == 0 and report.unanswered == 0, report
    return ingester


def check(state: Any, rounds: range) -> None:
    """Every played board's result is ``boards.csv``'s; every match's game points on its played
    boards are ``matches.json``'s."""
    boards, matches = expected(DATA)
    played = {k: v for k, v in boards.items() if k[0] in rounds}
    assert {k: state.results[k][1] for k in played if k in state.results} == played
    for (r, t), (home, away, present) in matches.items():
        if r not in rounds:
            continue
        gp = [0.0, 0.0]
        for b in present:
            code = state.results[(r, t, b)][1]
            white = 1.0 if code == "1-0" else 0.5 if code == "1/2-1/2" else 0.0
            black = 1.0 - white if code in ("1-0", "0-1", "1/2-1/2") else 0.0
            gp[0 if b % 2 else 1] += white
            gp[1 if b % 2 else 0] += black
        assert (gp[0], gp[1]) == (home, away), (r, t)


def test_the_chennai_pgn_replayed_live_on_the_embedded_store_gives_every_board_and_match_result(tmp_path: Path) -> None:
    store = EventStore("sqlite://")
    door = EmbeddedDoor(store)
    rounds = range(1, 12)
    ingester = replay(door.submit, door.submit_all, facts(DATA), tmp_path, rounds, DGT_ROUND)
    state = store.refresh()
    check(state, rounds)
    assert all(state.round_complete(r) for r in rounds) and ingester.problems == []
    ended = sum(1 for e in store.events() if e.type == "GameEnded")
    assert ended == 4069  # every game of the PGN but the 0-0 one, which never ends (its board is a double forfeit)
    assert sum(1 for k, g in state.feed.games.items() if k[0] == DGT_ROUND and g.source.endswith("dgt")) == 367


@pytest.mark.integration
def test_the_chennai_pgn_replayed_live_through_kafka_gives_every_board_and_match_result(kafka_bootstrap: str,
                                                                                     fresh_database: Any,
                                                                                     tmp_path: Path) -> None:
    from olympiad.cmd_live import LivePipeline
    from producers.doors import KafkaDoor

    prefix = f"f{uuid.uuid4().hex[:10]}."
    rounds = range(1, 12)
    with LivePipeline(kafka_bootstrap, prefix, fresh_database()) as pipeline:
        door = KafkaDoor(kafka_bootstrap, prefix, wait=60)
        recorded: list[str] = []

        def submit(command: Any) -> Any:
            outcome = door.submit(command)
            recorded.extend(outcome.event_ids)
            return outcome

        def submit_all(commands: list[Any]) -> list[Any]:
            outcomes = door.submit_all(commands)
            recorded.extend(i for o in outcomes if o is not None for i in o.event_ids)
            return outcomes

        try:
            tid_facts = facts(DATA)
            ingester = replay(submit, submit_all, tid_facts, tmp_path, rounds, DGT_ROUND)
            state, _ = door.log(tid_facts[0][0].tournament_id, recorded[-1], timeout=60)  # the log through the last verdict
            check(state, rounds)
            assert all(state.round_complete(r) for r in rounds) and ingester.problems == []
            assert sum(1 for e in state.applied.values() if e.type == "GameEnded") == 4069
            assert sum(1 for k, g in state.feed.games.items() if k[0] == DGT_ROUND and g.source.endswith("dgt")) == 367
        finally:
            door.close()
        pipeline.check()
