"""The models engine's answers for one game (what ``bounds``, ``cpsat`` and ``static`` print):
the bounds level by level, the depth planned for the strategy-tree model and what it proves,
against the bounds and searches they are made of."""

import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Problem, solve
from mastermind.engines.models import (
    game_bounds,
    level_bounds,
    lookahead_total_bound,
    lookahead_totals_by_first_guess,
    lookahead_worst_bound,
    plan_depth,
    solve_cpsat,
    static_answer,
    static_document,
)


@pytest.mark.parametrize("rules", [Rules(3, 3), Rules(3, 4), Rules(2, 5, False)], ids=str)
def test_level_bounds_are_the_bounds_of_each_level(rules):
    table = CodeTable(rules)
    found = level_bounds(table, 2, refined=True)
    assert found.stopped is None and found.levels_finished == 2
    for k in (1, 2):
        assert found.worst[f"lookahead_{k}"] == lookahead_worst_bound(table, k)
        assert found.total[f"lookahead_{k}"] == lookahead_total_bound(table, k)
    assert found.total["refined_2"] == lookahead_total_bound(table, 2, refined=True)
    by_first = lookahead_totals_by_first_guess(table, 2, refined=True)
    assert found.by_first_guess == dict(by_first) and found.by_first_guess_bound == "refined_2"
    optimum = solve(table)
    assert found.total_lower_bound <= optimum.total and found.worst_lower_bound <= optimum.worst
    assert game_bounds(table).total <= found.total_lower_bound
    data = found.to_dict()
    assert data["proven"] and data["total_lower_bound"] == found.total_lower_bound
    assert [e["total_lower_bound"] for e in data["by_first_guess"]] == list(by_first.values())


def test_level_bounds_stopped_keep_no_part_of_a_level():
    token = CancelToken()
    token.cancel("time limit")
    found = level_bounds(CodeTable(Rules(3, 4)), 2, cancel=token)
    assert found.stopped == "time limit" and found.levels_finished == 0
    assert set(found.total) == {"perfect_tree"} and found.by_first_guess_bound is None


def test_refined_needs_a_level():
    with pytest.raises(MastermindError, match="--levels 1 or more"):
        level_bounds(CodeTable(Rules(2, 3)), 0, refined=True)


@pytest.mark.parametrize("rules", [Rules(2, 2), Rules(2, 3), Rules(3, 2)], ids=str)
def test_the_default_depth_leaves_room_above_the_bound(rules):
    table = CodeTable(rules)
    plan = plan_depth(table)
    assert plan.worst_bound == lookahead_worst_bound(table, 1)
    assert plan.depth == min(plan.worst_bound + 1, table.n) and plan.wanted is None
    answer = solve_cpsat(table, plan, time_limit=60, workers=1, seed=1)
    optimum = solve(table, Problem(max_guesses=plan.depth))
    data = answer.to_dict()
    assert answer.optimal and data["total"] == optimum.total and data["exists"] is True
    assert data["max_guesses"] == plan.depth and data["worst_lower_bound"] == plan.worst_bound


def test_a_depth_refuted_bounds_the_worst_case():
    table = CodeTable(Rules(2, 3))
    worst = solve(table, Problem(objective="worst")).worst
    plan = plan_depth(table, worst - 1)
    answer = solve_cpsat(table, plan, feasible=True, time_limit=60, workers=1)
    assert answer.exists is False and answer.worst_lower_bound == worst
    feasible = solve_cpsat(table, plan_depth(table, worst), feasible=True, time_limit=60, workers=1)
    data = feasible.to_dict()
    assert feasible.exists and data["worst"] == worst == data["worst_upper_bound"]  # the bounds meet


def test_a_depth_out_of_reach_is_refused():
    with pytest.raises(MastermindError, match="out of reach"):
        plan_depth(CodeTable(Rules(4, 6)), 8)


def test_static_document_of_a_proven_set():
    table = CodeTable(Rules(2, 3))
    result = static_answer(table, time_limit=60, workers=1, seed=1)
    data = static_document(result, 1)
    assert data["proven"] and data["guesses"] == len(data["guess_set"]) == result.value
    assert data["best_found"] is None and data["seed"] == 1
