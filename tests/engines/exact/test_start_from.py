"""A strategy to start from (issue 28): the first upper bound of the search, reported by a
stop when nothing cheaper was found, and never taken past what it proves."""

from pathlib import Path

import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.fileio import read_text
from mastermind.core.formats import read_tree
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, Limits, Problem, Tuning, solve
from mastermind.engines.exact.solver import NOT_PROVEN
from mastermind.engines.result import Status

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def knuth():
    table = CodeTable(Rules.parse("p4c6"))
    tree, _ = read_tree(read_text(str(DATA / "p4c6r-knuth.txt")), "irving", table.rules)
    return table, tree


def test_a_search_stopped_at_once_reports_the_strategy_it_started_from(knuth):
    table, tree = knuth
    token = CancelToken()
    token.cancel("test")
    r = solve(table, execution=Execution(jobs=2, units=True), tuning=Tuning(start=tree.root), cancel=token)
    assert r.status is Status.FEASIBLE and r.total == tree.stats(table).total
    assert r.lower_bound is not None and r.lower_bound <= 5625 <= r.total
    # (an open row's tree file said "optimal": results/trees/p5c8.json.gz, 178979 >= 170119)
    assert r.tree is not None and r.tree.name == NOT_PROVEN


def test_a_search_started_from_a_strategy_still_proves_the_optimum(knuth):
    table, tree = knuth
    r = solve(table, execution=Execution(jobs=2, units=True), tuning=Tuning(start=tree.root))
    assert r.status is Status.OPTIMAL and r.total == 5625
    assert r.tree is not None and r.tree.name == "optimal"


def test_the_consistent_pool_refuses_a_strategy_that_guesses_impossible_codes(knuth):
    table, tree = knuth  # Knuth's strategy guesses codes no longer possible
    with pytest.raises(MastermindError, match="consistent pool"):
        solve(
            table,
            Problem(pool="consistent"),
            limits=Limits(time_limit=5),
            execution=Execution(jobs=2, units=True),
            tuning=Tuning(start=tree.root),
        )


def test_a_strategy_to_start_from_needs_the_plain_total(knuth):
    table, tree = knuth
    with pytest.raises(MastermindError, match="plain total"):
        solve(
            table,
            Problem(max_guesses=6),
            execution=Execution(jobs=1, units=True),
            tuning=Tuning(start=tree.root),
        )
