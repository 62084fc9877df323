"""Every engine's solve function returns the one result type, with its numbers filled in."""

from fractions import Fraction

import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import SearchDetails, solve_by_first_guess
from mastermind.engines.exact import solve as exact_solve
from mastermind.engines.gamevalue import GameValue, game_value
from mastermind.engines.heuristics import ScoredStrategy
from mastermind.engines.heuristics import solve as heuristic_solve
from mastermind.engines.models.result import ModelRun
from mastermind.engines.result import Result, Status


@pytest.fixture(scope="module")
def p2c3():
    return CodeTable(Rules(2, 3))


def test_exact_engine_returns_result(p2c3):
    result = exact_solve(p2c3)
    assert (
        type(result) is Result and type(result.details) is SearchDetails and result.status is Status.OPTIMAL
    )
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
    assert result.to_dict()["average_fraction"] == "29/12"  # the game-value command's JSON layout


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


def test_a_result_is_frozen_and_changed_by_copy(p2c3):
    import dataclasses

    result = exact_solve(p2c3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.stopped = "interrupted"
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.counters.nodes = 0
    with pytest.raises(dataclasses.FrozenInstanceError):  # (its tree was renamed in place once)
        result.tree.name = "optimal"
    copy = dataclasses.replace(result, found_by="entropy")
    assert copy.found_by == "entropy" and result.found_by is None


def test_no_strategy_is_an_answer_with_its_own_status():
    from mastermind.engines.exact import Problem

    table = CodeTable(Rules(3, 4))
    result = exact_solve(table, Problem(max_guesses=2))
    assert result.status is Status.NO_STRATEGY and result.proven
    assert (result.value, result.tree, result.lower_bound, result.upper_bound) == (None, None, None, None)
    assert result.details.max_guesses == 2
    # no strategy: no secrets played and no average (they read 0 and 0.0 before)
    assert (result.secrets, result.average, result.worst, result.histogram) == (None, None, None, ())
    data = result.to_dict()
    assert (data["secrets"], data["average"]) == (None, None)


def test_a_result_without_a_value_or_with_zero_weights_has_no_average():
    unknown = Result(Rules(2, 3), "total", Status.UNKNOWN, None, 15, None, stopped="time limit")
    assert (unknown.average, unknown.secrets) == (None, None)
    zero = Result(Rules(2, 3), "total", Status.OPTIMAL, 0, 0, 0, weight_sum=0)
    assert zero.average is None
    assert Result(Rules(2, 3), "total", Status.FEASIBLE, 22, 20, 22, weight_sum=9).average == 22 / 9


def test_a_stopped_search_is_feasible_or_unknown_with_its_bounds():
    from mastermind.core.cancel import CancelToken
    from mastermind.engines.exact import Execution

    token = CancelToken()
    token.cancel("time limit")
    result = exact_solve(CodeTable(Rules(4, 6)), execution=Execution(units=True), cancel=token)
    assert result.status in (Status.FEASIBLE, Status.UNKNOWN) and not result.proven
    assert result.stopped == "time limit"
    assert (result.tree is None) == (result.status is Status.UNKNOWN)
    assert result.lower_bound is not None and result.lower_bound <= 5625


@pytest.mark.parametrize(
    "proven, found, status",
    [
        (True, True, "OPTIMAL"),
        (True, False, "NO_STRATEGY"),
        (False, True, "FEASIBLE"),
        (False, False, "UNKNOWN"),
    ],
)
def test_status_of_an_answer(proven, found, status):
    assert Status.of(proven=proven, found=found) is Status[status]
    assert Status[status].proven is proven


def test_the_exact_json_keeps_its_keys_in_order(p2c3):
    from mastermind.engines.exact import Problem

    data = exact_solve(p2c3, Problem(max_guesses=3, pool="consistent")).to_dict()
    # (the optimal command's keys, in its order: one layout)
    assert list(data) == [
        "rules",
        "codes",
        "objective",
        "max_guesses",
        "pool",
        "exists",
        "proven",
        "total",
        "average",
        "worst",
        "histogram",
        "secrets",
        "first_guess",
        "total_lower_bound",
        "total_upper_bound",
        "worst_lower_bound",
        "worst_upper_bound",
        "best_found",
        "stopped",
        "seconds",
        "nodes",
        "memo_hits",
        "units",
    ]


@pytest.mark.parametrize("weights", [[1] * 26 + [100], [0.5] * 26 + [100.25]])
def test_a_weighted_search_says_its_weighted_numbers_throughout(weights):
    """The weighted total and average beside the guesses' ones: 'total': 86 (the guesses)
    and 'total_lower_bound': 185 (weighted), with 'proven': true (trial 52)."""
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact import Problem

    result = exact_solve(CodeTable(Rules(3, 3)), Problem(weights=weights))
    data = result.to_dict()
    assert data["total"] == result.total == data["total_lower_bound"] == data["total_upper_bound"]
    assert data["average"] == round(result.average, 6)
    assert data["guesses_total"] == result.stats.total != result.total
