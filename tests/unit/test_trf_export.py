"""TRF-2026 export (issue 14, acceptance 3): the team records in their FIDE columns, and gacrux
1.11.65 reading the exported Samarkand 2026 Open and Chennai 2022 files with exit status 0 and
finding every team's MP and GP equal to ours (it rebuilds the matches from the 001 records, the
300/330/320 records and the 362/162 point systems on its own)."""
from __future__ import annotations

from decimal import Decimal
from functools import cache

import pytest
from typer.testing import CliRunner

from olympiad.cli import app as cli
from tests.needs import missing

from projections.replay import replay
from producers.sources import load_source
from projections.trf import export_trf
from projections.trf import records as rec
from tests.conftest import SHARED_DATA
from tests.gacrux_tool import require_gacrux, tiebreaks

CHENNAI = SHARED_DATA / "olympiad-2022-chennai-open"


@cache
def samarkand_events() -> tuple:
    return tuple(load_source("samarkand-2026-open"))


def lines(text: str, tag: str) -> list[str]:
    return [line for line in text.split("\r") if line.startswith(tag)]


@pytest.fixture(scope="module")
def round_3() -> str:
    return export_trf(samarkand_events(), 3)


def test_lines_end_with_cr_and_tournament_records(round_3):
    assert "\n" not in round_3 and round_3.endswith("\r")
    assert lines(round_3, "012") == ["012 46th Chess Olympiad 2026, Open"]
    assert lines(round_3, "082") == ["082 206"]
    assert lines(round_3, "142") == ["142 11"]
    assert lines(round_3, "352") == ["352 WBWB"]
    # trf-teams.md §1.2: the spec-exact 362 line; 162 symbols at columns 6, 15, 24, 33 (TRF26; gacrux reads a
    # symbol at column 6 + 9k only) with P written out.
    assert lines(round_3, "362") == ["362 TW 2.0   TD 1.0   TL 0.0"]
    assert lines(round_3, "162") == ["162  W 1.0    D 0.5    L 0.0    P 0.5"]
    assert lines(round_3, "192") == ["192 CUSTOM_TEAM_SWISS_MP"]
    assert lines(round_3, "212") == ["212 MPTS,EMGSB/C1,GPTS,BH:MP/C1"]


def test_team_records_in_their_columns(round_3):
    usa = lines(round_3, "310")[0]
    assert rec.field(usa, rec.TEAM_TPN) == "1" and rec.field(usa, rec.TEAM_NAME) == "United States of America"
    assert rec.field(usa, rec.TEAM_NICKNAME) == "USA"
    assert (rec.field(usa, rec.TEAM_MP), rec.field(usa, rec.TEAM_GP), rec.field(usa, rec.TEAM_RANK)) == ("6.0", "8.5", "13")
    assert usa[71:73] == "  "  # gacrux warns (467) on anything in columns 72-73
    assert usa[73:] == "   1    2    3    4    5"
    assert lines(round_3, "013")[0] == "013 United States of America           1    2    3    4    5"
    # Samarkand round 1: Bolivia (22) won the whole match against the absent Central African Republic (124).
    assert lines(round_3, "330") == ["330 +-   1  22 124"]
    # PAB: 1 MP and 2 GP; none in rounds 1-2 (the arbiter-made tables), Kiribati (205) in round 3.
    assert lines(round_3, "320") == ["320  1.0  2.0 000 000 205"]
    assert lines(round_3, "240")[0] == "240 Z 001 0091 0134 0189 0206"
    # Round 3, Haiti (198): the players nominated 3rd and 4th played on boards 4 and 3.
    assert lines(round_3, "300") == ["300   3 198 169 0984 0986 0989 0988"]


def test_player_points_are_the_standard_score(round_3):
    """TRF26 §1.6: 001 points = own results at W=1, D=1/2, L=0 plus forfeit wins (bbpPairings refuses
    a file whose column 81-84 disagrees with the recomputed score)."""
    for line in lines(round_3, "001"):
        letters = [line[rec.round_columns(r)[2] - 1] for r in (1, 2, 3) if len(line) >= rec.round_columns(r)[2]]
        score = sum((rec.STANDARD_POINTS.get(x, Decimal(0)) for x in letters), Decimal(0))
        assert Decimal(rec.field(line, rec.PLAYER_POINTS)) == score, line
    caruana = lines(round_3, "001")[0]
    assert caruana[:47].rstrip() == "001    1    g Caruana, Fabiano"
    assert caruana[91:] == "          0252 b 1  0121 b ="


def test_through_round_is_the_log_before_the_next_pairing():
    """The round-10 file holds Angola 3.5-0.5 Myanmar as published; the round-11 file the correction."""
    events = samarkand_events()
    angola = {r: next(line for line in lines(export_trf(events, r), "310") if "Angola" in line) for r in (10, 11)}
    assert rec.field(angola[10], rec.TEAM_GP) == "21.0"  # with 3.5 against Myanmar in round 10
    assert rec.field(angola[11], rec.TEAM_GP) == "23.5"  # 21 - 1 (the correction) + 3.5 in round 11


def test_a_round_not_paired_is_refused():
    with pytest.raises(ValueError, match="round 12 has not been paired"):
        export_trf(samarkand_events(), 12)


@pytest.mark.parametrize("event", ["samarkand-2026-open", "chennai-2022-open"])
def test_gacrux_reads_the_export_with_status_0_and_our_mp_and_gp(event, tmp_path):
    """Issue 26 point 4: ``olympiad export-trf SOURCE X.trf`` (default options: Latin-1) read by
    ``python -m gacrux.tiebreakchecker -i X.trf -t MPTS GPTS`` with gacrux's default options."""
    require_gacrux()
    source = "samarkand-2026-open"
    if event == "chennai-2022-open":
        if not CHENNAI.is_dir():
            missing(f"real data not found at {CHENNAI}")
        source = str(CHENNAI)
    path = tmp_path / f"{event}.trf"
    done = CliRunner().invoke(cli, ["export-trf", source, str(path)])
    assert done.exit_code == 0, done.output
    status, block, values = tiebreaks(path, ["MPTS", "GPTS"], encoding=None)
    assert (status, block["code"], block["error"]) == (0, 0, []), block
    rows = replay(load_source(source)).rounds[11].rows
    assert len(values) == len(rows)
    assert {r.pairing_number: [Decimal(r.mp), r.gp] for r in rows} == values
