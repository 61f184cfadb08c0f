"""Issue 29, acceptance 5: each kind of bad feed is named for the arbiter and kept (its
``FeedProblemReported`` holds the text: the dead letter), and the feed goes on; one run survives
them all."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from producers.doors import EmbeddedDoor
from producers.feeds.ingester import Ingester
from producers.feeds.sources import DgtFiles, PgnFiles
from schemas.profile import OLYMPIAD_2008
from tests.factories import TID, created, paired, stored, team
from tests.feed_games import FEED, VIDIT_MAKOTO, feed_store, later

GOOD = ("A player 1", "C player 1")


def pgn(white: str, black: str, moves: list[str], result: str = "*", board: int = 1, extra: str = "") -> str:
    """One game's PGN (round 1)."""
    body = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))
    return (f'[Event "Test"]\n[Round "1.1"]\n[Board "{board}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n{extra}\n{body} {result}\n\n')


def feed(tmp_path: Path, store, *texts: str) -> tuple[Ingester, Path]:
    """An ingester of the folder ``tmp_path/feed`` holding ``round-1.pgn`` = ``texts``."""
    folder = tmp_path / "feed"
    folder.mkdir(exist_ok=True)
    (folder / "round-1.pgn").write_text("".join(texts), encoding="utf-8")
    ticks = iter(range(1000))
    return Ingester(EmbeddedDoor(store).submit, TID, [PgnFiles(folder)], FEED, now=lambda: later(next(ticks))), folder


def problems(store, kind: str) -> list:
    return [p for p in store.state.feed.problems.values() if p.kind == kind]


def test_a_malformed_pgn_is_named_and_kept_and_the_next_game_is_read(tmp_path: Path):
    store = feed_store()
    broken = pgn("A player 2", "C player 2", ["e4", "e5", "Ke3"], board=2)  # 2. Ke3 is not legal
    ingester, _ = feed(tmp_path, store, broken, pgn(*GOOD, VIDIT_MAKOTO, "1-0"))
    report = ingester.poll_once()
    [problem] = problems(store, "malformed-pgn")
    assert problem.game == "round-1.pgn#1" and "Ke3 is not legal" in problem.reason
    assert json.loads(f'"{problem.copy_text}"') == broken.strip()
    assert problem.copy_sha256 == hashlib.sha256(broken.strip().encode()).hexdigest()
    assert store.state.results[(1, 1, 1)][1] == "1-0" and report.problems == 1
    assert ingester.poll_once().commands == 0  # the same bad text is not reported twice


def test_a_game_that_maps_to_no_board_is_named(tmp_path: Path):
    store = feed_store()
    ingester, _ = feed(tmp_path, store, pgn("Stranger, A", "Nobody, B", ["d4"]))
    report = ingester.poll_once()
    [problem] = problems(store, "unmapped-game")
    assert problem.reason == ("game.white: neither White 'Stranger, A' (no FIDE id) nor Black 'Nobody, B' (no FIDE id) is a "
                              "nominated player of a team (looked up by FIDE id, then by name) "
                              "[rule: a game maps to one board through the line-ups]")
    assert problem.rule == "a game maps to one board through the line-ups" and store.state.feed.games == {}
    folder = tmp_path / "feed"
    assert report.notes == [f"feed problem (unmapped-game): {folder} round-1.pgn#1: 'Stranger, A' v 'Nobody, B' maps to no "
                            "board of the round: tried the FIDE ids (white none, black none), then the names, in the teams' "
                            "line-ups [field: game.white, game.black; rule: a game maps to one board through the line-ups]"]


def test_two_games_claiming_one_board_are_named_and_the_first_keeps_it(tmp_path: Path):
    store = feed_store()
    second = pgn("A player 1", "C player 2", ["e4"], board=1)  # C player 2 on board 1: a board swap
    ingester, _ = feed(tmp_path, store, pgn(*GOOD, ["d4"]), second)
    ingester.poll_once()
    [claim] = problems(store, "board-claimed-twice")
    assert (claim.round, claim.table, claim.board) == (1, 1, 1) and claim.game == "round-1.pgn#2"
    assert "holds A player 1 v C player 1" in claim.reason and claim.rule == "one game per board"
    assert store.state.feed.games[(1, 1, 1)].black == "C player 1"


def test_a_result_that_flips_raises_a_problem_and_the_board_result_stands(tmp_path: Path):
    store = feed_store()
    ingester, folder = feed(tmp_path, store, pgn(*GOOD, VIDIT_MAKOTO, "1-0"))
    ingester.poll_once()
    (folder / "round-1.pgn").write_text(pgn(*GOOD, VIDIT_MAKOTO, "0-1"), encoding="utf-8")
    ingester.poll_once()
    [flip] = problems(store, "result-flipped")
    assert flip.result == "0-1" and "reported 1-0" in flip.reason
    assert store.state.results[(1, 1, 1)][1] == "1-0"
    assert store.state.feed.games[(1, 1, 1)].changed_to == "0-1"


