"""numba kernels of the game model; each has a plain numpy twin in :mod:`mastermind.core.game`."""

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


@nb.njit(cache=True, nogil=True, inline="always")
def answer_of(codes, counts, lut, g, s):  # pragma: no cover - compiled
    """Answer index of guess ``g`` against secret ``s``, computed (no table)."""
    black = 0
    for i in range(codes.shape[1]):
        black += codes[g, i] == codes[s, i]
    common = 0
    for col in range(counts.shape[1]):
        common += min(counts[g, col], counts[s, col])
    return lut[black * (codes.shape[1] + 1) + common - black]


@nb.njit(cache=True, nogil=True)
def replay_depths(
    scores, codes, counts, lut, guesses, children, reached, secrets, win
):  # pragma: no cover - compiled
    """Guesses each secret needs in a strategy tree given as arrays (node 0 the root;
    ``children[node, answer]`` the child or -1; ``reached[node]`` the secrets the tree says
    reach it). Answers are looked up in ``scores``, or computed from ``codes``, ``counts``
    and ``lut`` when ``scores`` is empty. Returns ``(ok, depths by code)``; ok is False when
    a secret finds no branch or a node's count is wrong:
    :meth:`mastermind.core.tree.StrategyTree.depths`, the twin, then names the place."""
    n_nodes = guesses.shape[0]
    use_table = scores.shape[0] > 0
    reach = np.zeros(n_nodes, dtype=np.int64)
    out = np.zeros(codes.shape[0], dtype=np.int64)
    for k in range(secrets.shape[0]):
        s = secrets[k]
        node = 0
        depth = 1
        while True:
            reach[node] += 1
            g = guesses[node]
            a = scores[g, s] if use_table else answer_of(codes, counts, lut, g, s)
            if a == win:
                out[s] = depth
                break
            node = children[node, a]
            depth += 1
            if node < 0 or depth > n_nodes + 1:
                return False, out
    for i in range(n_nodes):
        if reach[i] != reached[i]:
            return False, out
    return True, out


# not cached on its own (its callers are, with it inside): processes that compile different
# key types at once would race on one cache index, and numba's index is not safe for that
@nb.njit(nogil=True)
def stable_argsort(keys):  # pragma: no cover - compiled
    """The indices that sort ``keys``, equal keys in their order: ``np.argsort(keys,
    kind="stable")``, written out because numba's own merge sort takes seconds to compile.

    Insertion sort of runs of 16, then bottom-up merges.
    """
    n = keys.shape[0]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        order[i] = i
    run = 16
    for lo in range(0, n, run):
        for i in range(lo + 1, min(lo + run, n)):
            x = order[i]
            j = i
            while j > lo and keys[order[j - 1]] > keys[x]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = x
    if n <= run:
        return order
    other = np.empty(n, dtype=np.int64)
    width = run
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if j >= hi or (i < mid and keys[order[i]] <= keys[order[j]]):
                    other[k] = order[i]
                    i += 1
                else:
                    other[k] = order[j]
                    j += 1
        order, other = other, order
        width *= 2
    return order


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
