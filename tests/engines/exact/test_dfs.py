"""The pieces of the compiled search against their Python twins (the search as a whole is
checked against the plain exhaustive search in test_solver)."""

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.symmetry import canonical_codes, free_colours, full_group, restrict_group
from mastermind.engines.exact._dfs import (
    child_group,
    memo_get,
    new_mask_cache,
    node_guesses,
    node_rank_tables,
    set_key,
    small_cost,
)
from mastermind.engines.exact._memo import memo_store, new_memo
from mastermind.engines.exact.search import Search


@pytest.mark.parametrize("levels", [0, 1, 2, 3, 5, 40])
@pytest.mark.parametrize("penalty", [0, 1, 7])
@pytest.mark.parametrize("unit", [1, 3])
def test_node_rank_tables_match_search_tables(levels, penalty, unit):
    table = CodeTable(Rules(3, 4))
    search = Search(
        table, np.ones(table.n, dtype=np.int64), full_group(table.rules), unit=unit, penalty=penalty
    )
    ranks, sizes = search.node_tables(levels)
    for n in (1, 2, 5, 17, 64):
        rank, size = node_rank_tables(levels, n, search.branching, unit, penalty)
        assert rank.tolist() == ranks[:, :n].tolist()
        assert size.tolist() == sizes[:, : n + 1].tolist()


@pytest.mark.parametrize("r", [0, 1, 2, 3, 10])
@pytest.mark.parametrize("w", [[1], [5], [1, 1], [4, 2], [2.5, 0.5]])
def test_small_cost_matches_rank_table(r, w):
    table = CodeTable(Rules(2, 3))
    weights = np.asarray(w)
    search = Search(table, np.ones(table.n, dtype=weights.dtype), full_group(table.rules), unit=2, penalty=1)
    rank, _ = search.rank_cost(r)
    n = len(w)
    expect = np.inf if np.any(rank[:n] < 0) else float((weights * rank[:n]).sum())
    assert small_cost(weights, r, 2, 1) == expect


def _random_history(rules, rng, steps):
    perms, cmaps = full_group(rules)
    guesses = rng.choice(rules.n_codes, size=steps, replace=False).tolist()
    codes = rules.codes_array()
    for g in guesses:
        perms, cmaps = restrict_group(perms, cmaps, codes[g])
    return perms, cmaps, guesses


@pytest.mark.parametrize("rules_text", ["p3c4", "p4c4", "p3c5n", "p4c6"])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("consistent", [False, True])
def test_node_guesses_match_canonical_codes(rules_text, seed, consistent):
    rules = Rules.parse(rules_text)
    table = CodeTable(rules)
    rng = np.random.default_rng(seed)
    perms, cmaps, _ = _random_history(rules, rng, int(rng.integers(0, 3)))
    # candidates over a random subset of colours, so that some colours are absent
    colours = rng.choice(rules.colors, size=int(rng.integers(1, rules.colors + 1)), replace=False)
    inside = np.all(np.isin(table.codes, colours), axis=1)
    pool = np.flatnonzero(inside)
    cands = np.sort(rng.choice(pool, size=min(len(pool), int(rng.integers(1, 30))), replace=False)).astype(
        np.int32
    )
    absent = sorted(set(range(rules.colors)) - set(np.unique(table.codes[cands]).tolist()))
    masks = new_mask_cache()
    colour_bits = (table.counts > 0).astype(np.int64) @ (1 << np.arange(rules.colors, dtype=np.int64))
    for _ in range(2):  # the second time from the cache
        got = node_guesses(table.codes, colour_bits, table.all_codes, cands, perms, cmaps, consistent, masks)
        if consistent:
            expect = np.intersect1d(canonical_codes(table.codes, perms, cmaps), cands)
        else:
            expect = canonical_codes(table.codes, perms, cmaps, absent)
        assert sorted(got.tolist()) == expect.tolist()


