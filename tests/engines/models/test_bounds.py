"""Lower bounds: definitions on hand-checkable cases, and never above the exact optimum."""

import numpy as np
import pytest

from mastermind.core.game import CodeTable, Feedback, Rules
from mastermind.engines.exact import Problem, solve
from mastermind.engines.heuristics import play_all
from mastermind.engines.models.bounds import (
    counting_worst_bound,
    crude_worst_bound,
    knuth_first_guess,
    lookahead_total_bound,
    lookahead_totals_by_first_guess,
    lookahead_worst_bound,
    perfect_tree_table,
    perfect_tree_total,
    perfect_tree_value,
    solved_within,
)
from mastermind.engines.registry import make_strategy

# games the exact solver finishes in well under a second
SMALL = [(2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]


@pytest.fixture(scope="module")
def p4c6():
    return CodeTable(Rules(4, 6))


def test_perfect_tree_counts_levels():
    # p2c3: B = 4 non-winning answers: depth 1 holds 1 secret, depth 2 holds 4, depth 3 16
    table = perfect_tree_table(Rules(2, 3), 9)
    assert table.tolist() == [0, 1, 3, 5, 7, 9, 12, 15, 18, 21]
    assert solved_within(Rules(2, 3), 3) == 21


def test_counting_bound_is_first_depth_that_holds_n():
    rules = Rules(4, 6)  # B = 13: 1, 14, 183, 2380
    assert [counting_worst_bound(rules, n) for n in (1, 2, 14, 15, 183, 184, 1296)] == [1, 2, 2, 3, 3, 4, 4]


def test_crude_bound_definition():
    rules = Rules(4, 6)  # k = 14 answers: 14 ** 2 = 196 < 256 <= 14 ** 3
    assert crude_worst_bound(rules, 196) == 4
    assert crude_worst_bound(rules, 197) == 5
    assert crude_worst_bound(rules, 256) == 5


# published table: Knuth's first guess and its largest class
@pytest.mark.parametrize(
    "pegs,colors,first,largest",
    [
        (2, 2, "11", 2),
        (2, 4, "12", 6),
        (3, 3, "112", 6),
        (3, 4, "123", 15),
        (4, 4, "1123", 46),
        (4, 5, "1122", 120),
        (4, 6, "1122", 256),
    ],
)
def test_knuth_first_guess_and_largest_class(pegs, colors, first, largest):
    table = CodeTable(Rules(pegs, colors))
    guess, mu = knuth_first_guess(table)
    assert (table.rules.code_text(guess), mu) == (first, largest)
    # it is the least largest class over every guess, not only the canonical ones
    assert mu == min(int(table.partition(g).max()) for g in range(table.n))


def test_two_level_total_bound_p4c6(p4c6):
    by_first = lookahead_totals_by_first_guess(p4c6, 2)
    texts = {p4c6.rules.code_text(g): v for g, v in by_first.items()}
    overall = lookahead_total_bound(p4c6, 2)
    assert overall == min(texts.values())
    assert overall == texts["1123"]  # the best opening for the bound, as published
    # proven bounds: below the optimum 5625 and below each first guess's own optimum
    assert overall <= 5625
    assert lookahead_total_bound(p4c6, 1) <= overall
    assert perfect_tree_total(p4c6.rules, 1296) <= lookahead_total_bound(p4c6, 1)


def _plain_sizes(table, cands):
    """(every code, answer): class sizes of each code on ``cands``, the win column zeroed."""
    rows = table.scores[:, cands].astype(np.int64)
    slots = table.rules.n_answer_slots
    offsets = (np.arange(table.n, dtype=np.int64) * slots)[:, None]
    sizes = np.bincount((rows + offsets).ravel(), minlength=table.n * slots).reshape(table.n, slots)
    sizes[:, table.rules.win_index] = 0
    return sizes


def plain_two_level_total(table, first):
    """The two-level total bound with the parent's branching, straight from its definition in
    mastermind.engines.models.bounds: no memo, no pruning, no symmetry. Below the first guess
    each class C of n secrets costs n + min over every code h of the sum, over h's classes D
    on C, of the perfect-tree total of D with the branching of C (the most non-winning answers
    any code gets on C, at most B and n - 1); classes of one or two secrets use B itself."""
    rules = table.rules
    perfect = perfect_tree_table(rules, table.n)
    first_answers = table.scores[first]
    total = table.n
    for a in set(first_answers.tolist()) - {rules.win_index}:
        cands = np.flatnonzero(first_answers == a)
        n = len(cands)
        if n <= 1:
            total += int(perfect[n])
            continue
        sizes = _plain_sizes(table, cands)
        b = min(int((sizes > 0).sum(axis=1).max()), len(rules.answers) - 1, n - 1)
        cost = np.array([int(perfect[k]) if k <= 2 else perfect_tree_value(k, b) for k in range(n + 1)])
        total += n + int(cost[sizes].sum(axis=1).min())
    return total


def test_two_level_total_bound_p4c6_by_first_guess(p4c6):
    """5442 (first guess 1123) is the bound of the table this bound reproduces; every value is
    checked against the plain computation of the same definition."""
    by_first = lookahead_totals_by_first_guess(p4c6, 2)
    texts = {p4c6.rules.code_text(g): v for g, v in by_first.items()}
    assert texts == {p4c6.rules.code_text(g): plain_two_level_total(p4c6, g) for g in by_first}
    assert texts == {"1111": 6040, "1112": 5611, "1122": 5513, "1123": 5442, "1234": 5515}


def test_refined_two_level_bound_p4c6_beats_the_published_one(p4c6):
    by_first = lookahead_totals_by_first_guess(p4c6, 2, refined=True)
    texts = {p4c6.rules.code_text(g): v for g, v in by_first.items()}
    assert texts == {"1111": 6096, "1112": 5700, "1122": 5618, "1123": 5532, "1234": 5585}
    published = {"1111": 6040, "1112": 5611, "1122": 5513, "1123": 5442, "1234": 5515}
    for g, value in by_first.items():
        assert published[p4c6.rules.code_text(g)] <= value
    best = min(by_first.values())
    assert lookahead_total_bound(p4c6, 2, refined=True) == best
    assert 5442 < best <= 5625  # above the published bound, below the optimum
    # every first guess's bound is below that opening's own optimum (5625 is reached by 1123)
    assert by_first[p4c6.rules.parse_code("1123")] <= 5625


@pytest.mark.parametrize("pegs,colors", SMALL)
def test_every_bound_is_below_the_exact_optimum(pegs, colors):
    table = CodeTable(Rules(pegs, colors))
    total = solve(table)
    worst = solve(table, Problem(objective="worst")).worst
    assert total.proven
    n = table.n
    _, mu = knuth_first_guess(table)
    worst_bounds = [
        crude_worst_bound(table.rules, mu),
        counting_worst_bound(table.rules, n),
        lookahead_worst_bound(table, 1),
        lookahead_worst_bound(table, 2),
    ]
    assert max(worst_bounds) <= worst
    assert lookahead_worst_bound(table, 2) <= lookahead_worst_bound(table, 2, refined=True) <= worst
    total_bounds = [
        perfect_tree_total(table.rules, n),
        lookahead_total_bound(table, 1),
        lookahead_total_bound(table, 2),
        lookahead_total_bound(table, 2, refined=True),
    ]
    assert total_bounds == sorted(total_bounds)  # more lookahead never weakens the bound
    assert total_bounds[-1] <= total.total
    plain = lookahead_totals_by_first_guess(table, 2)
    refined = lookahead_totals_by_first_guess(table, 2, refined=True)
    for g, bound in plain.items():
        assert bound <= refined[g] <= solve(table, Problem(first_guess=g)).total


def test_three_level_bound_below_optimum_on_tiny_games():
    for pegs, colors in [(2, 3), (3, 2), (2, 4)]:
        table = CodeTable(Rules(pegs, colors))
        assert lookahead_total_bound(table, 2) <= lookahead_total_bound(table, 3) <= solve(table).total


def test_refined_bound_uses_the_branching_of_the_set():
    # the permutations of 123 in p3c3 share their colours, so a guess's answers on them differ
    # only in black pegs: at most 3 non-winning answers, and 6 secrets cost more than with 8
    table = CodeTable(Rules(3, 3))
    perms = np.array(
        sorted(
            table.rules.code_from_digits(d)
            for d in [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        )
    )
    plain = lookahead_total_bound(table, 0, candidates=perms)
    refined = lookahead_total_bound(table, 0, candidates=perms, refined=True)
    assert plain == perfect_tree_value(6, 8) == 11
    most = max(len({table.feedback(int(s), g) for s in perms} - {Feedback(3, 0)}) for g in range(table.n))
    assert most == 3
    assert refined == perfect_tree_value(6, most) == 13  # 1 + 3 * 2 + 2 * 3
    assert refined <= solve(table, Problem(candidates=perms)).total


def test_bounds_on_a_subset():
    table = CodeTable(Rules(3, 3))
    cands = np.flatnonzero(table.scores[0] == table.scores[0, 5])
    assert lookahead_total_bound(table, 2, candidates=cands) <= solve(table, Problem(candidates=cands)).total


def test_knuth_worst_case_respects_crude_bound():
    table = CodeTable(Rules(3, 4))
    _, mu = knuth_first_guess(table)
    knuth = play_all(make_strategy("minimax", table)).stats(table)
    assert crude_worst_bound(table.rules, mu) <= knuth.worst == 4


def _kernel_tables(table: CodeTable):
    from mastermind.engines.models.bounds import _Lookahead

    return _Lookahead(table).kernel_tables


def test_most_answers_kernel_matches_reference():
    from mastermind.engines.models._kernels import most_answers, most_answers_reference

    rng = np.random.default_rng(5)
    for rules in (
        Rules(3, 3),
        Rules(2, 5),
        Rules(4, 3),
        Rules(4, 5, repeat=False),
        Rules(11, 1),
        Rules(11, 2),
    ):
        table = CodeTable(rules)  # p11c2: 78 answer indices, more than one 64-bit word
        tables = _kernel_tables(table)
        for size in (1, 2, 5, 12):
            cands = np.sort(rng.choice(table.n, min(size, table.n), replace=False)).astype(np.int64)
            want = most_answers_reference(table.scores, cands, rules.win_index)
            assert want == max(
                len({int(a) for a in row[cands] if a != rules.win_index}) for row in table.scores
            )
            assert most_answers(tables, cands, 10**6) == want
            assert most_answers(tables, cands, 2) == min(want, 2)


def _sets_to_bound(table: CodeTable, rng: np.random.Generator) -> list[np.ndarray]:
    """The classes of Knuth's first guess and a few random sets."""
    first, _ = knuth_first_guess(table)
    answers = table.scores[first]
    sets = [np.flatnonzero(answers == a).astype(np.int64) for a in np.unique(answers)]
    sets += [
        np.sort(rng.choice(table.n, k, replace=False)).astype(np.int64) for k in (3, 7, min(20, table.n))
    ]
    return sets


@pytest.mark.parametrize("name", ["p3c3", "p3c4", "p4c4", "p2c5", "p4c5n", "p4c3"])
def test_level_one_kernel_matches_reference(name):
    from mastermind.engines.models._kernels import level_one_total, level_one_total_reference

    table = CodeTable(Rules.parse(name))
    tables = _kernel_tables(table)
    every = np.arange(table.n, dtype=np.int64)
    rng = np.random.default_rng(11)
    for cands in _sets_to_bound(table, rng):
        for leaf_branching in (-1, 0, 2, len(tables.trees) - 1):  # -1: refined, each class its own
            want = level_one_total_reference(
                table.scores, tables.trees, table.rules.win_index, cands, every, leaf_branching
            )
            assert level_one_total(tables, cands, every, leaf_branching) == want


def test_level_one_kernel_matches_reference_p4c6(p4c6):
    """Once on p4c6 (refined, the classes of 1123 up to 40 secrets; 200 guesses for time)."""
    from mastermind.engines.models._kernels import level_one_total, level_one_total_reference

    tables = _kernel_tables(p4c6)
    guesses = np.sort(np.random.default_rng(3).choice(p4c6.n, 200, replace=False)).astype(np.int64)
    answers = p4c6.scores[p4c6.rules.parse_code("1123")]
    for a in np.unique(answers):
        cands = np.flatnonzero(answers == a).astype(np.int64)
        if len(cands) <= 40:
            want = level_one_total_reference(
                p4c6.scores, tables.trees, p4c6.rules.win_index, cands, guesses, -1
            )
            assert level_one_total(tables, cands, guesses, -1) == want
