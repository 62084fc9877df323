"""The strategy registry: one spec per name, its options, and the commands that list it."""

import json

import pytest

from mastermind.app.cli import main
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.core.strategy import TreeStrategy
from mastermind.engines.registry import (
    HEURISTIC_NAMES,
    NAMES,
    OPTIONS,
    REGISTRY,
    check_names,
    make_strategy,
    strategy,
    strategy_tree,
)

from .exact.reference import reference_solve


def test_every_name_has_one_spec_with_known_options():
    assert NAMES == tuple(REGISTRY) and NAMES[-1] == "optimal"
    assert HEURISTIC_NAMES == NAMES[:-1]
    for name, spec in REGISTRY.items():
        assert spec.name == name and spec.kind in ("heuristic", "solver") and spec.summary
        assert set(spec.options) <= set(OPTIONS)
    assert strategy("random").takes("seed") and not strategy("random").takes("pool")
    assert strategy("optimal").options == ("pool",)


def test_options_a_strategy_does_not_take_change_nothing():
    table = CodeTable(Rules(3, 3))
    plain = strategy_tree("simple", table)
    other = strategy_tree("simple", table, pool="consistent", tie_break="random", seed=5)
    assert plain.root == other.root
    # ... but they are still checked
    with pytest.raises(MastermindError, match="pool 'some'"):
        make_strategy("simple", table, pool="some")


def test_pool_reaches_the_optimal_solver():
    table = CodeTable(Rules(2, 6))
    player = make_strategy("optimal", table, pool="consistent")
    assert isinstance(player, TreeStrategy) and player.name == "optimal"
    assert player.tree.stats(table).total == reference_solve(table, pool="consistent")[0] == 134
    assert strategy_tree("optimal", table).stats(table).total == reference_solve(table)[0] == 132


def test_check_names_refuses_before_any_work():
    check_names(list(NAMES), pool="consistent", tie_break="sorted")
    with pytest.raises(MastermindError, match="unknown strategy 'knuth'"):
        check_names(["minimax", "knuth"])
    with pytest.raises(MastermindError, match="tie-break 'first'"):
        check_names(["minimax"], tie_break="first")


def test_strategies_command_lists_the_registry(capsys):
    assert main(["strategies", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["strategies"]
    assert [r["strategy"] for r in rows] == list(NAMES)
    assert rows[0]["options"] == ["pool", "tie_break", "seed"] and rows[-1]["kind"] == "solver"
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in NAMES)


def test_commands_take_every_registered_name(capsys):
    assert main(["export", "-r", "p2c3", "-s", "optimal", "-f", "irving"]) == 0
    assert capsys.readouterr().out.startswith("9(")
    assert main(["heuristics", "-r", "p2c3", "-s", "nonsense"]) == 2
    assert "--strategy: unknown value 'nonsense'" in capsys.readouterr().err
