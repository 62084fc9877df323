"""Orbits of the first guess's stabiliser against brute force over the whole group."""

from itertools import permutations

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import build_tree
from mastermind.engines.heuristics import play_all, strategies
from mastermind.engines.heuristics.orbits import orbit_minima
from mastermind.engines.registry import make_strategy


def brute_force_minima(table, guesses):
    rules = table.rules
    codes = [tuple(row) for row in table.codes.tolist()]
    index = {c: i for i, c in enumerate(codes)}
    fixed = [codes[g] for g in guesses]
    label = list(range(table.n))
    for perm in permutations(range(rules.pegs)):
        for cmap in permutations(range(rules.colors)):
            if any(tuple(cmap[g[perm[i]]] for i in range(rules.pegs)) != g for g in fixed):
                continue
            for i, c in enumerate(codes):
                j = index[tuple(cmap[c[perm[k]]] for k in range(rules.pegs))]
                label[i] = min(label[i], j)
    return sorted(i for i in range(table.n) if label[i] == i)


@pytest.mark.parametrize(
    "rules, guess_sets",
    [
        (Rules(3, 4), ["112", "123", "111", "112 221", "123 124", "112 121 211"]),
        (Rules(4, 4), ["1122", "1123", "1112", "1234", "1122 1133", "1123 2214", "1122 2211"]),
        (Rules(3, 5, repeat=False), ["123", "123 145", "123 321"]),
    ],
    ids=str,
)
def test_orbit_minima_match_the_whole_group(rules, guess_sets):
    table = CodeTable(rules)
    for text in guess_sets:
        guesses = [rules.parse_code(t) for t in text.split()]
        # one pass over the group gives each code its orbit minimum (the group is closed)
        expected = brute_force_minima(table, guesses)
        got = orbit_minima(table, guesses)
        assert (got.tolist() if got is not None else list(range(table.n))) == expected, text


def test_only_the_identity_gives_no_orbits():
    table = CodeTable(Rules(3, 3))
    guesses = [table.rules.parse_code(t) for t in ("112", "213", "331")]
    assert brute_force_minima(table, guesses) == list(range(27))
    assert orbit_minima(table, guesses) is None


@pytest.mark.parametrize("rules", [Rules(4, 4), Rules(3, 5, repeat=False), Rules(3, 4)], ids=str)
def test_orbits_at_every_node_follow_the_reference_rule(monkeypatch, rules, reference_rule):
    monkeypatch.setattr(strategies, "SYMMETRY_MIN_CANDIDATES", 3)
    table = CodeTable(rules)
    for criterion in ("minimax", "expected-size", "entropy", "most-parts"):
        fast = play_all(make_strategy(criterion, table))
        assert fast.root == build_tree(table, reference_rule(table, criterion)).root, criterion


def test_orbits_do_not_change_the_trees(monkeypatch):
    table = CodeTable(Rules(4, 5))
    monkeypatch.setattr(strategies, "SYMMETRY_MIN_CANDIDATES", 3)
    with_orbits = {
        (c, t): play_all(make_strategy(c, table, tie_break=t)).root
        for c in ("minimax", "entropy")
        for t in ("default", "sorted")
    }
    monkeypatch.setattr(strategies, "orbit_minima", lambda table, guess: None)
    for (c, t), root in with_orbits.items():
        assert play_all(make_strategy(c, table, tie_break=t)).root == root


def test_a_subset_of_a_class_is_scored_over_all_codes():
    # the orbits only hold for a whole class; a caller's subset must not use them
    table = CodeTable(Rules(4, 6))
    strategy = make_strategy("minimax", table)
    first = table.rules.parse_code("1122")
    answers = table.answer_indices(first)
    answer = int(answers[table.rules.parse_code("3456")])
    whole = np.flatnonzero(answers == answer).astype(np.int32)
    history = ((first, answer),)
    assert strategy._symmetric_pool(whole, history) is not None
    assert strategy._symmetric_pool(whole[::3], history) is None
    assert make_strategy("minimax", table, tie_break="random")._symmetric_pool(whole, history) is None
