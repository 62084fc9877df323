"""StrategyTree replay, statistics and error reporting."""

import dataclasses

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.strategy import TreeStrategy
from mastermind.core.tree import Node, Stats, StrategyTree, TreeError, build_tree


def first_candidate(cands, history):
    return int(cands[0])


@pytest.mark.parametrize("rules", [Rules(2, 2), Rules(3, 3), Rules(4, 4, False), Rules(2, 5)], ids=str)
def test_stats_agree_with_direct_play(rules):
    table = CodeTable(rules)
    tree = build_tree(table, first_candidate)
    depths = tree.depths(table)
    # play each secret directly with the same rule
    for secret in range(table.n):
        cands, n = table.all_codes, 0
        while True:
            g = int(cands[0])
            n += 1
            if g == secret:
                break
            cands = cands[table.answer_indices(g, cands) == table.scores[g, secret]]
        assert depths[secret] == n
    s = tree.stats(table)
    assert s.total == depths.sum() and s.secrets == table.n and sum(s.histogram) == table.n
    assert s.worst == len(s.histogram) and set(s.worst_secrets) == set(np.flatnonzero(depths == s.worst))
    assert tree.root.candidates == table.n and tree.root.solves_here


def test_guesses_for_and_tree_strategy():
    table = CodeTable(Rules(3, 3))
    tree = build_tree(table, first_candidate)
    game = tree.guesses_for(table, 26)
    assert game[-1][0] == 26 and game[-1][1] == table.rules.win_index
    strat = TreeStrategy(tree, table)
    history = [(g, a) for g, a, _ in game[:-1]]
    assert strat.next_guess(table.all_codes, history) == 26


def test_replay_names_the_path_of_a_wrong_count():
    table = CodeTable(Rules(3, 3))
    tree = build_tree(table, first_candidate)
    answer, child = next(iter(tree.root.children.items()))
    tree.root.children[answer] = dataclasses.replace(child, candidates=child.candidates + 1)
    with pytest.raises(TreeError, match="path 111 "):
        tree.depths(table)


def test_replay_reports_a_missing_branch():
    table = CodeTable(Rules(3, 3))
    tree = build_tree(table, first_candidate)
    a = max(tree.root.children)
    del tree.root.children[a]
    with pytest.raises(TreeError, match="no branch"):
        tree.depths(table)


def test_stats_from_depths():
    s = Stats.from_depths(np.array([1, 2, 2, 3]))
    assert (s.total, s.worst, s.histogram, s.worst_secrets, s.average) == (8, 3, (1, 2, 1), (3,), 2.0)


def _slow_depths(tree, table, secrets):
    out = np.zeros(table.n, dtype=np.int64)
    tree._replay(table, tree.root, secrets, 1, (), out)
    return out[secrets]


@pytest.mark.parametrize("full", [True, False], ids=["table", "computed"])
@pytest.mark.parametrize("seed", range(12))
def test_compiled_replay_matches_the_python_replay(seed, full):
    """The compiled replay gives the Python replay's depths, and a broken tree still gets the
    Python replay's error (which names the place); with answers looked up in the table and
    computed without it."""
    import copy

    rng = np.random.default_rng(seed)
    table = CodeTable(Rules(3, 4), full=full)

    def random_candidate(cands, history):
        return int(cands[rng.integers(len(cands))])

    tree = build_tree(table, random_candidate)
    assert tree.depths(table).tolist() == _slow_depths(tree, table, table.all_codes).tolist()
    sub = np.sort(rng.choice(table.n, size=20, replace=False))
    sub_tree = build_tree(table, random_candidate, candidates=sub)
    assert sub_tree.depths(table, sub).tolist() == _slow_depths(sub_tree, table, sub).tolist()
    # break it: a wrong count, a lost branch, an extra branch, a guess out of range
    for damage in range(4):
        broken = copy.deepcopy(tree)
        victims = [n for n in broken.root.walk() if n.children]
        node = victims[int(rng.integers(len(victims)))]
        if damage == 0:
            broken = _swapped(broken, node, dataclasses.replace(node, candidates=node.candidates + 1))
        elif damage == 1:
            node.children.pop(next(iter(node.children)))
        elif damage == 2:
            free = [a for a in range(table.rules.n_answer_slots) if a not in node.children]
            node.children[free[0]] = copy.deepcopy(next(iter(node.children.values())))
        else:
            broken = _swapped(broken, node, dataclasses.replace(node, guess=table.n + 3))
        with pytest.raises(TreeError) as fast:
            broken.depths(table)
        with pytest.raises(TreeError) as slow:
            _slow_depths(broken, table, table.all_codes)
        assert str(fast.value) == str(slow.value)


def _swapped(tree: StrategyTree, old: Node, new: Node) -> StrategyTree:
    """``tree`` with the node ``old`` (the very object) put in its place by ``new`` (nodes
    are frozen: a damaged one is a new node)."""
    if tree.root is old:
        return dataclasses.replace(tree, root=new)
    parent = next(n for n in tree.root.walk() if any(kid is old for kid in n.children.values()))
    answer = next(a for a, kid in parent.children.items() if kid is old)
    parent.children[answer] = new
    return tree


def _guesses_consistent(table, node, secrets) -> bool:
    """The reference: every guess is among the secrets that reach its node."""
    if node.guess not in secrets.tolist():
        return False
    answers = table.answer_indices(node.guess, secrets)
    return all(_guesses_consistent(table, child, secrets[answers == a]) for a, child in node.children.items())


@pytest.mark.parametrize("rules", [Rules(2, 3), Rules(3, 3), Rules(3, 4), Rules(3, 5, False)])
@pytest.mark.parametrize("seed", range(4))
def test_the_pool_a_tree_keeps_to_agrees_with_the_secrets_at_each_node(rules, seed):
    """pool_kept counts nodes against secrets; the reference looks at every node."""
    from mastermind.core.formats import pool_kept

    table = CodeTable(rules)
    rng = np.random.default_rng(seed)
    share = (0.0, 0.2, 0.5, 1.0)[seed]  # how often a guess is any code rather than a candidate

    def next_guess(cands, history):
        if len(cands) > 2 and rng.random() < share:
            guess = int(rng.integers(table.n))
            if len(set(table.answer_indices(guess, cands).tolist())) > 1:  # (it splits them)
                return guess
        return int(rng.choice(cands))

    tree = build_tree(table, next_guess)
    expected = "consistent" if _guesses_consistent(table, tree.root, table.all_codes) else "all"
    assert pool_kept(tree.n_nodes(), table.n) == expected
    if share == 0.0:
        assert expected == "consistent"


def test_the_numbers_of_a_strategy_cannot_be_changed():
    """``Stats`` is frozen, yet ``stats.histogram.append(9)`` changed it (a list inside)."""
    s = Stats.from_depths(np.array([1, 2, 2, 3]))
    with pytest.raises(AttributeError):
        s.histogram.append(9)  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        s.worst_secrets.append(0)  # type: ignore[attr-defined]
    assert Stats(8, 4, 3, [1, 2, 1], [3]) == s  # (lists given are kept as tuples)
    assert s.to_dict(Rules(2, 2))["histogram"] == [1, 2, 1]  # (JSON: a list)
