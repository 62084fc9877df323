"""numba kernels of the game model; each has a plain numpy twin in :mod:`mastermind.game`."""

import numba as nb
import numpy as np


@nb.njit("uint8[:, :](int8[:, :], int8[:, :], uint8[:])", parallel=True, cache=True, nogil=True)
def score_matrix(codes, counts, lut):  # pragma: no cover - compiled
    """All-pairs answer index: ``out[g, s]`` for guess g and secret s."""
    n, p = codes.shape
    c = counts.shape[1]
    # column-major copies so that the inner loops run over secrets contiguously (SIMD)
    codes_t = np.ascontiguousarray(codes.T)
    counts_t = np.ascontiguousarray(counts.T)
    out = np.empty((n, n), dtype=np.uint8)
    for g in nb.prange(n):
        acc = np.zeros(n, dtype=np.uint8)  # black * (p + 1) + common - black
        for i in range(p):
            col = codes[g, i]
            line = codes_t[i]
            for s in range(n):
                acc[s] += np.uint8(p) if line[s] == col else np.uint8(0)
        for col in range(c):
            m = counts[g, col]
            if m == 0:
                continue
            line = counts_t[col]
            for s in range(n):
                b = line[s]
                acc[s] += np.uint8(m if m < b else b)
        for s in range(n):
            out[g, s] = lut[acc[s]]
    return out
