"""Work units (mastermind.engines.exact.units): one subproblem run under a budget gives its exact
cost with an optimal subtree below the budget, else a proven bound at least the budget; its key
names the subproblem whatever the budget; a stopped run's unit proves nothing. Values are checked
against the plain memoized search of tests/engines/exact/reference.py."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import StrategyTree
from mastermind.engines.exact.search import INF, UNLIMITED
from mastermind.engines.exact.units import (
    SearchSpec,
    Unit,
    UnitResult,
    forget_run,
    run_flag,
    run_unit,
    set_run_flag,
    share_table,
    table_for,
)

from .reference import reference_cost


def _identity(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    return np.arange(rules.pegs, dtype=np.int8)[None, :], np.arange(rules.colors, dtype=np.int8)[None, :]


def _spec(table: CodeTable, *, consistent: bool = False, weights: np.ndarray | None = None) -> SearchSpec:
    return SearchSpec(str(table.rules), consistent, 1, 0, table.n, weights)


def _classes(table: CodeTable, guess: int) -> list[np.ndarray]:
    """The classes ``guess`` splits every code into, but the one it wins."""
    scores = table.scores
    assert scores is not None
    row = scores[guess]
    return [np.flatnonzero(row == a).astype(np.int32) for a in np.unique(row) if a != table.rules.win_index]


def _run(spec: SearchSpec, unit: Unit) -> UnitResult:
    """The unit in a run of its own (no memo shared with another test's units)."""
    run_id = uuid.uuid4().hex
    try:
        return run_unit(spec, run_id, unit)
    finally:
        forget_run(run_id)


@pytest.mark.parametrize("text", ["p2c3", "p3c3", "p2c4"])
def test_a_unit_below_its_budget_gives_the_exact_cost_and_an_optimal_subtree(text):
    table = CodeTable(Rules.parse(text))
    spec, group = _spec(table), _identity(table.rules)
    checked = 0
    for guess in (0, table.n - 1):
        for cands in _classes(table, guess):
            truth = reference_cost(table, cands.tolist())
            result = _run(spec, Unit(cands, UNLIMITED, INF, *group))
            assert result.proven and not result.reused and result.value == truth
            assert result.tree is not None and result.tree.candidates == len(cands)
            # the subtree plays every secret of the class in the cost it claims
            depths = StrategyTree(table.rules, result.tree).depths(table, cands)
            assert depths.sum() == truth
            checked += 1
    assert checked >= 4


def test_a_budget_not_above_the_cost_gives_a_bound_at_least_the_budget_and_no_tree():
    table = CodeTable(Rules(3, 3))
    spec, group = _spec(table), _identity(table.rules)
    cands = max(_classes(table, 0), key=len)  # (12 secrets)
    truth = reference_cost(table, cands.tolist())
    for budget in (truth, truth - 1, truth - 5, float(len(cands))):
        result = _run(spec, Unit(cands, UNLIMITED, float(budget), *group))
        assert result.proven and result.tree is None
        assert budget <= result.value <= truth
    # just above the cost: exact again
    result = _run(spec, Unit(cands, UNLIMITED, truth + 1, *group))
    assert result.value == truth and result.tree is not None


def test_a_unit_with_its_first_guess_fixed_costs_that_guess_played_first():
    table = CodeTable(Rules(3, 3))
    spec, group = _spec(table), _identity(table.rules)
    cands = max(_classes(table, 0), key=len)
    scores = table.scores
    assert scores is not None
    costs = {}
    # (guesses that tell some of its secrets apart: one that tells none apart is never made)
    telling = [g for g in range(table.n) if len(np.unique(scores[g, cands])) > 1]
    for guess in (int(cands[0]), int(cands[-1]), telling[0], telling[len(telling) // 2]):
        row = scores[guess, cands]
        # one guess for every secret, then each class the guess leaves, from scratch
        truth = len(cands) + sum(
            reference_cost(table, cands[row == a].tolist())
            for a in np.unique(row)
            if a != table.rules.win_index
        )
        result = _run(spec, Unit(cands, UNLIMITED, INF, *group, guess=guess))
        assert result.proven and result.value == truth
        assert result.tree is not None and result.tree.guess == guess
        assert StrategyTree(table.rules, result.tree).depths(table, cands).sum() == truth
        costs[guess] = truth
    # the best of them is no cheaper than the class's optimum
    assert min(costs.values()) >= reference_cost(table, cands.tolist())


def test_the_guesses_left_bound_the_unit():
    table = CodeTable(Rules(2, 4))
    spec, group = _spec(table), _identity(table.rules)
    cands = max(_classes(table, 0), key=len)
    for r in (1, 2, 3, UNLIMITED):
        truth = reference_cost(table, cands.tolist(), None if r == UNLIMITED else r)
        result = _run(spec, Unit(cands, r, INF, *group))
        assert result.proven and result.value == truth
        assert (result.tree is None) == (truth == INF)
    assert _run(spec, Unit(cands, 1, INF, *group)).value == INF  # (several secrets, one guess)


def test_the_consistent_pool_and_weights_reach_the_units_search():
    table = CodeTable(Rules(2, 4))
    group = _identity(table.rules)
    cands = max(_classes(table, 5), key=len)
    consistent = _run(_spec(table, consistent=True), Unit(cands, UNLIMITED, INF, *group))
    assert consistent.value == reference_cost(table, cands.tolist(), pool="consistent")
    weights = np.arange(1, table.n + 1, dtype=np.int64)
    cands = cands[np.lexsort((cands, -weights[cands]))]  # (heaviest first, as the solver hands them)
    weighted = _run(_spec(table, weights=weights), Unit(cands, UNLIMITED, INF, *group))
    assert weighted.value == reference_cost(table, cands.tolist(), weights=weights.tolist())
    assert weighted.value != _run(_spec(table), Unit(cands, UNLIMITED, INF, *group)).value


def test_a_units_key_names_its_subproblem_whatever_its_budget():
    rules = Rules(3, 4)
    group = _identity(rules)
    cands = np.arange(10, dtype=np.int32)
    key = Unit(cands, UNLIMITED, 5.0, *group).key()
    assert Unit(cands, UNLIMITED, 99.0, *group).key() == key  # the budget is not the subproblem
    assert Unit(cands.astype(np.int64), UNLIMITED, 5.0, *group).key() == key  # nor the dtype
    # more guesses than secrets plus one change nothing
    assert Unit(cands, len(cands) + 1, 5.0, *group).key() == key
    others = [
        Unit(cands, len(cands), 5.0, *group),
        Unit(cands, 3, 5.0, *group),
        Unit(cands[:-1], UNLIMITED, 5.0, *group),
        Unit(cands, UNLIMITED, 5.0, *group, guess=0),
        Unit(cands, UNLIMITED, 5.0, *group, guess=1),
        Unit(cands, UNLIMITED, 5.0, group[0][:, ::-1].copy(), group[1]),
        Unit(cands, UNLIMITED, 5.0, np.vstack([group[0], group[0][:, ::-1]]), np.vstack([group[1]] * 2)),
    ]
    keys = [u.key() for u in others]
    assert key not in keys and len(set(keys)) == len(keys)


def test_a_specs_key_holds_what_a_value_depends_on_and_not_the_memory():
    spec = SearchSpec("p3c4r", False, 1, 0, 64)
    assert SearchSpec("p3c4r", False, 1, 0, 64, memory=1 << 20).key == spec.key
    weights = np.ones(64, dtype=np.int64)
    variants = [
        SearchSpec("p3c5r", False, 1, 0, 64),
        SearchSpec("p3c4r", True, 1, 0, 64),
        SearchSpec("p3c4r", False, 2, 0, 64),
        SearchSpec("p3c4r", False, 1, 1, 64),
        SearchSpec("p3c4r", False, 1, 0, 63),
        SearchSpec("p3c4r", False, 1, 0, 64, weights),
        SearchSpec("p3c4r", False, 1, 0, 64, weights * 2),
        SearchSpec("p3c4r", False, 1, 0, 64, weights.astype(np.int32)),
    ]
    keys = [v.key for v in variants]
    assert spec.key not in keys and len(set(keys)) == len(keys)


def test_a_stopped_run_proves_nothing_and_its_value_stays_a_bound():
    table = CodeTable(Rules(3, 3))
    spec, group = _spec(table), _identity(table.rules)
    cands = max(_classes(table, 0), key=len)
    truth = reference_cost(table, cands.tolist())
    run_id = uuid.uuid4().hex
    flag = np.ones(1, dtype=np.uint8)  # stopped before it starts
    set_run_flag(run_id, flag)
    try:
        assert run_flag(run_id) is flag
        stopped = run_unit(spec, run_id, Unit(cands, UNLIMITED, INF, *group))
        assert not stopped.proven and stopped.tree is None and stopped.value <= truth
        # the same run's search (its memo kept nothing unproven) goes on once the flag is down
        flag[0] = 0
        again = run_unit(spec, run_id, Unit(cands, UNLIMITED, INF, *group))
        assert again.proven and again.value == truth and again.tree is not None
    finally:
        forget_run(run_id)
    fresh = run_flag(run_id)  # forgotten: a new flag, not stopped
    forget_run(run_id)
    assert fresh is not flag and fresh[0] == 0


def test_the_score_table_is_built_once_per_rules_and_a_shared_one_is_used():
    from mastermind.engines.exact import units

    text = "p2c5r"
    table = table_for(text)
    assert table_for(text) is table and str(table.rules) == text and table.n == 25
    # a table shared is the one units use, unless this process had one (another test's) before
    mine = CodeTable(Rules.parse("p1c11"))
    before = units._tables.get(str(mine.rules))
    share_table(mine)
    assert table_for(str(mine.rules)) is (mine if before is None else before)
    share_table(CodeTable(Rules.parse("p1c11")))  # (the first one shared stays)
    assert table_for(str(mine.rules)) is (mine if before is None else before)
