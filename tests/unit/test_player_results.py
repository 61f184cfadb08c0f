"""Issue 30, acceptance 1, 2 and 4: player results, rating performance by FIDE's table, board
prizes with the minimum of games, the CLI and the API serving the same rows, CSV escaping.

The public figures (Chennai 2022 board prizes): Gukesh 9/11 with a rating performance of 2867
(board 1), David Howell 7.5/8 with 2898 (board 3). The hand-worked cases read FIDE's table
(B.02 8.1.a): p = 1.00 -> dp 800, 0.75 -> 193, 0.50 -> 0, 0.83 -> 273, 0.25 -> -193, 0 -> -800.
"""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from olympiad.cli import app as cli
from processors.tournament import TournamentState
from producers.importers import chennai
from producers.sources import load_source
from projections.performance import dp, rating_performance
from projections.players import player_results
from projections.views.export import csv_text, safe_cell, standings_csv
from projections.views.paper import round_pairings_view
from projections.views.players import prizes_view
from projections.views.snapshot import Snapshot
from projections.views.teams import team_view
from projections.replay import replay
from tests.conftest import SHARED_DATA
from tests.factories import four_team_round_one
from tests.needs import missing
from tests.web_app import embedded_app

CHENNAI = SHARED_DATA / "olympiad-2022-chennai-open"
SAMARKAND = "samarkand-2026-open"
D = Decimal


def test_dp_reads_fides_table_both_ways():
    assert [dp(D(p)) for p in ("1", "0.99", "0.82", "0.75", "0.5", "0.25", "0.18", "0")] == \
        [800, 677, 262, 193, 0, -193, -262, -800]
    assert dp(D("0.9375")) == 444 and dp(D("0.8181")) == 262  # p rounded to the hundredth, .005 up
    assert dp(D("0.005")) == -677 and dp(D("0.004")) == -800
    with pytest.raises(ValueError):
        dp(D("1.01"))


def test_a_perfect_score_is_ra_plus_800():
    perf = rating_performance([(2400, D(1)), (2500, D(1)), (2600, D(1))])
    assert (perf.average, perf.percentage, perf.dp, perf.rating) == (2500, D("1.00"), 800, 3300)


def test_half_the_points_is_the_average_of_the_opponents():
    perf = rating_performance([(2000, D(1)), (2100, D(0)), (2200, D("0.5")), (2300, D("0.5"))])
    assert (perf.games, perf.points, perf.average, perf.dp, perf.rating) == (4, D(2), 2150, 0, 2150)


def test_no_point_is_ra_minus_800():
    perf = rating_performance([(1800, D(0)), (1900, D(0))])
    assert (perf.average, perf.dp, perf.rating) == (1850, -800, 1050)


def test_a_quarter_of_the_points_reads_the_table_backwards():
    perf = rating_performance([(2000, D(0)), (2000, D(1)), (2000, D(0)), (2000, D(0))])
    assert (perf.percentage, perf.dp, perf.rating) == (D("0.25"), -193, 1807)


def test_an_unrated_opponent_is_left_out_or_counted_at_the_profiles_rating():
    games = [(2400, D(1)), (None, D(1)), (2200, D("0.5"))]
    left_out = rating_performance(games)  # Ra of the rated opponents: 2300; 1.5 / 2 = 0.75 -> 193
    assert (left_out.games, left_out.average, left_out.percentage, left_out.rating) == (2, 2300, D("0.75"), 2493)
    at_1400 = rating_performance(games, unrated_as=1400)  # Ra 2000; 2.5 / 3 = 0.83 -> 273
    assert (at_1400.games, at_1400.average, at_1400.percentage, at_1400.rating) == (3, 2000, D("0.83"), 2273)
    assert rating_performance([(None, D(1))]) is None and rating_performance([]) is None


def test_ra_is_rounded_to_the_whole_number_half_up():
    perf = rating_performance([(2453, D(1)), (2454, D(0))])  # 2453.5 -> 2454
    assert (perf.average, perf.rating) == (2454, 2454)


@pytest.fixture(scope="module")
def chennai_players():
    if not CHENNAI.is_dir():
        missing(f"real data not found at {CHENNAI}")
    state = TournamentState()
    for event in chennai.load_events(CHENNAI):
        state.evolve(event)
    return state, player_results(state)


def test_chennai_gukesh_and_howell_have_their_public_figures(chennai_players):
    _, players = chennai_players
    by_name = {p.name: p for p in players.values()}
    gukesh, howell = by_name["Gukesh, D"], by_name["Howell, David W L"]
    assert (gukesh.score, len(gukesh.played), gukesh.nominated_board) == (D(9), 11, 1)
    assert (howell.score, len(howell.played), howell.nominated_board) == (D("7.5"), 8, 3)
    g, h = gukesh.performance(), howell.performance()
    assert (g.average, g.percentage, g.dp, g.rating) == (2605, D("0.82"), 262, 2867)
    assert (h.average, h.percentage, h.dp, h.rating) == (2454, D("0.94"), 444, 2898)


