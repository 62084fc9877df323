"""Colour and position permutations of codes, colour patterns and canonical guesses.

A symmetry of Mastermind is a pair (position permutation, colour permutation); applied to
both the secret and the guess it leaves the feedback unchanged, so codes in one orbit are
interchangeable as first guesses and as secrets.

>>> from mastermind.game import Rules
>>> r = Rules(4, 6)
>>> pattern(r.code_digits(r.parse_code("3632")))
'aabc'
"""

from __future__ import annotations

from itertools import permutations
from typing import Sequence

import numpy as np

from mastermind.game import Code, Rules


def pattern(digits: Sequence[int]) -> str:
    """The colour pattern of a code: multiplicities in descending order, as letters.

    ``aabc`` is a code with one colour twice and two other colours once each.
    """
    counts = sorted((list(digits).count(c) for c in set(digits)), reverse=True)
    return "".join(chr(ord("a") + i) * m for i, m in enumerate(counts))


def code_patterns(rules: Rules, codes: np.ndarray) -> list[str]:
    """The pattern of every row of an int8 code array."""
    return [pattern(tuple(row)) for row in codes.tolist()]


def canonical_first_guesses(rules: Rules) -> list[Code]:
    """The smallest code of each orbit under all colour and position permutations.

    Under the full group a code's orbit is fixed by its pattern, and the smallest member
    colours the largest block 1, the next 2, and so on: 1111, 1112, 1122, 1123, 1234.
    """
    if not rules.repeat:
        return [rules.code_from_digits(range(rules.pegs))]
    result = []
    for parts in integer_partitions(rules.pegs, rules.colors):
        digits = [colour for colour, size in enumerate(parts) for _ in range(size)]
        result.append(rules.code_from_digits(digits))
    return sorted(result)


def integer_partitions(n: int, max_parts: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """Partitions of n into at most ``max_parts`` parts, parts in descending order."""
    largest = n if largest is None else largest
    if n == 0:
        return [()]
    if max_parts == 0:
        return []
    out = []
    for first in range(min(n, largest), 0, -1):
        for rest in integer_partitions(n - first, max_parts - 1, first):
            out.append((first, *rest))
    return out


def position_permutations(pegs: int) -> np.ndarray:
    """Every permutation of the positions, shape (pegs!, pegs)."""
    return np.array(list(permutations(range(pegs))), dtype=np.int8).reshape(-1, pegs)


def apply(codes: np.ndarray, position_perm: Sequence[int], colour_perm: Sequence[int]) -> np.ndarray:
    """Map codes (int8 rows of 0-based colours): ``out[:, i] = colour_perm[codes[:, position_perm[i]]]``."""
    cp = np.asarray(colour_perm, dtype=np.int8)
    return cp[codes[:, list(position_perm)]]
