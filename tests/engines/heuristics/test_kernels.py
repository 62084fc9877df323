"""The numba scoring kernel against its plain numpy twin, and the lower bound it relies on."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind.core._kernels import answers_of
from mastermind.core.game import CodeTable, Rules
from mastermind.core.partitions import entropy_bits, expected_size, largest, parts
from mastermind.engines.heuristics import _kernels
from mastermind.engines.heuristics.scores import (
    CRITERIA,
    best_possible_key,
    class_counts_numpy,
    guess_keys,
    guess_keys_numpy,
    keys_from_counts,
    lexicographic_minima,
    sorted_distributions,
    xlogx_table,
)

GAMES = [
    Rules(4, 6),
    Rules(3, 5, repeat=False),
    Rules(2, 9),
    Rules(4, 6, variant="black-peg"),
    Rules.parse("p3c5nb"),
]


@pytest.fixture(scope="module", params=GAMES, ids=str)
def tables(request):
    rules = request.param
    return CodeTable(rules), CodeTable(rules, full=False)


@pytest.mark.parametrize("criterion", CRITERIA)
def test_kernel_matches_numpy(tables, criterion):
    full, rows_only = tables
    rng = np.random.default_rng(7)
    n_codes = full.n
    for n in (1, 2, 3, 14, 15, 40, n_codes):
        cands = np.sort(rng.choice(n_codes, min(n, n_codes), replace=False))
        shuffled = rng.choice(n_codes, 300)  # unsorted, with repeats
        for guesses in (full.all_codes, shuffled, np.sort(shuffled), full.all_codes[5:700]):
            expected = guess_keys_numpy(full, cands, guesses, criterion)
            for table in (full, rows_only):
                got = guess_keys(table, cands, guesses, criterion)
                np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


# each criterion once and each variant with two: the answer slot that would wrap is the
# variant's, the same for every criterion (the other four pairs, 1.4 s of CPU, are slow)
@pytest.mark.parametrize(
    ("criterion", "variant"),
    [
        pytest.param(c, v, marks=() if (i + (v == "black-peg")) % 2 == 0 else pytest.mark.slow)
        for i, c in enumerate(CRITERIA)
        for v in ("standard", "black-peg")
    ],
)
def test_kernel_matches_numpy_with_many_pegs(criterion, variant):
    # from 16 pegs black * pegs + common, the kernel's answer slot, passes 255. Codes with
    # nearby indices share most pegs (many blacks), their complements share none (no
    # black): a wrapped slot would merge such classes.
    table = CodeTable(Rules(17, 2, variant=variant), full=False)
    rng = np.random.default_rng(5)
    near = np.arange(900, 1800)
    cands = np.union1d(near, table.n - 1 - near)
    for guesses in (np.arange(1000, 1700), rng.choice(near, 300)):
        expected = guess_keys_numpy(table, cands, guesses, criterion)
        got = guess_keys(table, cands, guesses, criterion)
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_computed_answers_match_the_table(tables):
    full, _ = tables
    rng = np.random.default_rng(3)
    for guess in rng.choice(full.n, 20).tolist():
        cands = rng.choice(full.n, 50).astype(np.int32)
        out = np.empty(len(cands), dtype=np.uint8)
        answers_of(full.codes, full.counts, full.rules.answer_lut, guess, cands, out)
        np.testing.assert_array_equal(out, full.scores[guess, cands])


def test_trees_without_the_table_equal_trees_with_it():
    for rules in (Rules(3, 5), Rules(3, 5, variant="black-peg")):
        _trees_agree(rules)


def _trees_agree(rules):
    from mastermind.engines.heuristics import play_all
    from mastermind.engines.registry import HEURISTIC_NAMES, make_strategy

    full, rows_only = CodeTable(rules), CodeTable(rules, full=False)
    for name in HEURISTIC_NAMES:
        a = play_all(make_strategy(name, full, seed=1))
        b = play_all(make_strategy(name, rows_only, seed=1))
        assert a.root == b.root, name


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("full", [True, False], ids=["table", "computed"])
@pytest.mark.parametrize("rules", ["p4c6", "p4c6b"])
def test_parallel_driver_matches_serial(criterion, full, rules):
    table = CodeTable(Rules.parse(rules))
    scores = table.scores if full else np.zeros((0, 0), dtype=np.uint8)
    rng = np.random.default_rng(3)
    cands = np.sort(rng.choice(table.n, 200, replace=False)).astype(np.int32)
    guesses = np.concatenate([table.all_codes, rng.choice(table.n, 77).astype(np.int32)])
    args = (
        scores,
        np.ascontiguousarray(table.codes),
        np.ascontiguousarray(table.counts),
        table.rules.answer_lut,
        cands,
        guesses,
        table.rules.n_answer_slots,
        {"minimax": 0, "expected-size": 1, "entropy": 2, "most-parts": 3}[criterion],
        xlogx_table(table.n),
    )
    serial, parallel = np.empty(len(guesses)), np.empty(len(guesses))
    _kernels.score_guess_range(*args, 0, len(guesses), serial)
    _kernels.score_guesses_parallel(*args, parallel)
    np.testing.assert_array_equal(serial, parallel)
    np.testing.assert_allclose(serial, guess_keys_numpy(table, cands, guesses, criterion), atol=1e-9)


@pytest.mark.parametrize("full", [True, False], ids=["table", "computed"])
def test_the_scorer_reads_the_tables_codes_without_copying_them(full):
    """Transposed copies of every code and colour count cost 16 bytes a code of p8c8 (268 MB),
    beyond what --memory-limit counts: `simulate -r p8c8 --memory-limit 0.44` peaked at 792
    MB."""
    from mastermind.engines.heuristics.scores import Scorer

    table = CodeTable(Rules.parse("p4c6"), full=full)
    scorer = Scorer(table, "minimax")
    assert scorer._args[1] is table.codes and scorer._args[2] is table.counts


def test_keys_agree_with_the_partition_measures():
    # the integer / n ln n forms order guesses exactly as the textbook measures do
    table = CodeTable(Rules(4, 6))
    counts = class_counts_numpy(table, table.all_codes, table.all_codes[:200])
    n = table.n
    mm = keys_from_counts(counts, "minimax")
    ss = keys_from_counts(counts, "expected-size")
    ent = keys_from_counts(counts, "entropy")
    mp = keys_from_counts(counts, "most-parts")
    for row, a, b, c, d in zip(counts, mm, ss, ent, mp):
        assert a == largest(row) and d == -parts(row)
        assert b / n == pytest.approx(expected_size(row))
        assert np.log2(n) - c / n / np.log(2) == pytest.approx(entropy_bits(row))


def test_first_guess_keys_of_p4c6():
    table = CodeTable(Rules(4, 6))
    firsts = [table.rules.parse_code(t) for t in ("1111", "1112", "1122", "1123", "1234")]
    keys = {c: guess_keys(table, table.all_codes, np.array(firsts), c).tolist() for c in CRITERIA}
    assert keys["minimax"] == [625, 317, 256, 276, 312]
    assert keys["most-parts"] == [-5, -11, -13, -14, -14]
    assert np.argmin(keys["expected-size"]) == 3  # 1123, Irving
    assert np.argmin(keys["entropy"]) == 4  # 1234


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_best_possible_key_is_a_lower_bound(data):
    rules = data.draw(st.sampled_from([Rules(2, 4), Rules(3, 3), Rules(3, 4, repeat=False)]))
    table = CodeTable(rules)
    cands = np.array(sorted(data.draw(st.sets(st.integers(0, table.n - 1), min_size=1))))
    for criterion in CRITERIA:
        keys = guess_keys(table, cands, table.all_codes, criterion)
        bound = best_possible_key(criterion, len(cands), len(rules.answers))
        assert keys.min() >= bound - 1e-9


def test_sorted_distributions_and_lexicographic_minima():
    table = CodeTable(Rules(4, 6))
    guesses = np.array([table.rules.parse_code(t) for t in ("1122", "1123", "2211")])
    dists = sorted_distributions(table, table.all_codes, guesses)
    assert dists[0, 0] == 256 and list(dists[0]) == list(dists[2])
    assert (np.diff(dists, axis=1) <= 0).all()
    assert lexicographic_minima(dists).tolist() == [0, 2]


def test_out_of_range_codes_are_refused():
    from mastermind.core.errors import MastermindError

    table = CodeTable(Rules(2, 3))
    with pytest.raises(MastermindError, match="out of range"):
        guess_keys(table, np.array([0, 9]), table.all_codes, "minimax")
    with pytest.raises(MastermindError, match="guess index"):
        guess_keys(table, table.all_codes, np.array([-1]), "entropy")


def test_criterion_codes_match_the_kernel():
    from mastermind.engines.heuristics import scores

    assert scores._CODES == {
        "minimax": _kernels.MINIMAX,
        "expected-size": _kernels.SUM_SQUARES,
        "entropy": _kernels.SUM_XLOGX,
        "most-parts": _kernels.NEG_PARTS,
    }
