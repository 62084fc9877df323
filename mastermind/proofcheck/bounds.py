"""The checker's own lower bounds, from a set's size alone (the counting bound of a perfect
tree). If no guess splits a set S into more than ``b`` non-winning classes, neither does any
guess split a subset of S, at any depth: at most one secret of a subset is found with one
guess, at most b with two, b**2 with three, and so on.

>>> from mastermind.proofcheck.bounds import depth_floors, total_floors
>>> total_floors(6, 2).tolist(), depth_floors(6, 2).tolist()
([0, 1, 3, 5, 8, 11, 14], [0, 1, 2, 2, 3, 3, 3])
"""

from __future__ import annotations

import numpy as np


def _depths(m: int, b: int) -> np.ndarray:
    """The guesses the k-th cheapest of m secrets needs at least (k = 0..m-1)."""
    out = np.zeros(m, dtype=np.int64)
    k, depth, width = 0, 1, 1
    while k < m:
        out[k : k + width] = depth
        k += width
        depth += 1
        width *= max(b, 1)
    return out


def total_floors(m: int, b: int) -> np.ndarray:
    """``floors[k]``: the least total (guesses summed over the secrets) of any k <= m
    secrets of the set."""
    return np.concatenate(([0], np.cumsum(_depths(m, b))))


def depth_floors(m: int, b: int) -> np.ndarray:
    """``floors[k]``: the least worst case (guesses for the hardest secret) of any k <= m
    secrets of the set (0 for none)."""
    return np.concatenate(([0], _depths(m, b)))
