"""The board-to-match fold (R-D2, R-D3, R-D4, R-D8) and its use through the tournament state."""
from decimal import Decimal

from processors.scoring import board_points, fold_match
from processors.tournament import TournamentState
from projections.history import build_history
from schemas.profile import MatchPointScale
from tests.factories import four_team_round_one

SCALE = MatchPointScale()


def test_board_points_follow_the_home_colour_by_board():
    # R-D4: the home team is White on boards 1 and 3, Black on 2 and 4.
    assert board_points("1-0", 1) == (Decimal(1), Decimal(0), True)
    assert board_points("1-0", 2) == (Decimal(0), Decimal(1), True)
    assert board_points("1/2-1/2", 4) == (Decimal("0.5"), Decimal("0.5"), True)
    assert board_points("-/+", 3) == (Decimal(0), Decimal(1), False)


def test_win_draw_loss_and_in_progress():
    win = fold_match({1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}, 4, SCALE)
    assert (win.home_gp, win.away_gp, win.home_mp, win.away_mp, win.complete) == (Decimal(3), Decimal(1), 2, 0, True)
    draw = fold_match({1: "1-0", 2: "1-0", 3: "0-1", 4: "0-1"}, 4, SCALE)
    assert (draw.home_gp, draw.home_mp, draw.away_mp) == (Decimal(2), 1, 1)
    partial = fold_match({1: "1-0"}, 4, SCALE)
    assert (partial.home_gp, partial.home_mp, partial.complete, partial.boards_in) == (Decimal(1), None, False, 1)


def test_whole_forfeit_is_a_four_nil_match_that_was_not_played():
    m = fold_match({1: "+/-", 2: "-/+", 3: "+/-", 4: "-/+"}, 4, SCALE)
    assert (m.home_gp, m.away_gp, m.home_mp, m.away_mp, m.played) == (Decimal(4), Decimal(0), 2, 0, False)


def test_double_forfeited_board_scores_on_board_points():
    # Samarkand 2026 R1 Sudan 3-0 Kiribati: board 2 double forfeit; 3-0 is a win (spec README 1).
    m = fold_match({1: "1-0", 2: "-/-", 3: "1-0", 4: "0-1"}, 4, SCALE)
    assert (m.home_gp, m.away_gp, m.home_mp, m.away_mp, m.played) == (Decimal(3), Decimal(0), 2, 0, True)


def test_match_forfeited_by_both_teams_is_lost_by_both():
    m = fold_match({b: "-/-" for b in range(1, 5)}, 4, SCALE)
    assert (m.home_mp, m.away_mp) == (0, 0)


def test_history_of_a_small_round():
    state = TournamentState()
    for e in four_team_round_one():
        state.evolve(e)
    h = build_history(state, 1)
    a, c, d, b = (h.rounds[1][t] for t in "ACDB")
    assert (a.gp, a.mp, a.colour, a.opponent) == (Decimal(3), 2, "W", "C")
    assert (c.gp, c.mp, c.colour) == (Decimal(1), 0, "B")
    assert (d.gp, d.mp, b.gp, b.mp) == (Decimal(2), 1, Decimal(2), 1)
