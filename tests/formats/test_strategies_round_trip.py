"""Every heuristic's tree and the optimal tree survive JSON and Irving unchanged."""

from __future__ import annotations

import importlib

import pytest

from mastermind.app.formats import read_tree, write_tree
from mastermind.core.game import CodeTable, Rules


def _available(module: str, name: str):
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


heuristics_names = _available("mastermind.engines.heuristics", "STRATEGY_NAMES") or ()
needs_heuristics = pytest.mark.skipif(
    _available("mastermind.engines.heuristics", "make_strategy") is None, reason="mastermind.engines.heuristics missing")
needs_exact = pytest.mark.skipif(_available("mastermind.engines.exact", "solve") is None,
                                 reason="mastermind.engines.exact missing")


def check_round_trip(tree, table, same_tree) -> None:
    stats = tree.stats(table)
    for fmt in ("json", "irving"):
        back, _ = read_tree(write_tree(tree, fmt, stats), fmt, table.rules)
        same_tree(tree.root, back.root)
        assert back.stats(table) == stats, fmt


@needs_heuristics
@pytest.mark.parametrize("game", ["p4c6", "p4c6n", "p3c5"])
@pytest.mark.parametrize("name", heuristics_names or ["minimax"])
def test_heuristic_trees_round_trip(name, game, same_tree):
    from mastermind.engines.heuristics import make_strategy, play_all

    table = CodeTable(Rules.parse(game))
    tree = play_all(make_strategy(name, table, seed=7))
    check_round_trip(tree, table, same_tree)


@needs_exact
def test_optimal_tree_round_trips(table46, same_tree):
    from mastermind.engines.exact import solve

    result = solve(table46)
    assert result.tree.stats(table46).total == 5625
    check_round_trip(result.tree, table46, same_tree)
