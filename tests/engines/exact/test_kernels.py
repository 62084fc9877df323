"""The numba kernels of the exact search against their pure-Python twins."""

import math

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.symmetry import full_group
from mastermind.engines.exact._kernels import (
    answer_column,
    cheapest_member,
    class_bound,
    class_table,
    classes_told_apart,
    guess_bounds,
    most_other_classes,
    partition_signature,
    perfect_member,
    refine_buffers,
    refined_bound,
    refined_bound_capped,
    split_classes,
)
from mastermind.engines.exact.search import Search

from .kernels_reference import evaluate_guesses_reference, split_classes_reference

GAMES = ["p3c4", "p4c4n", "p2c5"]


def _half_slow(n: int) -> list:
    """Seeds 0..n-1, the second half marked slow: the plain recursion they are checked by is
    the cost (on p4c4, 2.4 s of CPU for the second halves of the two tests that use this);
    the first half takes every game and set size the same way."""
    return [s if s < n // 2 else pytest.param(s, marks=pytest.mark.slow) for s in range(n)]


def _setup(rules_text, seed, weighted, sizes=(3, 30)):
    """A game, its search, a random candidate set (sizes[0] to sizes[1] - 1 codes) and weights."""
    table = CodeTable(Rules.parse(rules_text))
    rng = np.random.default_rng(seed)
    cands = np.sort(rng.choice(table.n, size=min(table.n, rng.integers(*sizes)), replace=False)).astype(
        np.int32
    )
    if weighted:
        w_all = rng.integers(0, 9, size=table.n).astype(np.int64)
        cands = cands[np.lexsort((cands, -w_all[cands]))]
    else:
        w_all = np.ones(table.n, dtype=np.int64)
    search = Search(table, w_all, full_group(table.rules), max_set=table.n)
    return table, search, cands, w_all[cands]


@pytest.mark.parametrize("rules_text", GAMES)
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize(
    "levels,branching,penalty", [(3, 5, 0), (1, 13, 0), (2, 3, 0), (2, 13, 1), (6, 2, 0)]
)
def test_partition_and_bounds_match_reference(rules_text, seed, weighted, levels, branching, penalty):
    table, search, cands, w = _setup(rules_text, seed, weighted)
    search.penalty = penalty
    rules = table.rules
    guesses = table.all_codes
    rank, size = search.rank_cost(levels, branching)
    ref = evaluate_guesses_reference(
        table.scores, guesses, cands, w, rank, rules.n_answer_slots, rules.win_index
    )
    slots = np.asarray(rules.answer_slots)
    counts, parts, largest, spread = class_table(table.scores, guesses, True, cands, slots)
    assert parts.tolist() == ref["parts"]
    assert largest.tolist() == ref["largest"]
    assert spread.tolist() == ref["spread"]
    assert (counts[-1] > 0).tolist() == ref["candidate"]
    bound, ok = guess_bounds(
        table.scores, guesses, counts, parts, largest, cands, w, rank, size, rules.win_index, weighted
    )
    assert ok.tolist() == ref["ok"]
    fits = np.array(ref["ok"])
    assert bound[fits].tolist() == np.array(ref["bound"])[fits].tolist()
    # equal signatures exactly when the partitions are equal up to renaming classes
    sigs = [
        partition_signature(table.scores[g], cands, rules.n_answer_slots, rules.win_index)
        for g in guesses.tolist()
    ]
    by_labels = {}
    for sig, labels in zip(sigs, ref["labels"]):
        by_labels.setdefault(labels, set()).add((int(sig[0]), int(sig[1])))
    assert all(len(s) == 1 for s in by_labels.values())
    assert len({next(iter(s)) for s in by_labels.values()}) == len(by_labels)


@pytest.mark.parametrize("seed", range(4))
def test_split_classes_match_reference(seed):
    table, search, cands, w = _setup("p3c4", seed, weighted=True)
    rules = table.rules
    rank, _ = search.rank_cost(4, 7)
    for g in range(0, table.n, 7):
        out, out_w, starts, sizes, answers, bounds = split_classes(
            table.scores, g, cands, w, rank, rules.n_answer_slots, rules.win_index, 1, False
        )
        ref = split_classes_reference(table.scores[g], cands, w, rank, rules.win_index)
        got = [
            (int(a), out[s : s + m].tolist(), out_w[s : s + m].tolist(), int(b))
            for a, s, m, b in zip(answers, starts, sizes, bounds)
        ]
        assert got == [(a, c, list(map(int, cw)), int(b)) for a, c, cw, b in ref]


def _brute_class_cost(table, members, weights):
    """Exact cost of finishing a class (any guess, unlimited), by plain recursion."""
    from .reference import reference_cost

    full = np.zeros(table.n)
    full[members] = weights
    return reference_cost(table, members, weights=full)


@pytest.mark.parametrize("seed", range(12))
def test_refined_class_bound_is_a_bound_and_exact_for_three(seed):
    table = CodeTable(Rules.parse("p3c3"))
    rng = np.random.default_rng(seed)
    m = int(rng.integers(3, 7))
    members = np.sort(rng.choice(table.n, size=m, replace=False)).astype(np.int32)
    weights = rng.integers(0, 5, size=m).astype(np.int64)
    order = np.lexsort((members, -weights))
    members, weights = members[order], weights[order]
    search = Search(table, np.ones(table.n, dtype=np.int64), full_group(table.rules))
    rank, _ = search.rank_cost(10)
    seen = np.zeros(table.rules.n_answer_slots + 1, dtype=np.int64)
    bound = class_bound(table.scores, members, weights, rank, 1, True, seen)
    exact = _brute_class_cost(table, members.tolist(), weights)
    assert bound <= exact
    if m == 3:
        assert bound == exact


@pytest.mark.parametrize("seed", range(8))
def test_perfect_member_matches_brute_force(seed):
    table = CodeTable(Rules.parse("p3c4"))
    rng = np.random.default_rng(seed)
    cands = np.sort(rng.choice(table.n, size=int(rng.integers(2, 9)), replace=False)).astype(np.int32)
    got = perfect_member(table.scores, cands, table.rules.n_answer_slots)
    expect = -1
    for i, g in enumerate(cands.tolist()):
        others = [int(table.scores[g, s]) for s in cands.tolist() if s != g]
        if len(set(others)) == len(others):
            expect = i
            break
    assert got == expect


def _telling(table, members):
    """Whether a member's answers tell the other members apart."""
    for g in members:
        others = [int(table.scores[g, s]) for s in members if s != g]
        if len(set(others)) == len(others):
            return True
    return False


def _cheapest_member_reference(table, cands):
    """``cheapest_member`` in plain Python: the most classes a candidate splits the others
    into, and the first candidate making that many with a telling member in every class."""
    shapes = []
    for g in cands:
        classes = {}
        for s in cands:
            if s != g:
                classes.setdefault(int(table.scores[g, s]), []).append(s)
        shapes.append((len(classes), all(_telling(table, c) for c in classes.values())))
    most = max((c for c, _ in shapes), default=-1)
    j = next((i for i, (c, ok) in enumerate(shapes) if c == most and ok), -1)
    return j, most


@pytest.mark.parametrize("seed", _half_slow(60))
def test_cheapest_member_matches_plain_python_and_its_cost_is_the_optimum(seed):
    """The bound ``dfs`` takes from the candidates alone holds, and where the search takes a
    set's cost from them (the member making the most classes, each with a telling member,
    that beats every other guess's bound), that cost is the set's optimum by plain
    recursion over every guess."""
    from .reference import reference_cost

    game = ("p3c3", "p3c4", "p4c4", "p2c5")[seed % 4]
    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 10))
    cands = np.sort(rng.choice(table.n, size=n, replace=False)).astype(np.int32)
    j, most = cheapest_member(table.scores, cands, table.rules.n_answer_slots)
    assert (int(j), int(most)) == _cheapest_member_reference(table, cands.tolist())
    branching = Search(table, np.ones(table.n, dtype=np.int64), full_group(table.rules)).branching
    optimum = reference_cost(table, cands.tolist())
    # the bound the search cuts with before weighing any guess, and its optimum where met
    assert min(3 * n - 2 - most, 3 * n - min(n, branching)) <= optimum
    if j >= 0 and 3 * n - 2 - most <= 3 * n - min(n, branching):
        assert optimum == 3 * n - 2 - most


