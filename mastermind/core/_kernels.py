"""numba kernels of the game model: the peg counts (twin of :func:`mastermind.core.variant.peg_counts`),
the score table and answers without it, and the replay of a strategy tree."""

import numba as nb
import numpy as np


# not cached on its own (its callers are, with it inside), as stable_argsort below
@nb.njit(nogil=True)
def peg_keys(own, own_counts, codes_t, counts_t, off, width, pegs, key, black, common):  # pragma: no cover
    """The peg counts of one code against ``width`` others, the one compiled copy of
    :func:`mastermind.core.variant.peg_counts`: ``key[j] = black * pegs + common``, black
    (right colour, right place) and common (colours in common: black + white) of the code with
    colours ``own`` and colour counts ``own_counts`` against code ``off + j`` of the transposed
    arrays ``codes_t[peg, code]`` and ``counts_t[colour, code]``. That is ``black * (pegs + 1)
    + white``, the index of a variant's answer lookup
    (:meth:`mastermind.core.variant.Variant.answer_lut`). ``key`` holds numbers wide enough
    for ``pegs * (pegs + 1)`` (uint8 up to 15 pegs); ``black`` and ``common``: int8 scratch of
    ``width`` or more.

    Loops over contiguous bytes (slices: no index can wrap), peg by peg and colour by colour,
    counted in bytes: the compiler vectorises them.
    """
    black[:width] = 0
    common[:width] = 0
    for k in range(codes_t.shape[0]):
        x = own[k]
        row = codes_t[k, off : off + width]
        for j in range(width):
            black[j] += row[j] == x
    for k in range(counts_t.shape[0]):
        x = own_counts[k]
        if x == 0:
            continue
        row = counts_t[k, off : off + width]
        for j in range(width):
            y = row[j]
            common[j] += x if x < y else y
    for j in range(width):
        key[j] = black[j] * pegs + common[j]


@nb.njit(
    "void(int8[:, :], int8[:, :], int8[:, ::1], int8[:, ::1], uint8[:], int64, int64, uint8[:, :])",
    parallel=True,
    cache=True,
    nogil=True,
)
def score_rows(codes, counts, codes_t, counts_t, lut, first, last, out):  # pragma: no cover - compiled
    """Rows ``first`` to ``last`` of the all-pairs answer index: ``out[g, s]`` for guess g and
    secret s, the keys of :func:`peg_keys` looked up in the variant's ``lut``. ``codes_t`` and
    ``counts_t``: the codes and colour counts transposed (contiguous, so that the inner loops
    run over secrets: SIMD). The caller goes block by block, looking at its cancel token in
    between (a flag read inside the parallel loop was read once: the build did not stop)."""
    n, p = codes.shape
    for g in nb.prange(first, last):
        key = np.empty(n, dtype=np.uint16)  # (p * (p + 1) passes a byte from 16 pegs)
        black = np.empty(n, dtype=np.int8)
        common = np.empty(n, dtype=np.int8)
        peg_keys(codes[g], counts[g], codes_t, counts_t, 0, n, np.int64(p), key, black, common)
        for s in range(n):
            out[g, s] = lut[key[s]]


@nb.njit(cache=True, nogil=True)
def answer_of(codes, counts, lut, g, s):  # pragma: no cover - compiled
    """Answer index of guess ``g`` against secret ``s``, computed (no table)."""
    key = np.empty(1, dtype=np.int64)
    black = np.empty(1, dtype=np.int8)
    common = np.empty(1, dtype=np.int8)
    p = codes.shape[1]
    peg_keys(codes[g], counts[g], codes[s : s + 1].T, counts[s : s + 1].T, 0, 1, p, key, black, common)
    return lut[key[0]]


ANSWER_BLOCK = 4096  # candidates per gather of answers_of: its scratch stays in the L1/L2 cache


@nb.njit(
    "void(int8[:, ::1], int8[:, ::1], uint8[::1], int64, int32[::1], uint8[::1])",
    cache=True,
    nogil=True,
    boundscheck=False,
)
def answers_of(codes, counts, lut, guess, candidates, out):  # pragma: no cover - compiled
    """``out[i]``: the answer index of ``guess`` against ``candidates[i]``, computed (games
    without a score table).

    The candidates are gathered ANSWER_BLOCK at a time into transposed scratch, where
    :func:`peg_keys` runs over contiguous bytes, as the score table's rows do: one call of
    :func:`answer_of` per candidate cost 300 ns (small arrays made for each), 5 s for a
    partition of p8c8's 16.7 million codes."""
    p = codes.shape[1]
    width = max(1, min(ANSWER_BLOCK, candidates.shape[0]))  # (none: a step of one all the same)
    codes_t = np.empty((p, width), dtype=np.int8)
    counts_t = np.empty((counts.shape[1], width), dtype=np.int8)
    key = np.empty(width, dtype=np.uint16)  # (as score_matrix's: wide enough past 15 pegs)
    black = np.empty(width, dtype=np.int8)
    common = np.empty(width, dtype=np.int8)
    own, own_counts = codes[guess], counts[guess]
    for start in range(0, candidates.shape[0], width):
        w = min(width, candidates.shape[0] - start)
        for j in range(w):
            s = candidates[start + j]
            for k in range(p):
                codes_t[k, j] = codes[s, k]
            for k in range(counts.shape[1]):
                counts_t[k, j] = counts[s, k]
        peg_keys(own, own_counts, codes_t, counts_t, 0, w, np.int64(p), key, black, common)
        for j in range(w):
            out[start + j] = lut[key[j]]


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
            a = scores[g, s] if use_table else answer_of(codes, counts, lut, np.int64(g), np.int64(s))
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


@nb.njit(cache=True, nogil=True)
def group_by_answer(answers, cands, n_slots):  # pragma: no cover - compiled
    """``cands`` grouped by their ``answers`` (each group in the candidates' order, as
    ``cands[np.argsort(answers, kind="stable")]``, the twin, gives them), with each answer's
    first place and count: a counting sort in two passes, without the int64 array that an
    argsort or ``np.bincount`` of the answers makes (8 bytes a candidate: 134 MB at the root
    of p8c8)."""
    sizes = np.zeros(n_slots, dtype=np.int64)
    for i in range(answers.shape[0]):
        sizes[answers[i]] += 1
    starts = np.zeros(n_slots, dtype=np.int64)
    for a in range(1, n_slots):
        starts[a] = starts[a - 1] + sizes[a - 1]
    grouped = np.empty(cands.shape[0], dtype=np.int32)
    pos = starts.copy()
    for i in range(answers.shape[0]):
        a = answers[i]
        grouped[pos[a]] = cands[i]
        pos[a] += 1
    return grouped, starts, sizes


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
