"""The decision rules against a plain reference, the fast tree recorder against build_tree,
pools, tie-breaks, the registry and its errors."""

import numpy as np
import pytest

from mastermind.core import partitions
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.core.strategy import Strategy
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.core.tree import build_tree
from mastermind.engines.heuristics import play_all
from mastermind.engines.heuristics.scores import CRITERIA
from mastermind.engines.registry import HEURISTIC_NAMES, NAMES, make_strategy

from ..exact.reference import reference_solve

SMALL_GAMES = [Rules(3, 4), Rules(4, 4), Rules(3, 5, repeat=False), Rules(2, 7)]


@pytest.mark.parametrize("rules", SMALL_GAMES, ids=str)
@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_heuristics_follow_the_reference_rule(rules, pool, reference_rule):
    table = CodeTable(rules)
    for criterion in CRITERIA:
        fast = play_all(make_strategy(criterion, table, pool=pool))
        slow = build_tree(table, reference_rule(table, criterion, pool))
        assert fast.root == slow.root, (criterion, pool)


@pytest.mark.parametrize("rules", [Rules(3, 4), Rules(4, 4)], ids=str)
def test_sorted_tie_break_follows_the_reference(rules, reference_rule):
    table = CodeTable(rules)
    for criterion in CRITERIA:
        fast = play_all(make_strategy(criterion, table, tie_break="sorted"))
        slow = build_tree(table, reference_rule(table, criterion, sort_classes=True))
        assert fast.root == slow.root, criterion


def sorted_minimax_rule(table):
    """Minimax with sorted tie-breaks written with whole-array numpy (the reference rule's
    definition, fast enough for p4c6): smallest largest class, then the smallest class sizes
    sorted in descending order, then a candidate, then the lowest index."""
    firsts = np.array(canonical_first_guesses(table.rules))
    slots = table.rules.n_answer_slots

    def next_guess(cands, history):
        if len(cands) <= 2:
            return int(cands[0])
        pool = firsts if not history and len(cands) == table.n else np.arange(table.n)
        rows = table.scores[np.ix_(pool, cands)].astype(np.int64)
        rows += (np.arange(len(pool)) * slots)[:, None]
        sizes = np.bincount(rows.ravel(), minlength=len(pool) * slots).reshape(len(pool), slots)
        best = sizes.max(axis=1) == sizes.max(axis=1).min()
        keys = np.sort(sizes[best], axis=1)[:, ::-1]  # class sizes in descending order
        order = np.lexsort(keys.T[::-1])
        tied = pool[best][(keys == keys[order[0]]).all(axis=1)]
        preferred = tied[np.isin(tied, cands)]
        return int((preferred if len(preferred) else tied).min())

    return next_guess


def test_sorted_tie_break_on_p4c6_follows_the_rule(reference_rule):
    small = CodeTable(Rules(4, 4))  # the numpy rule is the plain one, where both are quick
    plain = build_tree(small, reference_rule(small, "minimax", sort_classes=True)).root
    assert build_tree(small, sorted_minimax_rule(small)).root == plain
    table = CodeTable(Rules(4, 6))
    tree = play_all(make_strategy("minimax", table, tie_break="sorted"))
    assert tree.root == build_tree(table, sorted_minimax_rule(table)).root
    stats = tree.stats(table)
    assert stats.worst == 5 and stats.total != 5801  # the rule changes Knuth's tree


@pytest.mark.parametrize("name", ["simple", *CRITERIA])
def test_fast_recorder_equals_build_tree(name):
    for rules in (Rules(4, 5), Rules(4, 6, repeat=False)):
        table = CodeTable(rules)
        strategy = make_strategy(name, table)
        assert strategy.first_of_two
        assert play_all(strategy).root == build_tree(table, strategy.next_guess).root


def test_table_without_matrix_gives_the_same_trees():
    rules = Rules(3, 5)
    full, rows_only = CodeTable(rules), CodeTable(rules, full=False)
    for name in ("simple", *CRITERIA):
        a = play_all(make_strategy(name, full))
        b = play_all(make_strategy(name, rows_only))
        assert a.root == b.root, name


class Recorder:
    """A strategy wrapper that remembers every question and answer."""

    def __init__(self, inner):
        self.inner, self.name, self.table, self.calls = inner, inner.name, inner.table, []

    def next_guess(self, candidates, history=()):
        guess = self.inner.next_guess(candidates, history)
        self.calls.append((np.asarray(candidates).copy(), tuple(history), guess))
        return guess