def _other_classes(table, g, cands):
    """The classes guess ``g`` splits ``cands`` into, or -1 if it is one of them."""
    answers = [int(table.scores[g, s]) for s in cands]
    return -1 if table.rules.win_index in answers else len(set(answers))


@pytest.mark.parametrize("seed", range(40))
def test_most_other_classes_matches_plain_python(seed):
    game = ("p3c3", "p3c4", "p4c4", "p2c5n")[seed % 4]
    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(3000 + seed)
    cands = np.sort(rng.choice(table.n, size=min(table.n, int(rng.integers(1, 30))), replace=False)).astype(
        np.int32
    )
    every = np.arange(table.n, dtype=np.int32)
    some = np.sort(rng.choice(table.n, size=int(rng.integers(1, table.n)), replace=False)).astype(np.int32)
    for guesses, all_guesses in ((every, True), (some, False)):
        slots = table.rules.n_answer_slots
        got, firsts = most_other_classes(table.scores, guesses, all_guesses, cands, slots)
        counts = [_other_classes(table, g, cands.tolist()) for g in guesses.tolist()]
        expect = max([0] + counts)
        assert got == expect
        assert firsts.tolist() == [i for i, c in enumerate(counts) if c == expect][: len(firsts)]
        assert len(firsts) == min(8, counts.count(expect))


