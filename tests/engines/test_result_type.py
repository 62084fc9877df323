"""Every engine's solve function returns the one result type, with its numbers filled in."""

from fractions import Fraction

import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import solve as exact_solve
from mastermind.engines.exact import solve_by_first_guess
from mastermind.engines.gamevalue import GameValue, game_value
from mastermind.engines.heuristics import ScoredStrategy
from mastermind.engines.heuristics import solve as heuristic_solve
from mastermind.engines.models.result import ModelRun
from mastermind.engines.result import Result


@pytest.fixture(scope="module")
def p2c3():
    return CodeTable(Rules(2, 3))


def test_exact_engine_returns_result(p2c3):
    result = exact_solve(p2c3)
    assert type(result) is Result and result.details is None
    assert (result.value, result.proven, result.lower_bound, result.upper_bound) == (21, True, 21, 21)
    by_first = solve_by_first_guess(p2c3)
    assert by_first and all(type(r) is Result for r in by_first)


def test_heuristics_engine_returns_result(p2c3):
    result = heuristic_solve(ScoredStrategy("minimax", p2c3))
    assert type(result) is Result
    # a heuristic proves no optimum: its total is an upper bound only
    assert not result.proven and result.lower_bound is None
    assert result.value == result.upper_bound == result.stats.total == result.tree.stats(p2c3).total


def test_game_value_engine_returns_result(p2c3):
    result = game_value(p2c3, solver="search")
    assert type(result) is Result and type(result.details) is GameValue
    assert result.proven and result.value == result.lower_bound == result.upper_bound == Fraction(29, 12)
    assert result.to_dict()["value_numerator"] == 29  # the game value's own JSON layout


def test_model_engines_return_result(p2c3):
    from mastermind.engines.models.cpsat_tree import depth_feasible, solve_tree
    from mastermind.engines.models.static import solve_static

    table = CodeTable(Rules(2, 2))
    tree = solve_tree(table, 3, time_limit=10, workers=1)
    assert type(tree) is Result and type(tree.details) is ModelRun
    assert (tree.value, tree.proven, tree.stats.total) == (8, True, 8)
    infeasible = depth_feasible(table, 2, time_limit=10, workers=1)
    assert type(infeasible) is Result and infeasible.details.infeasible and infeasible.value is None
    static = solve_static(p2c3, time_limit=10, workers=1)
    assert type(static) is Result and static.value == static.lower_bound == 2
    assert static.to_dict()["bound"] == 2  # the models' JSON keys