def test_the_ingester_survives_every_bad_feed_in_one_run_and_a_source_that_fails_backs_off(tmp_path: Path):
    store = feed_store()
    dgt = tmp_path / "dgt" / "round-1"
    dgt.mkdir(parents=True)
    (dgt / "index.json").write_text('{"pairings": [{"white": {"lname": "player 2", "fname": "D"}, '
                                    '"black": {"lname": "player 2", "fname": "B"}, "result": "*"}]}', encoding="utf-8")
    (dgt / "game-1.json").write_text("{not json", encoding="utf-8")
    texts = [
        pgn(*GOOD, VIDIT_MAKOTO, "1-0"),
        '[White "A player 2"\n\n1. e4 *\n\n',  # a tag line that is not [Name "value"]
        pgn("Stranger, A", "Nobody, B", ["d4"]),
        pgn("A player 1", "C player 2", ["e4"], board=1),  # a second game on board 1
        pgn("B player 4", "D player 4", ["e4", "e5"], "1/2-1/2", board=4),
    ]
    ingester, folder = feed(tmp_path, store, *texts)
    missing = PgnFiles(tmp_path / "gone")
    ingester.sources += [missing, DgtFiles(tmp_path / "dgt")]
    first = ingester.poll_once(interval=2.0)
    assert list(first.failed) == [str(tmp_path / "gone")] and ingester.failures[missing.name] == 1
    texts[0] = pgn(*GOOD, VIDIT_MAKOTO, "1/2-1/2")  # the feed flips its result
    (folder / "round-1.pgn").write_text("".join(texts), encoding="utf-8")
    second = ingester.poll_once(interval=2.0)
    assert second.failed == {}  # the failed source waits its back-off; the others are read
    kinds = sorted(p.kind for p in store.state.feed.problems.values())
    assert kinds == ["board-claimed-twice", "malformed-pgn", "malformed-pgn", "result-flipped", "unmapped-game"]
    notes = first.notes + second.notes  # one line per problem for the operator, naming the game, the field and the rule
    assert [n.split(":", 1)[0] for n in notes] == ["feed problem (malformed-pgn)", "feed problem (unmapped-game)",
                                                   "feed problem (board-claimed-twice)", "feed problem (malformed-pgn)",
                                                   "feed problem (result-flipped)"]
    assert all("[field: " in n and "; rule: " in n and "\n" not in n for n in notes), notes
    assert notes[2].endswith("round-1.pgn#4: A player 1 v C player 2 claims a board another game of the feed holds (a board "
                             "swap?) [field: game.board; rule: one game per board]")
    assert notes[3] == (f"feed problem (malformed-pgn): {tmp_path / 'dgt'} round-1/game-1.json: game file is not JSON "
                        "[field: game; rule: a feed is read as games]")
    assert notes[4].endswith("round-1.pgn#1: the result is now 1/2-1/2, not the one the feed reported: the board's result "
                             "stands, the arbiter decides [field: game.result; rule: a reported result is not overwritten]")
    assert {k: v[1] for k, v in store.state.results.items()} == {(1, 1, 1): "1-0", (1, 2, 4): "1/2-1/2"}


def test_a_name_as_registered_maps_before_its_loose_key_that_another_player_shares(tmp_path: Path):
    """A roster's "Player 1.2" and "Player 2.1" share the loose key (word order and punctuation
    ignored): the game of "Player 3.2" v "Player 1.2" maps by the names as spelt, to table 1 board 2
    (A home has White on the odd boards, so C's board 2 has White, R-D4)."""
    def numbered(code: str, number: int):
        base = team(code, number)
        return base.model_copy(update={"players": tuple(p.model_copy(update={"name": f"Player {number}.{p.board_order}"})
                                                         for p in base.players)})

    profile = OLYMPIAD_2008.model_validate({**OLYMPIAD_2008.model_dump(), "feed_results": "automatic"})
    store = stored([created(profile), *(numbered(c, n) for n, c in enumerate("ABCD", start=1)),
                    paired(1, [("A", "C"), ("D", "B")])])
    ingester, _ = feed(tmp_path, store, pgn("Player 3.2", "Player 1.2", VIDIT_MAKOTO, "0-1", board=2))
    report = ingester.poll_once()
    assert report.problems == 0 and store.state.results[(1, 1, 2)][1] == "0-1"
