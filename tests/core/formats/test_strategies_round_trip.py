"""Every heuristic's tree and the optimal tree survive JSON and Irving unchanged."""

from __future__ import annotations

import pytest

from mastermind.core.formats import read_tree, write_tree
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import solve
from mastermind.engines.registry import HEURISTIC_NAMES, strategy_tree


def check_round_trip(tree, table, same_tree) -> None:
    stats = tree.stats(table)
    for fmt in ("json", "irving"):
        back, _ = read_tree(write_tree(tree, fmt, stats), fmt, table.rules)
        same_tree(tree.root, back.root)
        assert back.stats(table) == stats, fmt


@pytest.mark.parametrize("game", ["p4c6", "p4c6n", "p3c5"])
@pytest.mark.parametrize("name", HEURISTIC_NAMES)
def test_heuristic_trees_round_trip(name, game, same_tree):
    table = CodeTable(Rules.parse(game))
    check_round_trip(strategy_tree(name, table, seed=7), table, same_tree)


def test_optimal_tree_round_trips(table46, same_tree):
    result = solve(table46)
    assert result.tree.stats(table46).total == 5625
    check_round_trip(result.tree, table46, same_tree)
