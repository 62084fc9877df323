import numpy as np
import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.core.symmetry import apply
from mastermind.engines.gamevalue.classes import code_classes


@pytest.mark.parametrize("text", ["p2c2", "p3c4", "p4c6", "p4c6n", "p3c2"])
def test_classes_partition_the_codes_and_are_closed_under_symmetry(text):
    table = CodeTable(Rules.parse(text), full=False)
    classes = code_classes(table)
    assert classes.sizes.sum() == table.n
    assert len(set(classes.names)) == len(classes)
    rng = np.random.default_rng(0)
    p, c = table.rules.pegs, table.rules.colors
    for _ in range(5):
        moved = apply(table.codes, rng.permutation(p), rng.permutation(c))
        index = np.array([table.rules.code_from_digits(row) for row in moved.tolist()])
        assert np.array_equal(classes.of_code[index], classes.of_code)
    for k, example in enumerate(classes.examples):
        assert classes.of_code[example] == k
        assert example == classes.members(k).min()


def test_no_repetition_has_one_class():
    classes = code_classes(CodeTable(Rules.parse("p3c5n"), full=False))
    assert classes.names == ("abc",) and classes.sizes.tolist() == [60]


def test_totals_are_exact_class_sums():
    classes = code_classes(CodeTable(Rules(2, 3), full=False))
    depths = np.arange(9)
    totals = classes.totals(depths)
    for k, total in enumerate(totals):
        assert total == int(depths[classes.members(k)].sum())


@pytest.mark.parametrize("text", ["p2c3", "p3c3", "p3c4n", "p4c4"])
def test_weights_equal_within_classes_keep_the_whole_group(text):
    """Best replies weigh codes equally within classes: the stabilizer found through the
    group's generators is the one an element-by-element check finds."""
    from mastermind.core._symmetry_kernels import stabilizer_mask
    from mastermind.core.symmetry import (
        all_colour_permutations,
        code_lookup,
        position_permutations,
        stabilizer_group,
    )

    rules = Rules.parse(text)
    codes = rules.codes_array()
    k = code_classes(CodeTable(rules))
    weights = np.random.default_rng(1).random(len(k))[k.of_code]
    perms, cmaps = stabilizer_group(rules, codes, weights)
    pos, col = position_permutations(rules.pegs), all_colour_permutations(rules.colors)
    mask = stabilizer_mask(codes, code_lookup(rules, codes), weights, pos, col, np.int64(rules.colors))
    assert mask.all()
    pi, ci = np.nonzero(mask)
    assert np.array_equal(perms, pos[pi]) and np.array_equal(cmaps, col[ci])