@pytest.mark.parametrize("seed", range(40))
def test_classes_told_apart_and_the_cost_of_such_a_guess(seed):
    """A guess whose every class has a member telling its others apart: the kernel says so
    as plain Python does, and a guess that is no candidate making m such classes costs just
    3n - m with three guesses or more left (plain recursion), the cost ``dfs`` takes when
    that beats every other guess's bound."""
    from .reference import reference_cost

    game = ("p3c3", "p3c4", "p4c4", "p2c5")[seed % 4]
    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(4000 + seed)
    n = int(rng.integers(3, 12))
    cands = np.sort(rng.choice(table.n, size=n, replace=False)).astype(np.int32)
    for g in rng.choice(table.n, size=8, replace=False).tolist():
        parts: dict[int, list[int]] = {}
        for s in cands.tolist():
            parts.setdefault(int(table.scores[g, s]), []).append(s)
        told = all(_telling(table, part) for part in parts.values())
        assert classes_told_apart(table.scores, g, cands, table.rules.n_answer_slots) == told
        if told and table.rules.win_index not in parts:
            cost = n + sum(reference_cost(table, part, 2) for part in parts.values())
            assert cost == 3 * n - len(parts)


@pytest.mark.parametrize("seed", range(40))
def test_sets_no_member_tells_apart_cost_2n_exactly_when_another_guess_does(seed):
    """On a set where no candidate tells the others apart, every secret takes two guesses
    at least, so a guess telling them all apart makes the set cost exactly 2n; without one,
    any guess that is no candidate costs 2n + 1 at least, and no strategy finishes within
    two guesses: what ``dfs`` takes for such a set, by plain recursion."""
    from .reference import reference_cost

    game = ("p3c3", "p3c4", "p4c4", "p2c5")[seed % 4]
    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(3, 9))
    cands = np.sort(rng.choice(table.n, size=n, replace=False)).astype(np.int32)
    if perfect_member(table.scores, cands, table.rules.n_answer_slots) >= 0:
        return
    every = np.arange(table.n, dtype=np.int32)
    most, _ = most_other_classes(table.scores, every, True, cands, table.rules.n_answer_slots)
    optimum = reference_cost(table, cands.tolist())
    if most == n:
        assert optimum == 2 * n
    else:
        # a member first may still cost 2n (leaving one pair); a guess that is no member, more
        assert optimum >= 2 * n and _least_by_others(table, cands) >= 2 * n + 1
        assert reference_cost(table, cands.tolist(), 2) == math.inf


def _least_by_others(table, cands):
    """The least cost of ``cands`` with a first guess that is none of them, by plain recursion."""
    from .reference import reference_cost

    win = table.rules.win_index
    least = math.inf
    for g in range(table.n):
        if _other_classes(table, g, cands.tolist()) < 0:
            continue
        parts: dict[int, list[int]] = {}
        for s in cands.tolist():
            parts.setdefault(int(table.scores[g, s]), []).append(s)
        assert win not in parts
        least = min(least, len(cands) + sum(reference_cost(table, part) for part in parts.values()))
    return least


