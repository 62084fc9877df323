"""The checker's own lower bounds, from a set's size alone (the counting bound of a perfect
tree). If no guess splits a set S into more than ``b`` non-winning classes, neither does any
guess split a subset of S, at any depth: at most one secret of a subset is found with one
guess, at most b with two, b**2 with three, and so on.

>>> from mastermind.proofcheck.bounds import depth_floors, total_floors, weighted_floor
>>> total_floors(6, 2).tolist(), depth_floors(6, 2).tolist()
([0, 1, 3, 5, 8, 11, 14], [0, 1, 2, 2, 3, 3, 3])
>>> weighted_floor([1, 5, 0, 2], 2)  # 5 at depth 1, 2 and 1 at depth 2, 0 at depth 3
11
"""

from __future__ import annotations

import numpy as np


def slot_depths(m: int, b: int) -> np.ndarray:
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
    return np.concatenate(([0], np.cumsum(slot_depths(m, b))))


def depth_floors(m: int, b: int) -> np.ndarray:
    """``floors[k]``: the least worst case (guesses for the hardest secret) of any k <= m
    secrets of the set (0 for none)."""
    return np.concatenate(([0], slot_depths(m, b)))


def weighted_floor(weights: object, b: int) -> int:
    """The least weighted total (``sum weight * guesses``) of a set of secrets of these
    non-negative weights, when no guess makes more than ``b`` non-winning classes of it.

    Sound: in any strategy tree for the set, at most b**(d-1) nodes are at depth d and each
    finds at most one secret, so the k-th smallest depth of the secrets is at least
    ``slot_depths(m, b)[k]`` (the perfect profile, ascending). Sorted so, the depths d_(k)
    pair with the weights; by the rearrangement inequality ``sum w_i d_i`` is at least the
    sum of the weights sorted heaviest first times the depths sorted ascending, and each of
    those depths is at least the profile's (the weights being non-negative). Equal weights
    give the counting bound of :func:`total_floors`."""
    heaviest = np.sort(np.asarray(weights, dtype=np.int64))[::-1]
    return int(heaviest @ slot_depths(len(heaviest), b))
