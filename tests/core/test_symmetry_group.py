"""The group that fixes the guesses so far: kernels against the pure-Python references."""

import itertools

import numpy as np
import pytest

from mastermind.core._symmetry_kernels import restrict_group_kernel
from mastermind.core.game import Rules
from mastermind.core.symmetry import (
    canonical_codes,
    full_group,
    is_canonical_reference,
    restrict_group,
    restrict_group_reference,
    stabilizer_group,
    stabilizer_reference,
)


@pytest.mark.parametrize("rules_text", ["p4c6", "p3c5n", "p4c4"])
@pytest.mark.parametrize("seed", range(3))
def test_restrict_and_canonical_match_reference(rules_text, seed):
    rules = Rules.parse(rules_text)
    codes = rules.codes_array()
    rng = np.random.default_rng(seed)
    perms, cmaps = full_group(rules)
    for _ in range(3):
        guess = codes[int(rng.integers(rules.n_codes))]
        keep_ref, new_ref = restrict_group_reference(perms, cmaps, tuple(guess.tolist()))
        keep, new = restrict_group_kernel(perms, cmaps, guess)
        assert keep.tolist() == keep_ref.tolist()
        assert new[keep].tolist() == new_ref[keep_ref].tolist()
        perms, cmaps = restrict_group(perms, cmaps, guess)
        absent = sorted(set(rng.choice(rules.colors, size=int(rng.integers(0, 3))).tolist()))
        got = canonical_codes(codes, perms, cmaps, absent).tolist()
        expect = [
            i for i, row in enumerate(codes.tolist()) if is_canonical_reference(row, perms, cmaps, absent)
        ]
        assert got == expect
        # every element really fixes the guess
        for p, c in zip(perms.tolist(), cmaps.tolist()):
            assert [c[guess[p[i]]] for i in range(rules.pegs)] == guess.tolist()


def test_first_guesses_and_group_sizes():
    rules = Rules.parse("p4c6")
    codes = rules.codes_array()
    perms, cmaps = full_group(rules)
    assert [rules.code_text(c) for c in canonical_codes(codes, perms, cmaps)] == [
        "1111",
        "1112",
        "1122",
        "1123",
        "1234",
    ]
    p2, c2 = restrict_group(perms, cmaps, codes[rules.parse_code("1123")])
    # swap the two 1s, and/or swap the last two pegs with colours 2 and 3; 4, 5, 6 stay free
    assert len(p2) == 4 and int((c2[0] < 0).sum()) == 3
    # one code per orbit of the symmetries fixing 1123: count the orbits by brute force over
    # every peg permutation and colour permutation (24 x 720) that maps 1123 to itself
    guess = codes[rules.parse_code("1123")].tolist()
    fixing = [
        (p, c)
        for p in itertools.permutations(range(4))
        for c in itertools.permutations(range(6))
        if all(c[guess[p[i]]] == guess[i] for i in range(4))
    ]
    index = {tuple(row): i for i, row in enumerate(codes.tolist())}
    seen, orbits = set(), 0
    for i, row in enumerate(codes.tolist()):
        if i not in seen:
            orbits += 1
            seen.update(index[tuple(c[row[p[k]]] for k in range(4))] for p, c in fixing)
    assert len(fixing) == 24 and len(canonical_codes(codes, p2, c2)) == orbits == 130


@pytest.mark.parametrize("rules_text", ["p2c3", "p3c3", "p2c4n"])
@pytest.mark.parametrize("seed", range(3))
def test_stabilizer_matches_brute_force(rules_text, seed):
    rules = Rules.parse(rules_text)
    rng = np.random.default_rng(seed)
    if seed == 0:
        values = np.ones(rules.n_codes)
    else:
        # values constant on a random union of classes keeps some symmetry
        values = rng.integers(0, 2, size=rules.n_codes).astype(float)
    perms, cmaps = stabilizer_group(rules, rules.codes_array(), values)
    assert len(perms) == stabilizer_reference(rules, values.tolist())
