"""numba kernel of the strategy search: every guess on a candidate set scored two ways at once,
by its perfect-tree lower bound (as the exact search bounds it) and by the entropy of its
answers. The pure-Python twin is in the tests.
"""

import numba as nb
import numpy as np

from mastermind.engines.exact._kernels import class_table, guess_bounds


@nb.njit(cache=True, nogil=True)
def rank_guesses(scores, guesses, all_guesses, cands, weights, rank_tables, size_tables, xlogx, slots):
    """Per guess: the perfect-tree bound of its non-winning classes (``ok`` False where a
    class does not fit in the guesses left), ``sum n_a ln n_a`` over its answer classes (the
    smaller, the higher the entropy), the sum of squared class sizes, and whether it is
    useful (splits the set or may win). Unweighted sets only (``weights`` all ones)."""
    win = slots[-1]
    counts, parts, largest, spread = class_table(scores, guesses, all_guesses, cands, slots)
    n_guesses = guesses.shape[0]
    most = np.int64(1)
    for gi in range(n_guesses):
        most = max(most, np.int64(parts[gi]))
    b = min(most, rank_tables.shape[0] - 1)
    # unweighted, as a runtime bool as plan_node passes it: a literal False would compile and
    # cache a second guess_bounds
    weighted = n_guesses < 0
    bound, ok = guess_bounds(
        scores, guesses, counts, parts, largest, cands, weights, rank_tables[b], size_tables[b], win, weighted
    )
    spread_out = np.zeros(n_guesses, dtype=np.float64)
    xlx = np.zeros(n_guesses, dtype=np.float64)
    useful = np.empty(n_guesses, dtype=np.bool_)
    n_rows = counts.shape[0]
    for i in range(n_rows):
        row = counts[i]
        for gi in range(n_guesses):
            xlx[gi] += xlogx[row[gi]]
    wins = counts[n_rows - 1]
    for gi in range(n_guesses):
        spread_out[gi] = spread[gi]
        useful[gi] = (wins[gi] > 0) | (parts[gi] > 1)
    return bound, ok, xlx, spread_out, useful


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
