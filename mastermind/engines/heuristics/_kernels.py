"""The hot loop of every one-step heuristic: answer-class counts of many guesses over a
candidate set, reduced on the fly to one key per guess.

The plain numpy twin is :func:`mastermind.engines.heuristics.scores.guess_keys_numpy`; the tests
compare the two. Keys are minimised; see :mod:`mastermind.engines.heuristics.scores` for their meaning.
"""

import numba as nb
import numpy as np

from mastermind.core._kernels import peg_keys

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
    answers are computed from the codes and colour counts ``codes[code, peg]`` and
    ``counts[code, colour]`` (games too large for the N x N table) as peg counts, which the
    variant's ``lut`` (:attr:`mastermind.core.game.Rules.answer_lut`) folds into its
    answers; otherwise they are looked up. The table is symmetric, so each candidate's row
    is read: over a run of consecutive guesses that is one sequential read.
    """
    n = candidates.shape[0]
    use_table = scores.shape[0] > 0
    pegs = codes.shape[1]
    colors = counts.shape[1]
    # Computed answers are counted under black * pegs + common (black and white in one
    # number without the answer table, whose lookup would stop the loop vectorising);
    # only the slots with black <= common <= pegs are ever hit, and they are folded into
    # the variant's answers (``lut``) once per block of guesses, before the keys.
    slots = n_slots if use_table else (pegs + 1) * (pegs + 1)
    # Counters answer-major, cnt[a * blk + j]: consecutive increments go to different
    # guesses' counters (no store-to-load stalls) and the slot reductions vectorise.
    blk = max(1, min(BLOCK, stop - start))  # stride: small calls need small buffers
    cnt = np.zeros(slots * blk, dtype=np.int32)
    folded = np.zeros(0 if use_table else n_slots * blk, dtype=np.int32)
    live = np.arange(slots)
    if not use_table:
        live = np.empty((pegs + 1) * (pegs + 2) // 2, dtype=np.int64)
        m = 0
        for b in range(pegs + 1):
            for c_ in range(b, pegs + 1):
                live[m] = b * pegs + c_
                m += 1
    res = np.zeros(blk, dtype=np.float64)
    top = np.zeros(blk, dtype=np.int32)
    ans = np.zeros(blk, dtype=np.uint16)  # black * pegs + common exceeds 255 from 16 pegs
    # without the table: the block's guesses gathered peg- and colour-major, so that the
    # answers of one candidate to the whole block are a few loops over contiguous bytes,
    # which the compiler vectorises (a gather a block, against a pass over every candidate;
    # transposed copies of every code cost p8c8 268 MB beyond its --memory-limit)
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
            if use_table:
                line = scores[c]
                if run:  # a loop, not a slice assignment, whose error message takes seconds to compile
                    for j in range(width):
                        ans[j] = line[g0 + j]
                else:
                    for j in range(width):
                        ans[j] = line[guesses[lo + j]]
            else:
                peg_keys(codes[c], counts[c], g_codes, g_counts, 0, width, pegs, ans, black, common)
            for j in range(width):
                cnt[np.intp(ans[j]) * blk + j] += 1
        counted = cnt
        if not use_table:  # peg counts to answers: the variant's classes
            for s in live:
                a = np.intp(lut[s])
                row = cnt[s * blk : s * blk + width]
                for j in range(width):
                    folded[a * blk + j] += row[j]
                row[:] = 0
            counted = folded
        # the keys, from integer counts
        top[:width] = 0
        res[:width] = 0.0
        for s in range(n_slots):
            row = counted[s * blk : s * blk + width]
            if criterion == MINIMAX:
                for j in range(width):
                    top[j] = max(top[j], row[j])
            elif criterion == SUM_SQUARES:
                for j in range(width):
                    x = np.float64(row[j])
                    res[j] += x * x
            elif criterion == SUM_XLOGX:
                for j in range(width):
                    res[j] += xlogx[row[j]]
            else:
                for j in range(width):
                    top[j] -= np.int32(row[j] > 0)
            row[:] = 0
        if criterion == MINIMAX or criterion == NEG_PARTS:
            for j in range(width):
                out[lo + j] = np.float64(top[j])
        else:
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
            scores,
            codes,
            counts,
            lut,
            candidates,
            guesses,
            n_slots,
            criterion,
            xlogx,
            b * BLOCK,
            stop,
            out,
        )


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
