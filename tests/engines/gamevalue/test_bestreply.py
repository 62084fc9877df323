from fractions import Fraction

import numpy as np
import pytest

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.gamevalue.bestreply import best_reply, search_best_reply, weighted_value
from mastermind.engines.gamevalue.bruteforce import depth_vectors

TINY = ["p2c2", "p2c3", "p3c2"]


@pytest.fixture(scope="module")
def vectors():
    return {text: depth_vectors(CodeTable(Rules.parse(text))) for text in TINY}


@pytest.mark.parametrize("text", TINY)
def test_search_matches_the_best_of_all_strategies(text, vectors):
    table = CodeTable(Rules.parse(text))
    rng = np.random.default_rng(7)
    for _ in range(10):
        weights = rng.integers(0, 6, size=table.n).tolist()
        value, tree = search_best_reply(table, weights)
        assert value == min(int(v @ weights) for v in vectors[text])
        assert value == weighted_value(table, tree, weights)


def test_search_takes_fractions_and_floats():
    table = CodeTable(Rules(3, 2))
    weights = [Fraction(1, k + 2) for k in range(table.n)]
    value, tree = search_best_reply(table, weights)
    assert isinstance(value, Fraction) and value == weighted_value(table, tree, weights)
    as_float, _ = search_best_reply(table, [float(w) for w in weights])
    assert as_float == pytest.approx(float(value))


def test_zero_weights_still_give_a_complete_tree():
    table = CodeTable(Rules(2, 3))
    weights = [0] * table.n
    weights[4] = 1
    value, tree = search_best_reply(table, weights)
    assert value == 1 and tree.root.guess == 4
    depths = tree.depths(table)  # replays every secret: raises TreeError if one is left unsolved
    assert depths[4] == 1 and (np.delete(depths, 4) >= 2).all()


def test_bad_weights():
    table = CodeTable(Rules(2, 2))
    with pytest.raises(MastermindError, match="4 weights"):
        search_best_reply(table, [1, 1])
    with pytest.raises(MastermindError, match="non-negative"):
        search_best_reply(table, [1, -1, 1, 1])
    with pytest.raises(MastermindError, match="unknown best-reply solver"):
        best_reply(table, [1] * 4, solver="magic")


@pytest.mark.parametrize("text", ["p2c3", "p3c2", "p3c3", "p2c4"])
def test_exact_solver_agrees_with_the_search(text):
    table = CodeTable(Rules.parse(text))
    rng = np.random.default_rng(3)
    for trial in range(6):
        weights = rng.choice([0, 0, 1, 2, 5, 13], size=table.n).tolist()
        if trial == 0:
            weights = [1] * table.n
        expected, _ = search_best_reply(table, weights)
        value, tree = best_reply(table, weights, solver="exact")
        assert value == expected == weighted_value(table, tree, weights)
    floats = rng.random(table.n).tolist()
    assert best_reply(table, floats, solver="exact")[0] == pytest.approx(search_best_reply(table, floats)[0])
