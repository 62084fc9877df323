"""Measures of how well a guess splits a candidate set (its answer class sizes).

>>> from mastermind.core.partitions import entropy_bits, expected_size, largest, parts
>>> counts = [256, 256, 96, 16, 1, 256, 208, 36, 0, 114, 32, 4, 20, 0, 1]
>>> largest(counts), parts(counts), round(expected_size(counts), 3), round(entropy_bits(counts), 4)
(256, 13, 204.535, 2.8851)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def largest(counts: Sequence[int]) -> int:
    """Size of the largest class (Knuth's minimax criterion)."""
    return int(max(counts))


def parts(counts: Sequence[int]) -> int:
    """Number of non-empty classes."""
    return int(np.count_nonzero(np.asarray(counts)))


def sum_squares(counts: Sequence[int]) -> int:
    """sum n_i^2, the exact integer form of the expected size."""
    a = np.asarray(counts, dtype=np.int64)
    return int((a * a).sum())


def expected_size(counts: Sequence[int]) -> float:
    """Expected size of the class a random secret falls in: sum n_i^2 / n (Irving)."""
    n = int(np.sum(counts))
    return sum_squares(counts) / n if n else 0.0


def entropy_bits(counts: Sequence[int]) -> float:
    """Shannon entropy of the answer distribution, in bits."""
    n = int(np.sum(counts))
    if n == 0:
        return 0.0
    return 0.0 - sum(c / n * math.log2(c / n) for c in counts if c)  # 0.0, not -0.0, for one part
