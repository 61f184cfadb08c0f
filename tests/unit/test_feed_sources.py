"""Issue 29: the feed's sources behind one interface: a late arrival listed from the clocks of a
round (R-D5, zero tolerance), PGN and DGT over HTTP (a lichess broadcast stream read for a while),
the DGT board numbers, the poll interval's floor, a round not yet published, the command line."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from olympiad.cli import app as cli
from producers.doors import EmbeddedDoor
from producers.feeds.ingester import MIN_INTERVAL, Ingester
from producers.feeds.reading import Unreadable
from producers.feeds.sources import DgtUrl, PgnUrl, open_source
from projections.store import EventStore
from schemas import game_ids
from tests.factories import TID
from tests.feed_games import VIDIT_MAKOTO, feed_store, later, report, snapshot
from tests.unit.test_feed_bad import pgn


def test_a_player_who_has_not_moved_past_the_default_time_is_listed_once_as_a_possible_late_arrival():
    store = feed_store(default_time_s=60)
    report(store, snapshot("A player 1", "C player 1", VIDIT_MAKOTO[:4]), at=later(0))  # the round's clocks start
    report(store, snapshot("C player 2", "A player 2", [], game="round-1.pgn#2"), at=later(30))
    assert store.state.feed.late == {}
    report(store, snapshot("C player 2", "A player 2", [], game="round-1.pgn#2"), at=later(61))
    late = store.state.applied[game_ids.late(TID, 1, 1, 2, "white")]
    assert (late.player, late.waited_s, late.default_time_s) == ("C player 2", 61, 60)
    again = report(store, snapshot("C player 2", "A player 2", [], game="round-1.pgn#2"), at=later(90))
    assert again.already_recorded and (1, 1, 1) not in store.state.results


class _Feed(BaseHTTPRequestHandler):
    pages: dict[str, bytes] = {}

    def do_GET(self):  # noqa: N802 - http.server's name
        body = self.pages.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.end_headers()
        if body is not None:
            self.wfile.write(body)
            self.wfile.flush()

    def log_message(self, *args):
        pass


def serve(pages: dict[str, bytes]) -> tuple[ThreadingHTTPServer, str]:
    _Feed.pages = pages
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Feed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def test_pgn_and_dgt_over_http_and_a_stream_that_resends_a_game_keeps_its_last_copy():
    stream = (pgn("A player 1", "C player 1", VIDIT_MAKOTO[:4]) + pgn("C player 2", "A player 2", ["e4"], board=2)
              + pgn("A player 1", "C player 1", VIDIT_MAKOTO[:8]))
    index = {"pairings": [{"white": {"fname": "A", "lname": "player 1"}, "black": {"fname": "C", "lname": "player 1"}},
                          {"white": {"fname": "C", "lname": "player 2"}, "black": {"fname": "A", "lname": "player 2"}}]}
    game = {"moves": ["e4 5400", "e5 5395", "Nf3 5380+30"], "result": "*"}
    server, base = serve({"/api/stream/broadcast/round/x.pgn": stream.encode(), "/round-1/index.json": json.dumps(index).encode(),
                          "/round-1/game-2.json": json.dumps(game).encode()})
    try:
        games = PgnUrl(f"{base}/api/stream/broadcast/round/x.pgn", stream_s=0.5).poll()
        assert [(g.game, len(g.moves)) for g in games] == [("x.pgn#1", 8), ("x.pgn#2", 1)]
        dgt = open_source(f"{base}/round-1/index.json")
        assert isinstance(dgt, DgtUrl)
        first, second = dgt.poll()
        assert (first.board, first.moves, first.white) == (1, (), "player 1, A")
        assert (second.round, second.board, second.moves, second.white_clock, second.black_clock) == (1, 2, ("e4", "e5", "Nf3"), 5380, 5395)
    finally:
        server.shutdown()


def test_a_dgt_game_file_that_is_not_json_is_unreadable(tmp_path: Path):
    folder = tmp_path / "round-2"
    folder.mkdir()
    (folder / "index.json").write_text(json.dumps({"pairings": [{"white": {"lname": "x"}, "black": {"lname": "y"}}]}))
    (folder / "game-1.json").write_text("{")
    [read] = open_source(str(tmp_path)).poll()
    assert isinstance(read, Unreadable) and read.game == "round-2/game-1.json" and read.reason == "game file is not JSON"


def test_the_poll_interval_is_never_below_two_seconds(tmp_path: Path):
    waits = []

    class Stop:
        def is_set(self):
            return len(waits) >= 2

        def wait(self, seconds):
            waits.append(seconds)

    Ingester(lambda c: None, TID, []).run(interval=0.1, stop=Stop())
    assert MIN_INTERVAL == 2.0 and all(1.9 < w <= 2.0 for w in waits)


def test_a_game_of_a_round_not_yet_published_is_refused_and_sent_again_once_it_is(tmp_path: Path):
    store = feed_store()
    folder = tmp_path / "feed"
    folder.mkdir()
    (folder / "round-2.pgn").write_text(pgn("A player 1", "C player 1", ["e4"]).replace('[Round "1.1"]', '[Round "2.1"]'))
    ingester = Ingester(lambda c: EmbeddedDoor(store).submit(c), TID, [open_source(str(folder))])
    first = ingester.poll_once()
    assert (first.commands, first.problems, store.state.feed.problems) == (1, 0, {})
    assert ingester.poll_once().commands == 1  # not marked as sent: tried again


def test_olympiad_feed_polls_a_pgn_folder_into_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = f"sqlite:///{tmp_path / 'feed.sqlite'}"
    feed_store(url=db)
    folder = tmp_path / "pgn"
    folder.mkdir()
    (folder / "round-1.pgn").write_text(pgn("A player 1", "C player 1", VIDIT_MAKOTO, "1-0") + "[White \"broken\"\n\n1. e4 *\n")
    monkeypatch.chdir(tmp_path)  # the feed named relative to the working directory
    result = CliRunner().invoke(cli, ["feed", "pgn", "--tournament", TID, "--db", db, "--polls", "2", "--interval", "0"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"feed of {TID}: polling {folder} (PGN) every 2 s",  # the folder as an absolute path, the interval at least 2 s
        "2 games, 62 new moves, 1 ended, 5 events, 1 feed problems",
        f"feed problem (malformed-pgn): {folder} round-1.pgn#2: tag line '[White \"broken\"' is not [Name \"value\"] "
        "[field: game; rule: a feed is read as games]",
        "2 games: nothing new"]
    assert EventStore(db).state.results[(1, 1, 1)][1] == "1-0"

