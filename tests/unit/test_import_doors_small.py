"""A team listed twice in a CSV file is refused at its line, and an SQLite store's file path is
read as the store (findings of a new user's trial)."""
from __future__ import annotations

from pathlib import Path

import pytest

from producers.importers.team_csv import RowError, read_teams
from producers.sources import read_source
from projections.store import EventStore
from tests.factories import four_team_round_one, imported

HEADER = "team_id,team,federation,board,name\n"
ALPHA = "".join(f"A,Alpha,ENG,{b},a{b}\n" for b in range(1, 6))


def test_a_team_listed_twice_is_refused_at_the_first_repeated_row_naming_the_board() -> None:
    with pytest.raises(RowError) as refused:
        read_teams(HEADER + ALPHA + ALPHA)
    assert (refused.value.line, refused.value.column) == (7, "board")
    assert "team 'A' has board 1 already (line 2)" in str(refused.value)
    assert "R-D1" in refused.value.rule


def test_two_players_on_one_board_are_refused_at_the_second() -> None:
    with pytest.raises(RowError) as refused:
        read_teams(HEADER + "A,Alpha,ENG,1,a1\nA,Alpha,ENG,2,a2\nA,Alpha,ENG,2,a3\n")
    assert (refused.value.line, refused.value.column) == (4, "board")


def test_an_sqlite_stores_file_path_reads_as_the_store(tmp_path: Path) -> None:
    db = tmp_path / "olympiad.sqlite"
    store = EventStore(f"sqlite:///{db}")
    imported(store, four_team_round_one())
    by_path, by_url = read_source(str(db)), read_source(f"sqlite:///{db}")
    assert by_path.decided and [e.event_id for e in by_path.events] == [e.event_id for e in by_url.events]
    assert len(by_path.events) == len(four_team_round_one())
