"""The hot loop of every one-step heuristic: answer-class counts of many guesses over a
candidate set, reduced on the fly to one key per guess.

The plain numpy twin is :func:`mastermind.engines.heuristics.scores.guess_keys_numpy`; the tests
compare the two. Keys are minimised; see :mod:`mastermind.engines.heuristics.scores` for their meaning.
"""

import numba as nb
import numpy as np

MINIMAX, SUM_SQUARES, SUM_XLOGX, NEG_PARTS = 0, 1, 2, 3
BLOCK = 512  # guesses scored together (and per parallel work item)

# scores, codes, counts, lut, candidates, guesses, n_slots, criterion, xlogx
_COMMON = (
    "uint8[:, ::1], int8[:, ::1], int8[:, ::1], uint8[::1], int32[::1], int32[::1], "
    "int64, int64, float64[::1]"
)


@nb.njit("void(" + _COMMON + ", int64, int64, float64[::1])", cache=True, nogil=True, boundscheck=False)
def score_guess_range(
    scores, codes, counts, lut, candidates, guesses, n_slots, criterion, xlogx, start, stop, out
):  # pragma: no cover - compiled
    """``out[j]`` for ``j`` in ``start..stop``: the key of ``guesses[j]`` over ``candidates``.

    Keys: MINIMAX the largest class, SUM_SQUARES sum n_a^2, SUM_XLOGX sum n_a ln n_a,
    NEG_PARTS minus the number of non-empty classes. With an empty ``scores`` matrix the
    answers are computed from ``codes`` and ``counts`` (games too large for the N x N
    table); otherwise they are looked up. The table is symmetric, so each candidate's row is
    read: over a run of consecutive guesses that is one sequential read.
    """
    n = candidates.shape[0]
    use_table = scores.shape[0] > 0
    pegs = codes.shape[1]
    colors = counts.shape[1]
    # Counters answer-major, cnt[a * blk + j]: consecutive increments go to different
    # guesses' counters (no store-to-load stalls) and the slot reductions vectorise.
    blk = max(1, min(BLOCK, stop - start))  # stride: small calls need small buffers
    cnt = np.zeros(n_slots * blk, dtype=np.int32)
    res = np.zeros(blk, dtype=np.float64)
    ans = np.zeros(blk, dtype=np.uint8)
    # without the table: the block's guesses transposed (peg- and colour-major), so that the
    # answers of one candidate to the whole block are a few loops over contiguous bytes,
    # which the compiler vectorises
    g_codes = np.zeros((pegs, blk), dtype=np.int8)
    g_counts = np.zeros((colors, blk), dtype=np.int8)
    black = np.zeros(blk, dtype=np.int8)
    common = np.zeros(blk, dtype=np.int8)
    for lo in range(start, stop, blk):
        width = min(blk, stop - lo)
        g0 = guesses[lo]
        run = guesses[lo + width - 1] - g0 == width - 1
        for j in range(1, width):
            if guesses[lo + j] != g0 + j:
                run = False
                break
        if not use_table:
            for j in range(width):
                g = guesses[lo + j]
                for k in range(pegs):
                    g_codes[k, j] = codes[g, k]
                for k in range(colors):
                    g_counts[k, j] = counts[g, k]
        for i in range(n):
            c = candidates[i]
            if use_table and run:
                ans[:width] = scores[c, g0 : g0 + width]
            elif use_table:
                line = scores[c]
                for j in range(width):
                    ans[j] = line[guesses[lo + j]]
            else:
                black[:] = 0
                common[:] = 0
                for k in range(pegs):
                    x = codes[c, k]
                    row = g_codes[k]
                    for j in range(width):
                        black[j] += row[j] == x
                for k in range(colors):
                    x = counts[c, k]
                    if x == 0:
                        continue
                    row = g_counts[k]
                    for j in range(width):
                        y = row[j]
                        common[j] += x if x < y else y
                for j in range(width):
                    b = np.intp(black[j])
                    ans[j] = lut[b * (pegs + 1) + np.intp(common[j]) - b]
            for j in range(width):
                cnt[np.intp(ans[j]) * blk + j] += 1
        res[:] = 0.0
        for s in range(n_slots):
            base = s * blk
            if criterion == MINIMAX:
                for j in range(width):
                    res[j] = max(res[j], np.float64(cnt[base + j]))
            elif criterion == SUM_SQUARES:
                for j in range(width):
                    x = np.float64(cnt[base + j])
                    res[j] += x * x
            elif criterion == SUM_XLOGX:
                for j in range(width):
                    res[j] += xlogx[cnt[base + j]]
            else:
                for j in range(width):
                    res[j] -= 1.0 if cnt[base + j] > 0 else 0.0
            cnt[base : base + blk] = 0
        for j in range(width):
            out[lo + j] = res[j]


@nb.njit("void(" + _COMMON + ", float64[::1])", cache=True, nogil=True, parallel=True)
def score_guesses_parallel(
    scores, codes, counts, lut, candidates, guesses, n_slots, criterion, xlogx, out
):  # pragma: no cover - compiled
    """:func:`score_guess_range` over all guesses, blocks of guesses spread over threads."""
    total = guesses.shape[0]
    blocks = (total + BLOCK - 1) // BLOCK
    for b in nb.prange(blocks):
        stop = min(total, (b + 1) * BLOCK)
        score_guess_range(
            scores, codes, counts, lut, candidates, guesses, n_slots, criterion, xlogx, b * BLOCK, stop, out
        )


@nb.njit(
    "void(int8[:, ::1], int8[:, ::1], uint8[::1], int64, int32[::1], uint8[::1])",
    cache=True,
    nogil=True,
    boundscheck=False,
)
def answers_of(codes, counts, lut, guess, candidates, out):  # pragma: no cover - compiled
    """``out[i]``: the answer index of ``guess`` against ``candidates[i]``, computed (games
    without a score table; twin of :func:`mastermind.core.game.score_rows`)."""
    pegs = codes.shape[1]
    colors = counts.shape[1]
    for i in range(candidates.shape[0]):
        c = candidates[i]
        black = 0
        for k in range(pegs):
            black += codes[c, k] == codes[guess, k]
        common = 0
        for k in range(colors):
            x = counts[c, k]
            y = counts[guess, k]
            common += x if x < y else y
        out[i] = lut[black * (pegs + 1) + common - black]
