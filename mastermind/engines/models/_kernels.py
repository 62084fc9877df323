"""Numba kernels of the lookahead bounds, each beside the plain twin it is tested against.

- :func:`most_answers`: the branching of a set, the most non-winning answers any code gets on it.
- :func:`level_one_total`: the one-level total bound of a set, ``n + min_g sum_a leaf(S_a)``,
  where a class of more than two secrets is bounded by a perfect tree of a given branching or
  (refined) of its own.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from mastermind.core._kernels import stable_argsort

# What the kernels read, as one typed value. ``scores``: the symmetric answer matrix (uint8);
# ``trees[b, n]``: the least sum of depths of ``n`` secrets in a tree of branching ``b`` (see
# :func:`mastermind.engines.models.bounds.perfect_tree_table`), up to the game's branching
# ``b = len(trees) - 1``; ``win``: the winning answer, the last of ``slots`` answer indices.
BoundTables = namedtuple("BoundTables", ("scores", "trees", "win", "slots"))


def bound_tables(scores: np.ndarray, trees: np.ndarray, win: int, slots: int) -> BoundTables:
    return BoundTables(scores, trees, np.int64(win), np.int64(slots))


@nb.njit(cache=True, nogil=True, inline="always")
def _popcount(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@nb.njit(cache=True, nogil=True)
def most_answers(tables: BoundTables, cands: np.ndarray, cap: int) -> int:
    """Most distinct non-winning answers any code gets on ``cands``, at most ``cap``.

    The matrix is symmetric, so row ``s`` holds every code's answer to secret ``s``: the answers
    of all codes are gathered as bits, one pass over each candidate's row (vectorised).
    """
    scores = tables.scores
    n_codes = scores.shape[0]
    counts = np.zeros(n_codes, dtype=np.int64)
    bits = np.empty(n_codes, dtype=np.uint64)
    for word in range((tables.slots + 63) // 64):
        bits[:] = 0
        for s in cands:
            row = scores[s]
            for g in range(n_codes):
                a = np.int64(row[g])
                bits[g] |= np.uint64((a >> 6) == word) << np.uint64(a & 63)
        if tables.win >> 6 == word:
            keep = ~(np.uint64(1) << np.uint64(tables.win & 63))
            for g in range(n_codes):
                bits[g] &= keep
        for g in range(n_codes):
            counts[g] += _popcount(bits[g])
    return min(counts.max(), cap) if n_codes else 0


def most_answers_reference(scores: np.ndarray, cands: np.ndarray, win: int) -> int:
    """Obvious version of :func:`most_answers` (no cap): sort each code's answers, count changes."""
    if len(cands) == 0:
        return 0
    answers = np.sort(scores[:, cands], axis=1)
    distinct = 1 + np.count_nonzero(np.diff(answers, axis=1), axis=1) - (answers == win).any(axis=1)
    return int(distinct.max())


@nb.njit(cache=True, nogil=True)
def level_one_total(tables: BoundTables, cands: np.ndarray, guesses: np.ndarray, leaf_branching: int) -> int:
    """``n + min`` over ``guesses`` of the leaf bounds of its classes (the win excluded).

    A class of ``k > 2`` secrets is bounded by a perfect tree of branching ``leaf_branching``,
    or of its own branching (capped at ``k - 1``) when that is negative. Guesses are tried in
    the order of their perfect-tree sums (a lower bound of their value) until none can win.
    """
    scores, trees, win, slots = tables.scores, tables.trees, tables.win, tables.slots
    most = len(trees) - 1
    perfect = trees[most]
    n = len(cands)
    sizes = np.zeros((len(guesses), slots), dtype=np.int64)
    cheap = np.zeros(len(guesses), dtype=np.int64)
    for i in range(len(guesses)):
        row = scores[guesses[i]]
        for s in cands:
            sizes[i, row[s]] += 1
        sizes[i, win] = 0
        for a in range(slots):
            cheap[i] += perfect[sizes[i, a]]
    start = np.empty(slots + 1, dtype=np.int64)
    fill = np.empty(slots, dtype=np.int64)
    parts = np.empty(n, dtype=cands.dtype)
    best = np.iinfo(np.int64).max
    for i in stable_argsort(cheap):
        if n + cheap[i] >= best:
            break
        # the classes of this guess, one after the other in ``parts``
        row = scores[guesses[i]]
        start[0] = 0
        for a in range(slots):
            start[a + 1] = start[a] + sizes[i, a]
            fill[a] = start[a]
        for s in cands:
            a = row[s]
            if a != win:
                parts[fill[a]] = s
                fill[a] += 1
        value = n
        for a in range(slots):
            k = sizes[i, a]
            b = leaf_branching
            if k > 2 and b < 0:
                b = most_answers(tables, parts[start[a] : start[a + 1]], min(most, k - 1))
            value += perfect[k] if k <= 2 else trees[b, k]
            if value >= best:
                break  # this guess cannot beat the best one: its exact sum is not needed
        best = min(best, value)
    return best


def level_one_total_reference(
    scores: np.ndarray,
    trees: np.ndarray,
    win: int,
    cands: np.ndarray,
    guesses: np.ndarray,
    leaf_branching: int,
) -> int:
    """Obvious version of :func:`level_one_total`: every guess, every class, no pruning."""
    most = len(trees) - 1
    best = None
    for g in guesses:
        classes: dict[int, list[int]] = {}
        for s in cands:
            if scores[g, s] != win:
                classes.setdefault(int(scores[g, s]), []).append(int(s))
        value = len(cands)
        for part in classes.values():
            k = len(part)
            b = leaf_branching
            if b < 0:
                b = min(most, k - 1, most_answers_reference(scores, np.array(part), win))
            value += int(trees[most, k]) if k <= 2 else int(trees[b, k])
        best = value if best is None else min(best, value)
    assert best is not None
    return best


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