def test_consistent_pool_only_guesses_candidates():
    table = CodeTable(Rules(4, 6))
    for criterion in CRITERIA:
        rec = Recorder(make_strategy(criterion, table, pool="consistent"))
        play_all(rec).stats(table)  # replays every secret: complete and consistent
        assert rec.calls and all(guess in cands for cands, _, guess in rec.calls)


def test_random_tie_break_is_seeded_and_picks_best_keys():
    table = CodeTable(Rules(4, 4))
    trees = [play_all(make_strategy("minimax", table, tie_break="random", seed=s)) for s in (5, 5, 6)]
    assert trees[0].root == trees[1].root
    for tree in trees:
        tree.stats(table)  # complete and consistent
    rec = Recorder(make_strategy("expected-size", table, tie_break="random", seed=2))
    play_all(rec)
    for cands, history, guess in rec.calls:
        if len(cands) <= 2:
            assert guess == cands[0]
            continue
        pool = canonical_first_guesses(table.rules) if not history else range(table.n)
        value = {g: partitions.sum_squares(table.partition(g, cands)) for g in pool}
        assert value[guess] == min(value.values())
        if history and any(value[c] == value[guess] for c in cands.tolist()):
            assert guess in cands


def test_random_strategy_guesses_uniform_candidates():
    table = CodeTable(Rules(3, 4))
    cands = np.array([3, 17, 40])
    # a seed is one strategy: the same position, the same guess; over seeds, uniform
    picks = [make_strategy("random", table, seed=seed).next_guess(cands, ((0, 0),)) for seed in range(300)]
    assert set(picks) == {3, 17, 40}
    assert min(picks.count(c) for c in (3, 17, 40)) > 60
    strategy = make_strategy("random", table, seed=11)
    assert len({strategy.next_guess(cands, ((0, 0),)) for _ in range(20)}) == 1
    # and over the positions of one strategy
    at = [strategy.next_guess(cands, ((0, 0), (g, 1))) for g in range(300)]
    assert min(at.count(c) for c in (3, 17, 40)) > 60


def test_registry_and_protocol():
    table = CodeTable(Rules(3, 3))
    assert HEURISTIC_NAMES == ("minimax", "expected-size", "entropy", "most-parts", "simple", "random")
    for name in HEURISTIC_NAMES:
        strategy = make_strategy(name, table, seed=0)
        assert isinstance(strategy, Strategy) and strategy.name == name
        guess = strategy.next_guess(table.all_codes)
        assert 0 <= guess < table.n


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"name": "knuth"}, "strategy 'knuth'"),
        ({"name": "minimax", "pool": "some"}, "pool 'some'"),
        ({"name": "entropy", "tie_break": "first"}, "tie-break 'first'"),
    ],
)
def test_bad_names_are_one_line_errors(kwargs, word):
    table = CodeTable(Rules(2, 2))
    name = kwargs.pop("name")
    with pytest.raises(MastermindError, match=word) as info:
        make_strategy(name, table, **kwargs)
    assert "\n" not in str(info.value)


def test_no_candidates_left_is_an_error():
    table = CodeTable(Rules(2, 3))
    for name in HEURISTIC_NAMES:
        with pytest.raises(MastermindError, match="no secret"):
            make_strategy(name, table).next_guess(np.array([], dtype=np.int32), ((0, 0),))


def test_optimal_is_at_least_as_good_as_every_heuristic():
    assert "optimal" in NAMES
    table = CodeTable(Rules(3, 3))
    best = play_all(make_strategy("optimal", table)).stats(table)
    assert best.total == reference_solve(table)[0] == 73  # exhaustive search, no pruning
    for name in CRITERIA:
        assert best.total <= play_all(make_strategy(name, table)).stats(table).total


def test_chunked_scan_with_early_stop_follows_the_reference(monkeypatch, reference_rule):
    from mastermind.engines.heuristics import strategies

    monkeypatch.setattr(strategies, "SCAN_CHUNK", 7)  # many chunks, stops inside them
    table = CodeTable(Rules(4, 4))
    for criterion in CRITERIA:
        fast = play_all(make_strategy(criterion, table))
        assert fast.root == build_tree(table, reference_rule(table, criterion)).root, criterion


def test_unsorted_candidates_still_get_the_lowest_index():
    table = CodeTable(Rules(3, 4))
    strategy = make_strategy("minimax", table)
    rng = np.random.default_rng(0)
    for _ in range(20):
        cands = np.sort(rng.choice(table.n, 12, replace=False))
        history = ((0, 0),)  # not the real history: no symmetry is used for a stranger's set
        assert strategy.next_guess(cands[::-1].copy(), history) == strategy.next_guess(cands, history)
