"""Numba kernel of the refined bounds; :func:`most_answers_reference` is its plain twin."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, nogil=True)
def most_answers(scores: np.ndarray, cands: np.ndarray, win: int, n_slots: int, cap: int) -> int:
    """Most distinct non-winning answers any guess (row of ``scores``) gets on ``cands``.

    Stops early once ``cap`` is reached (no guess can do better than ``cap``).
    """
    best = 0
    seen = np.zeros(n_slots, dtype=np.int64)
    for g in range(scores.shape[0]):
        count = 0
        for s in cands:
            a = scores[g, s]
            if a != win and seen[a] != g + 1:
                seen[a] = g + 1
                count += 1
        if count > best:
            best = count
            if best >= cap:
                return best
    return best


def most_answers_reference(scores: np.ndarray, cands: np.ndarray, win: int) -> int:
    """Obvious version of :func:`most_answers` (no cap)."""
    return max(len({int(a) for a in row[cands] if a != win}) for row in scores)
