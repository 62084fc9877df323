from fractions import Fraction

import numpy as np
import pytest

from mastermind.engines.gamevalue.lp import solve_breaker_lp
from mastermind.engines.gamevalue.rational import solve_matrix_game


def check_certificate(payoff, value, rows, cols):
    """Row mix guarantees at least the value on every column, column mix at most on every row."""
    assert sum(rows) == 1 and sum(cols) == 1 and min(rows) >= 0 and min(cols) >= 0
    n_rows, n_cols = len(payoff), len(payoff[0])
    for j in range(n_cols):
        assert sum(rows[i] * payoff[i][j] for i in range(n_rows)) >= value
    for i in range(n_rows):
        assert sum(cols[j] * payoff[i][j] for j in range(n_cols)) <= value


def test_rock_paper_scissors_has_value_zero():
    payoff = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    value, rows, cols = solve_matrix_game(payoff)
    assert value == 0 and rows == [Fraction(1, 3)] * 3 and cols == [Fraction(1, 3)] * 3


def test_saddle_point():
    value, rows, cols = solve_matrix_game([[4, 5], [2, 7]])
    assert value == 4 and rows == [1, 0] and cols == [1, 0]


@pytest.mark.parametrize("seed", range(25))
def test_random_games_exact_certificate_and_glop_agree(seed):
    rng = np.random.default_rng(seed)
    n_rows, n_cols = rng.integers(1, 6), rng.integers(1, 9)
    payoff = rng.integers(1, 9, size=(n_rows, n_cols)).tolist()
    value, rows, cols = solve_matrix_game(payoff)
    check_certificate(payoff, value, rows, cols)
    # the breaker LP takes trees as rows of class totals and classes of size 1
    glop = solve_breaker_lp(np.array(payoff).T.tolist(), [1] * n_rows)
    assert glop.value == pytest.approx(float(value), abs=1e-9)
    assert sum(glop.maker) == pytest.approx(1.0)
    for j in range(n_cols):  # GLOP's maker prices also guarantee the value
        assert sum(glop.maker[i] * payoff[i][j] for i in range(n_rows)) >= glop.value - 1e-9


def test_lp_scales_by_class_size():
    # two classes of 1 and 3 codes; tree totals are sums over the class
    glop = solve_breaker_lp([[2, 3]], [1, 3])
    assert glop.value == pytest.approx(2.0)
    assert glop.maker == pytest.approx([1.0, 0.0])