@pytest.mark.parametrize("seed", _half_slow(40))
def test_a_guess_that_is_no_candidate_costs_3n_less_its_classes_at_least(seed):
    """Each class of j secrets costs 2j - 1 at least, so a guess that is no candidate and
    makes m classes costs at least 3n - m: the bound ``dfs`` refutes a set with, before any
    guess is weighed, from the most classes such a guess makes (plain recursion)."""

    game = ("p3c3", "p3c4", "p4c4", "p2c5")[seed % 4]
    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(2000 + seed)
    n = int(rng.integers(2, 12))
    cands = np.sort(rng.choice(table.n, size=n, replace=False)).astype(np.int32)
    every = np.arange(table.n, dtype=np.int32)
    most, _ = most_other_classes(table.scores, every, True, cands, table.rules.n_answer_slots)
    assert _least_by_others(table, cands) >= 3 * n - most


@pytest.mark.parametrize("n", [0, 1, 3, 40, 252, 255, 256, 300, 600])
@pytest.mark.parametrize("all_guesses", [True, False])
@pytest.mark.parametrize("game", ["p4c5", "p4c6n", "p5c7n"])
def test_class_table_matches_a_plain_count(n, all_guesses, game):
    """Blocks of 252 candidates (four at a time) counted in bytes add up right, for every
    guess list, and so do the statistics of one block and of several; only the answers the
    game has get a row (without repetition 4x6 has no answer with fewer than 2 pegs, 5x7
    none with fewer than 3): no secret gives any other."""
    table = CodeTable(Rules.parse(game))
    rng = np.random.default_rng(n)
    cands = np.sort(rng.choice(table.n, size=min(n, table.n), replace=False)).astype(np.int32)
    guesses = table.all_codes if all_guesses else rng.permutation(table.n)[:200].astype(np.int32)
    slots = np.asarray(table.rules.answer_slots)
    win = table.rules.win_index
    assert len(slots) < table.rules.n_answer_slots  # (the (p-1, 1) answer at least is left out)
    counts, parts, largest, spread = class_table(table.scores, guesses, all_guesses, cands, slots)
    expect = np.zeros((table.rules.n_answer_slots, len(guesses)), dtype=np.int64)
    for gi, g in enumerate(guesses.tolist()):
        np.add.at(expect[:, gi], table.scores[g, cands].astype(np.int64), 1)
    assert counts.dtype == np.uint16
    assert (counts == expect[slots]).all()
    assert expect.sum() == len(cands) * len(guesses)  # nothing in the rows left out
    classes = expect[np.arange(len(expect)) != win]
    assert (parts == (classes > 0).sum(axis=0)).all()
    assert (largest == expect.max(axis=0)).all()
    assert (spread == (expect**2).sum(axis=0)).all()
    for gi in (0, len(guesses) - 1):
        assert (answer_column(counts, gi, slots) == expect[:, gi]).all()


@pytest.mark.parametrize("seed", range(10))
def test_capped_refined_bound_matches_refined_bound(seed):
    table, search, cands, w = _setup("p4c4n", seed, weighted=False, sizes=(4, 40))
    rules = table.rules
    n_slots, win = rules.n_answer_slots, rules.win_index
    rank, _ = search.rank_cost(3, 8)
    scratch = refine_buffers(table.scores, cands, w, n_slots, True)
    assert (scratch[-1] == table.scores[np.ix_(cands, cands)]).all()  # the answers among cands
    slots = np.asarray(rules.answer_slots)
    counts = class_table(table.scores, table.all_codes, True, cands, slots)[0]
    for g in range(table.n):
        count = answer_column(counts, g, slots)
        full = refined_bound(table.scores, g, cands, w, rank, n_slots, win, 1, True, scratch)
        if np.any(count[np.arange(n_slots) != win] > len(rank)):
            continue
        base = sum(int(rank[:m].sum()) for a, m in enumerate(count.tolist()) if a != win)
        for limit in (base, base + 1, base + 2, full, full + 1, 10**9):
            got = refined_bound_capped(table.scores, g, cands, w, rank, count, win, 1, base, limit, scratch)
            if full < limit:
                assert got == full
            else:
                assert limit <= got <= full