def test_chennai_board_prizes_go_to_gukesh_and_howell(chennai_players):
    state, _ = chennai_players
    view = prizes_view(Snapshot(state, {}))
    first = {b["board"]: b["rows"][0] for b in view["boards"]}
    assert (first[1]["name"], first[1]["performance"]["rating"]) == ("Gukesh, D", 2867)
    assert (first[3]["name"], first[3]["performance"]["rating"]) == ("Howell, David W L", 2898)
    assert all(r["played"] >= 8 for b in view["boards"] for r in b["rows"])


@pytest.fixture(scope="module")
def samarkand():
    events = load_source(SAMARKAND)
    return events, replay(events)


def test_prizes_apply_the_minimum_of_games_on_each_nominated_board(samarkand):
    _, result = samarkand
    state = result.state
    view = prizes_view(Snapshot(state, result.rounds))
    assert [b["board"] for b in view["boards"]] == [1, 2, 3, 4, 5] and view["boards"][4]["reserve"]
    assert view["min_games"] == state.profile.board_prize_min_games == 8
    players = player_results(state)
    for b in view["boards"]:
        ids = {r["player_id"] for r in b["rows"]}
        eligible = {p.player_id for p in players.values() if p.nominated_board == b["board"] and len(p.played) >= 8
                    and p.performance() is not None}
        assert ids == eligible and ids  # nobody with fewer than 8 games, nobody eligible left out
        ratings = [(r["performance"]["rating"], r["played"]) for r in b["rows"]]
        assert ratings == sorted(ratings, reverse=True)
    short = [p for p in players.values() if 0 < len(p.played) < 8 and p.nominated_board]
    assert short and not {p.player_id for p in short} & {r["player_id"] for b in view["boards"] for r in b["rows"]}


def test_the_cli_prints_the_five_tables_and_the_api_serves_the_same_rows(samarkand):
    events, result = samarkand
    out = CliRunner().invoke(cli, ["prizes", SAMARKAND])
    assert out.exit_code == 0, out.output
    for board in range(1, 5):
        assert f"Board {board}: " in out.output
    assert "Board 5 (reserve): " in out.output and "at least 8 games" in out.output
    as_json = CliRunner().invoke(cli, ["prizes", SAMARKAND, "--json"])
    printed = json.loads(as_json.output)
    top = printed["boards"][0]["rows"][0]
    line = out.output.splitlines()[5]  # title, status, blank, board 1's heading, columns, then its first row
    assert line.split()[0] == "1" and top["name"] in line and line.endswith(str(top["performance"]["rating"]))
    app, _, _ = embedded_app(events)
    with TestClient(app) as client:
        served = client.get(f"/api/tournaments/{SAMARKAND}/prizes").json()
    assert served == printed


def test_a_spreadsheet_reads_a_formula_as_text():
    text = csv_text(["team", "gp"], [['=HYPERLINK("x")', "2.5"], ["+cmd", "-1"], ["@SUM(A1)", "Cote d’Ivoire"]])
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[1] == ["'=HYPERLINK(\"x\")", "2.5"]
    assert rows[2] == ["'+cmd", "-1"]  # a number stays a number
    assert rows[3] == ["'@SUM(A1)", "Cote d’Ivoire"]
    assert safe_cell(None) == "" and safe_cell("\tx") == "'\tx" and safe_cell("Uzbekistan") == "Uzbekistan"


def test_the_standings_export_escapes_a_team_named_like_a_formula():
    events = [e.model_copy(update={"name": '=HYPERLINK("x")'}) if e.type == "TeamRegistered" and e.team_id == "A" else e
              for e in four_team_round_one()]
    app, _, _ = embedded_app(events)
    with TestClient(app) as client:
        tid = events[0].tournament_id
        answer = client.get(f"/api/tournaments/{tid}/export/standings.csv?round=1")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.text.lstrip("\ufeff"))))
    names = [r[2] for r in rows[1:]]
    assert "'=HYPERLINK(\"x\")" in names and not any(n.startswith("=") for n in names)
    state = TournamentState()
    for e in events:
        state.evolve(e)
    assert standings_csv(Snapshot(state, replay(events).rounds), 1) == answer.text


def test_a_rounds_pairing_names_the_players_and_the_teams_average_ratings(samarkand):
    _, result = samarkand
    snap = Snapshot(result.state, result.rounds)
    view = round_pairings_view(snap, 11)
    first = view["tables"][0]
    home = team_view(snap, first["home"]["team_id"])
    assert first["home_rating"] == home["average_rating"]
    ratings = sorted((p["rating"] or 0 for p in home["players"]), reverse=True)[:4]
    assert abs(home["average_rating"] - sum(ratings) / 4) <= 0.5  # the best four, rounded
    seated = home["rounds"][10]["boards"]
    assert [b["white_player"]["name"] if b["white"] == home["team_id"] else b["black_player"]["name"]
            for b in first["boards"]] == [b["player"]["name"] for b in seated]
    assert view["status"]["status"] == "complete" and len(view["alphabetical"]) == 2 * len(view["tables"])