def test_the_guess_cache_stays_within_its_bound_and_answers_the_same(monkeypatch):
    from mastermind.engines.exact import _dfs

    rules = Rules.parse("p4c6")
    table = CodeTable(rules)
    rng = np.random.default_rng(5)
    colour_bits = (table.counts > 0).astype(np.int64) @ (1 << np.arange(rules.colors, dtype=np.int64))
    # (the Python twin reads the bound when called: the compiled one fixed it when compiled)
    monkeypatch.setattr(_dfs, "MASK_CACHE_BYTES", 1)  # 16 entries, the least
    capped: dict = {}
    sizes = []
    keys = set()
    for _ in range(150):
        perms, cmaps, _ = _random_history(rules, rng, int(rng.integers(0, 3)))
        colours = rng.choice(rules.colors, size=int(rng.integers(2, rules.colors + 1)), replace=False)
        pool = np.flatnonzero(np.all(np.isin(table.codes, colours), axis=1))
        cands = np.sort(rng.choice(pool, size=min(len(pool), 12), replace=False)).astype(np.int32)
        args = (table.codes, colour_bits, table.all_codes, cands, perms, cmaps, False)
        got = node_guesses.py_func(*args, capped)
        assert got.tolist() == node_guesses(*args, new_mask_cache()).tolist()
        sizes.append(len(capped))
        keys.update(capped)
    assert max(sizes) == 16 and len(keys) > 16  # (it filled, started again, and filled again)


@pytest.mark.parametrize("seed", range(10))
def test_child_group_matches_restrict_group(seed):
    rules = Rules(4, 5)
    rng = np.random.default_rng(seed)
    perms, cmaps, _ = _random_history(rules, rng, int(rng.integers(0, 3)))
    code = rules.codes_array()[int(rng.integers(rules.n_codes))]
    got = child_group(perms, cmaps, code)
    if len(perms) == 1 and len(free_colours(cmaps)) <= 1:
        assert got[0] is perms or np.array_equal(got[0], perms)  # trivial groups stay put
    else:
        expect = restrict_group(perms, cmaps, code)
        assert got[0].tolist() == expect[0].tolist() and got[1].tolist() == expect[1].tolist()


def test_memo_keys_tell_sets_and_guesses_left_apart():
    a = np.array([1, 5, 9], dtype=np.int32)
    keys = {
        set_key(a, 3),
        set_key(a, 4),
        set_key(a[:2], 3),
        set_key(a[::-1].copy(), 3),
        set_key(np.array([1, 5, 10], dtype=np.int32), 3),
    }
    assert len(keys) == 5
    # beyond n + 1 guesses left the value no longer changes, nor does the key
    assert set_key(a, 4) == set_key(a, 100)
    memo = new_memo(1 << 12)
    memo_store(memo, *set_key(a, 3), 12.0, 7, len(a))
    assert memo_get(memo, a, 3) == (True, 12.0, 7)
    assert memo_get(memo, a, 2)[0] is False


@pytest.mark.parametrize("game", ["p3c4", "p4c4", "p3c5n"])
def test_costs_known_from_the_candidates_alone_build_to_those_costs(game):
    """Sets whose cost the search took from their candidates alone (memo tag ``CHOOSE``:
    no guess weighed) are built by weighing their guesses as a node does: the subtree
    costs what the memo says, and its first guess is one the full weighing picks."""
    from mastermind.core.tree import StrategyTree
    from mastermind.engines.exact._dfs import CHOOSE
    from mastermind.engines.exact.search import INF, UNLIMITED

    table = CodeTable(Rules.parse(game))
    search = Search(table, np.ones(table.n, dtype=np.int64), full_group(table.rules))
    cands = np.arange(table.n, dtype=np.int32)
    search.solve(cands, UNLIMITED, INF)
    chosen = []
    stack = [(cands, search.group, 0)]
    while stack:  # every set the optimal tree reaches, through its memo entries
        sub, group, depth = stack.pop()
        found, value, tag = memo_get(search.memo, sub, UNLIMITED)
        if len(sub) <= 2 or not found:
            continue
        if tag == CHOOSE:
            chosen.append((sub, group, value))
            continue
        guess = int(tag)
        answers = table.scores[guess, sub]
        for a in np.unique(answers):
            if a != table.rules.n_answer_slots - 1:
                stack.append((sub[answers == a], search.child_group(group, guess), depth + 1))
    assert chosen, "no set's cost came from its candidates alone"
    for sub, group, value in chosen:
        node = search.build(sub, UNLIMITED, group)
        depths = StrategyTree(table.rules, node).depths(table, sub)
        assert float(depths.sum()) == value
        weighed = Search(table, np.ones(table.n, dtype=np.int64), full_group(table.rules))
        weighed.solve(sub, UNLIMITED, INF, group, only=weighed.guesses(sub, group))
        assert node.guess == weighed.root_guess
