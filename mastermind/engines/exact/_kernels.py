"""numba kernels of the exact search; each has a pure-Python twin in
``tests/engines/exact/kernels_reference.py`` that the tests compare.

Candidate sets reach the kernels ordered by weight, heaviest first, with their weights alongside
(all ones without weights), so that the weighted perfect-tree bound is one pass: the k-th
secret of a class to arrive takes the k-th cheapest slot, ``rank_cost[k]``.
"""

from collections import namedtuple

import numba as nb
import numpy as np

from mastermind.core._kernels import stable_argsort

# What ``assess_guesses`` learns about a node, one typed value (numba builds and caches it).
Assessment = namedtuple(
    "Assessment",
    (
        "counts",
        "parts",
        "largest",
        "spread",
        "useful",
        "most",
        "b",
        "rank_cost",
        "bound",
        "ok",
        "exact_size",
        "two_level",
        "exact_guess",
        "exact_value",
        "cutoff",
    ),
)

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True, nogil=True, inline="always")  # tiny: typed in each caller, not once per argument type
def _mix(h, x):  # pragma: no cover - compiled
    """splitmix64 step: a well-mixed 64-bit hash of the running hash and one more value."""
    z = h ^ (np.uint64(x) + _M1 + (h << np.uint64(6)) + (h >> np.uint64(2)))
    z = (z ^ (z >> np.uint64(30))) * _M2
    z = (z ^ (z >> np.uint64(27))) * _M3
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def _count_answers(chunk, answers, slots):  # pragma: no cover - compiled
    """``chunk[i, gi] += answers[gi] == slots[i]`` for every answer slot: one compare-and-add
    per slot over contiguous bytes, which the compiler vectorises (a scattered ``+= 1`` per
    guess does not vectorise and costs several times more). The inner loops stay in small
    kernels of their own: inlined into ``class_table`` they did not vectorise (4-6x slower)."""
    n_guesses = answers.shape[0]
    for i in range(slots.shape[0]):
        row = chunk[i]
        value = np.uint8(slots[i])
        for gi in range(n_guesses):
            row[gi] += answers[gi] == value


@nb.njit(cache=True, nogil=True)
def _count_answers4(chunk, a0, a1, a2, a3, slots):  # pragma: no cover - compiled
    """``_count_answers`` for four candidates at once: a quarter of the loads and stores of
    the counts."""
    n_guesses = a0.shape[0]
    for i in range(slots.shape[0]):
        row = chunk[i]
        value = np.uint8(slots[i])
        for gi in range(n_guesses):
            row[gi] += (a0[gi] == value) + (a1[gi] == value) + (a2[gi] == value) + (a3[gi] == value)


@nb.njit(cache=True, nogil=True)
def _gather(out, row, guesses):  # pragma: no cover - compiled
    for gi in range(guesses.shape[0]):
        out[gi] = row[guesses[gi]]


@nb.njit(cache=True, nogil=True)
def _widen_add(wide, narrow, first):  # pragma: no cover - compiled
    """``wide += narrow`` (``wide = narrow`` for the first block)."""
    if first:
        for gi in range(wide.shape[0]):
            wide[gi] = narrow[gi]
    else:
        for gi in range(wide.shape[0]):
            wide[gi] += narrow[gi]


@nb.njit(cache=True, nogil=True)
def _add_row_stats(row, parts, largest, spread, is_class):  # pragma: no cover - compiled
    """One answer's class sizes into the statistics (``is_class``: not the winning answer).
    One simple loop per quantity, which the compiler vectorises."""
    for gi in range(row.shape[0]):
        largest[gi] = max(largest[gi], np.uint16(row[gi]))
    for gi in range(row.shape[0]):
        c = np.uint32(row[gi])
        spread[gi] += c * c
    if is_class:
        for gi in range(row.shape[0]):
            parts[gi] += row[gi] != 0


@nb.njit(cache=True, nogil=True)
def _widen_stats(wide, narrow, parts, largest, spread, is_class):  # pragma: no cover - compiled
    """``wide = narrow`` and its statistics in the same pass (a set of one block)."""
    for gi in range(wide.shape[0]):
        c = narrow[gi]
        wide[gi] = c
        largest[gi] = max(largest[gi], np.uint16(c))
        spread[gi] += np.uint32(c) * np.uint32(c)
    if is_class:
        for gi in range(wide.shape[0]):
            parts[gi] += narrow[gi] != 0


@nb.njit(cache=True, nogil=True)
def class_table(scores, guesses, all_guesses, cands, slots):  # pragma: no cover - compiled
    """Class sizes of every guess over a candidate set, and their statistics.

    ``counts[i, g]`` (uint16; the search refuses sets above 65535 codes): the secrets that
    answer ``slots[i]`` to guess ``g``. ``slots`` are the answers the game has, in order, the
    win last (``Rules.answer_slots``); the others are neither counted nor stored (without
    repetition many never occur: 11 of 6x8n's 28, 16 of 6x7n's, each of which cost a pass
    over every guess per candidate and four more for the statistics). Per guess: the number of
    non-winning classes, the largest class and the sum of squared class sizes (the winning
    class, of size 0 or 1, counted in the last two).

    ``all_guesses``: ``guesses`` is every code in order, so a score row needs no gathering.
    Counted in uint8 blocks of 252 candidates; a set of one block (most nodes) gets its
    statistics as its counts are widened, one pass over each row instead of four."""
    n_rows = slots.shape[0]
    n_guesses = guesses.shape[0]
    n = cands.shape[0]
    counts = np.empty((n_rows, n_guesses), dtype=np.uint16)  # each row written by its first block
    parts = np.zeros(n_guesses, dtype=np.uint16)
    largest = np.zeros(n_guesses, dtype=np.uint16)
    spread = np.zeros(n_guesses, dtype=np.uint32)
    if n == 0:
        counts[:] = 0
        return counts, parts, largest, spread
    chunk = np.zeros((n_rows, n_guesses), dtype=np.uint8)
    answers = np.empty((4, n_guesses), dtype=scores.dtype)
    for j0 in range(0, n, 252):  # a multiple of 4 below 256: no byte overflows
        if j0 > 0:
            chunk[:] = 0
        j1 = min(n, j0 + 252)
        j = j0
        while j + 4 <= j1:
            if all_guesses:
                _count_answers4(
                    chunk,
                    scores[cands[j]],
                    scores[cands[j + 1]],
                    scores[cands[j + 2]],
                    scores[cands[j + 3]],
                    slots,
                )
            else:
                for t in range(4):
                    _gather(answers[t], scores[cands[j + t]], guesses)
                _count_answers4(chunk, answers[0], answers[1], answers[2], answers[3], slots)
            j += 4
        while j < j1:
            if all_guesses:
                _count_answers(chunk, scores[cands[j]], slots)
            else:
                _gather(answers[0], scores[cands[j]], guesses)
                _count_answers(chunk, answers[0], slots)
            j += 1
        if j0 == 0 and j1 == n:
            for i in range(n_rows):
                _widen_stats(counts[i], chunk[i], parts, largest, spread, i != n_rows - 1)
            return counts, parts, largest, spread
        for i in range(n_rows):
            _widen_add(counts[i], chunk[i], j0 == 0)
    for i in range(n_rows):
        _add_row_stats(counts[i], parts, largest, spread, i != n_rows - 1)
    return counts, parts, largest, spread


@nb.njit(cache=True, nogil=True)
def answer_column(counts, gi, slots):  # pragma: no cover - compiled
    """The class sizes of guess ``gi`` indexed by answer (zero where the game has no such
    answer), from the rows of ``class_table``."""
    column = np.zeros(slots[-1] + 1, dtype=counts.dtype)
    for i in range(slots.shape[0]):
        column[slots[i]] = counts[i, gi]
    return column


@nb.njit(cache=True, nogil=True)
def partition_signature(row, cands, n_slots, win):  # pragma: no cover - compiled
    """128-bit signature of the partition a guess makes, up to renaming its classes (the
    winning class kept apart): guesses with equal signatures are searched once."""
    label = np.full(n_slots, -1, dtype=np.int32)
    n_labels = 0
    h1 = np.uint64(1)
    h2 = np.uint64(2)
    for j in range(cands.shape[0]):
        a = row[cands[j]]
        if a == win:
            x = 255
        else:
            if label[a] < 0:
                label[a] = n_labels
                n_labels += 1
            x = label[a]
        h1 = _mix(h1, x)
        h2 = _mix(h2 ^ np.uint64(0x5555), x + 7)
    return h1, h2


@nb.njit(cache=True, nogil=True)
def class_bound(scores, members, member_weights, rank_cost, unit, refine, seen):  # pragma: no cover
    """Lower bound for finishing one class (members heaviest first).

    The perfect-tree bound; when ``refine`` (a third guess is allowed) and the class fits in
    two levels, it is raised where no member splits the others into singletons: a member
    guessed first then leaves some pair together, a non-member guesses every secret twice.
    For three secrets the refined bound is exact. ``seen``: scratch of one int64 per answer
    plus a stamp counter in the last entry (no allocation in the hot loop)."""
    m = members.shape[0]
    total = member_weights[0] * 0
    for k in range(m):
        total += member_weights[k] * rank_cost[k]
    if not refine or m < 3 or rank_cost[m - 1] != rank_cost[1]:
        return total
    w_sum = member_weights[0] * 0
    for k in range(m):
        w_sum += member_weights[k]
    w_max = member_weights[0]
    w_min = member_weights[m - 1]
    best = 2 * w_sum - w_max + w_min
    if 2 * w_sum < best:
        best = 2 * w_sum
    last = seen.shape[0] - 1
    for gi in range(m):
        row = scores[members[gi]]
        seen[last] += 1
        stamp = seen[last]
        distinct = True
        for j in range(m):
            if j != gi:
                a = row[members[j]]
                if seen[a] == stamp:
                    distinct = False
                    break
                seen[a] = stamp
        if distinct:
            v = 2 * w_sum - member_weights[gi]
            if v < best:
                best = v
            break  # members are heaviest first: the first perfect one is the best
    refined = unit * best
    return refined if refined > total else total


@nb.njit(cache=True, nogil=True)
def guess_bounds(
    scores, guesses, counts, parts, largest, cands, weights, rank_cost, size_cost, win, weighted
):  # pragma: no cover
    """Perfect-tree bound of every guess: the sum over its non-winning classes (the caller
    adds the cost of the guess itself), and whether every class fits in the guesses left.

    Without weights a class of m secrets costs ``size_cost[m]``, which is
    ``rank_cost[0] + (m - 1) * rank_cost[1]`` while the class fits in two levels: then the
    bound follows from the number of classes and of secrets alone. With weights the k-th
    secret of a class to arrive (heaviest first) takes the slot costing ``rank_cost[k]``.
    ``counts``/``parts``/``largest``: from ``class_table`` (its rows, the win last).
    ``rank_cost``/``size_cost`` hold -1 where there is no room."""
    n_rows, n_guesses = counts.shape
    n = cands.shape[0]
    bound = np.zeros(n_guesses, dtype=weights.dtype)
    ok = np.ones(n_guesses, dtype=np.bool_)
    n_rank = rank_cost.shape[0]
    if not weighted:
        c1 = rank_cost[0] if n_rank > 0 else -1
        c2 = rank_cost[1] if n_rank > 1 else -1
        two_level = 1  # classes up to this size fit in two levels at c1 + (m - 1) * c2
        if c1 >= 0 and c2 >= 0:
            while two_level < n_rank and rank_cost[two_level] == c2:
                two_level += 1
        wins = counts[n_rows - 1]
        n_slow = 0
        slow = np.empty(n_guesses, dtype=np.int64)
        if c1 >= 0 and c2 >= 0:
            # one vectorised pass for every guess (right for singletons too: n - wins = parts),
            # then the guesses with a class beyond two levels, if any
            big = np.uint16(0)
            for gi in range(n_guesses):
                bound[gi] = np.int64(parts[gi]) * (c1 - c2) + (n - np.int64(wins[gi])) * c2
                big = max(big, largest[gi])
            if big > two_level:
                for gi in range(n_guesses):
                    if largest[gi] > two_level:
                        slow[n_slow] = gi
                        n_slow += 1
                        bound[gi] = 0
        else:  # no room for a second level (rare): guess by guess
            for gi in range(n_guesses):
                big = largest[gi]
                if big <= 1 or parts[gi] == 0:
                    if parts[gi] > 0 and c1 < 0:
                        ok[gi] = False
                    else:
                        bound[gi] = np.int64(parts[gi]) * max(c1, 0)
                elif big > two_level:
                    slow[n_slow] = gi
                    n_slow += 1
                    bound[gi] = 0
        # the guesses with a class beyond two levels: sum the table, one answer row at a time
        for i in range(n_rows - 1):
            row = counts[i]
            for k in range(n_slow):
                gi = slow[k]
                m = row[gi]
                if m == 0:
                    continue
                c = size_cost[m]
                if c < 0:
                    ok[gi] = False
                else:
                    bound[gi] += c
        return bound, ok
    seen = np.zeros(win + 1, dtype=np.int32)
    for gi in range(n_guesses):
        total = bound[gi] * 0
        fits = True
        row = scores[guesses[gi]]
        for a in range(win + 1):
            seen[a] = 0
        for j in range(n):
            a = row[cands[j]]
            if a == win:
                continue
            k = seen[a]
            seen[a] = k + 1
            if k >= n_rank or rank_cost[k] < 0:
                fits = False
            else:
                total += weights[j] * rank_cost[k]
        bound[gi] = total
        ok[gi] = fits
    return bound, ok


@nb.njit(cache=True, nogil=True)
def split_classes(scores, guess, cands, weights, rank_cost, n_slots, win, unit, refine):  # pragma: no cover
    """The non-winning classes of one guess: candidates grouped by answer (order kept within
    a class), class start offsets, sizes, answers and lower bounds (``class_bound``)."""
    row = scores[guess]
    n = cands.shape[0]
    count = np.zeros(n_slots + 1, dtype=np.int64)
    for j in range(n):
        count[row[cands[j]] + 1] += 1
    start = np.zeros(n_slots + 1, dtype=np.int64)
    for a in range(n_slots):
        start[a + 1] = start[a] + count[a + 1]
    pos = start.copy()
    out = np.empty(n, dtype=cands.dtype)
    out_w = np.empty(n, dtype=weights.dtype)
    for j in range(n):
        a = row[cands[j]]
        out[pos[a]] = cands[j]
        out_w[pos[a]] = weights[j]
        pos[a] += 1
    n_classes = 0
    for a in range(n_slots):
        if a != win and count[a + 1] > 0:
            n_classes += 1
    starts = np.empty(n_classes, dtype=np.int64)
    sizes = np.empty(n_classes, dtype=np.int64)
    answers = np.empty(n_classes, dtype=np.int64)
    bounds = np.zeros(n_classes, dtype=weights.dtype)
    seen = np.zeros(n_slots + 1, dtype=np.int64)
    i = 0
    for a in range(n_slots):
        if a != win and count[a + 1] > 0:
            starts[i] = start[a]
            sizes[i] = count[a + 1]
            answers[i] = a
            lo = start[a]
            hi = lo + sizes[i]
            bounds[i] = class_bound(scores, out[lo:hi], out_w[lo:hi], rank_cost, unit, refine, seen)
            i += 1
    return out, out_w, starts, sizes, answers, bounds


@nb.njit(cache=True, nogil=True)
def refined_bound(
    scores, guess, cands, weights, rank_cost, n_slots, win, unit, refine, scratch
):  # pragma: no cover
    """Sum of ``class_bound`` over the non-winning classes of one guess (``scratch``: the
    buffers of ``refine_buffers``, reused)."""
    buf, buf_w, start, pos, seen, local = scratch
    # ``local[i, j]``: answer between candidates i and j; classes hold positions in ``cands``
    row = scores[guess]
    n = cands.shape[0]
    for a in range(n_slots + 1):
        start[a] = 0
    for j in range(n):
        start[row[cands[j]] + 1] += 1
    for a in range(n_slots):
        start[a + 1] += start[a]
        pos[a] = start[a]
    for j in range(n):
        a = row[cands[j]]
        buf[pos[a]] = j
        buf_w[pos[a]] = weights[j]
        pos[a] += 1
    total = weights[0] * 0
    for a in range(n_slots):
        lo = start[a]
        hi = start[a + 1]
        if a != win and hi > lo:
            total += class_bound(local, buf[lo:hi], buf_w[lo:hi], rank_cost, unit, refine, seen)
    return total


@nb.njit(cache=True, nogil=True)
def _has_refinable(count, win, two_level):  # pragma: no cover - compiled
    for a in range(count.shape[0]):
        if a != win and 3 <= count[a] <= two_level:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def refined_bound_capped(
    scores, guess, cands, weights, rank_cost, count, win, unit, base, limit, scratch
):  # pragma: no cover
    """``refined_bound`` without weights (all ones), stopping as soon as it reaches ``limit``:
    ``base`` is the plain perfect-tree bound of the guess (``count``: its class sizes), each
    class that fits in two levels adds what ``class_bound`` adds to its plain bound. Returns
    the full refined bound when below ``limit``, else a lower bound of it at least ``limit``.
    Only the classes that can add anything are gathered, in one pass over the candidates."""
    buf, buf_w, start, pos, seen, local = scratch
    row = scores[guess]
    n = cands.shape[0]
    n_slots = count.shape[0]
    total = base
    if total >= limit:
        return total
    refinable = False
    start[0] = 0
    for a in range(n_slots):
        m = count[a]
        take = a != win and m >= 3 and rank_cost[m - 1] == rank_cost[1]
        start[a + 1] = start[a] + (m if take else 0)
        pos[a] = start[a]
        refinable = refinable or take
    if not refinable:
        return total
    for j in range(n):
        a = row[cands[j]]
        if start[a + 1] > start[a]:
            buf[pos[a]] = j
            buf_w[pos[a]] = weights[j]
            pos[a] += 1
    for a in range(n_slots):
        lo = start[a]
        hi = start[a + 1]
        if hi == lo:
            continue
        plain = buf_w[0] * 0
        for i in range(hi - lo):
            plain += buf_w[lo + i] * rank_cost[i]
        total += class_bound(local, buf[lo:hi], buf_w[lo:hi], rank_cost, unit, np.bool_(True), seen) - plain
        if total >= limit:
            return total
    return total


@nb.njit(cache=True, nogil=True)
def guess_refined_bound(
    scores, guess, cands, weights, rank_cost, count, win, unit, weighted, base, limit, scratch
):  # pragma: no cover
    """The refined bound of one guess, its own cost left out: ``refined_bound`` with weights,
    else ``refined_bound_capped`` (only whether it reaches ``limit`` matters then)."""
    if weighted:
        return refined_bound(
            scores, guess, cands, weights, rank_cost, win + 1, win, unit, np.bool_(True), scratch
        )
    return refined_bound_capped(
        scores, guess, cands, weights, rank_cost, count, win, unit, base, limit, scratch
    )


@nb.njit(cache=True, nogil=True)
def refine_guess(
    scores, guesses, gi, cands, weights, rank_cost, counts, slots, unit, weighted, bound, own, limit, scratch
):  # pragma: no cover
    """The refined bound of guess ``gi`` with its own cost ``own``, also written into
    ``bound[gi]`` (without ``own``); only whether it reaches ``limit`` is sure without weights.
    ``counts``: the rows of ``class_table`` for the answers ``slots``."""
    v = (
        guess_refined_bound(
            scores,
            guesses[gi],
            cands,
            weights,
            rank_cost,
            answer_column(counts, gi, slots),
            slots[-1],
            unit,
            weighted,
            bound[gi],
            limit - own,
            scratch,
        )
        + own
    )
    bound[gi] = v - own
    return v


@nb.njit(cache=True, nogil=True)
def new_partition_log(size):  # pragma: no cover - compiled
    """Empty log for ``repeats_partition``: guess positions, cheap keys, signatures. Not
    zeroed: an entry is read only once written whole, and a node sized it for every guess
    (24 bytes each, 160 kB on 5x8n) while it mostly explores a few."""
    size = max(size, 1)
    return (
        np.empty(size, dtype=np.int64),
        np.empty(size, dtype=np.int64),
        np.empty((size, 3), dtype=np.uint64),
    )


@nb.njit(cache=True, nogil=True)
def repeats_partition(
    gi, scores, guesses, cands, counts, parts, largest, spread, win, log, n_log
):  # pragma: no cover - compiled
    """Whether guess ``gi`` splits ``cands`` as one already in ``log`` does (up to renaming
    classes); if not, it is added. Returns (repeat, new log length). A cheap key from the
    class statistics first, the 128-bit partition signature only where two keys meet.
    ``counts``: the rows of ``class_table``, the win last."""
    done, done_key, done_sig = log
    wins = counts[counts.shape[0] - 1, gi]
    key = np.int64(spread[gi] * 1000003 + largest[gi] * 1009 + parts[gi] * 2 + (1 if wins > 0 else 0))
    s1 = np.uint64(0)
    s2 = np.uint64(0)
    have_sig = False
    for d in range(n_log):
        if done_key[d] != key:
            continue
        if done_sig[d, 2] == 0:
            a1, a2 = partition_signature(scores[guesses[done[d]]], cands, win + 1, win)
            done_sig[d, 0] = a1
            done_sig[d, 1] = a2
            done_sig[d, 2] = 1
        if not have_sig:
            s1, s2 = partition_signature(scores[guesses[gi]], cands, win + 1, win)
            have_sig = True
        if done_sig[d, 0] == s1 and done_sig[d, 1] == s2:
            return True, n_log
    done[n_log] = gi
    done_key[n_log] = key
    done_sig[n_log, 0] = s1
    done_sig[n_log, 1] = s2
    done_sig[n_log, 2] = 1 if have_sig else 0
    return False, n_log + 1


@nb.njit(cache=True, nogil=True)
def assess_guesses(
    scores,
    guesses,
    all_guesses,
    cands,
    weights,
    rank_tables,
    size_tables,
    own,
    beta,
    weighted,
    refine,
    most_hint,
    slots,
):  # pragma: no cover - compiled
    """The pass over all guesses a node starts with: class counts (``class_table``),
    the plain bound of each guess, the best guess whose classes are all solved exactly (at
    most 2 secrets each) and the cut-off it sets. The bound uses b = the most non-winning
    classes any guess makes here (``most``), since no guess splits a subset into more."""
    win = slots[-1]  # the win is the last answer slot
    counts, parts, largest, spread = class_table(scores, guesses, all_guesses, cands, slots)
    n_guesses = guesses.shape[0]
    useful = np.empty(n_guesses, dtype=np.bool_)
    wins = counts[counts.shape[0] - 1]
    # a guess that is not useful makes at most one class: the max over all is fine.
    # ``most_hint``: the most classes of the guesses not in ``guesses`` (a restricted root
    # must still bound its subsets by what every guess can do there)
    most = max(1, most_hint)
    for gi in range(n_guesses):
        useful[gi] = (wins[gi] > 0) | (parts[gi] > 1)
        most = max(most, np.int64(parts[gi]))
    b = min(most, rank_tables.shape[0] - 1)
    rank_cost = rank_tables[b]
    bound, ok = guess_bounds(
        scores, guesses, counts, parts, largest, cands, weights, rank_cost, size_tables[b], win, weighted
    )
    # with a third guess allowed, classes of three are solved exactly by the refined bound
    exact_size = 2
    if refine and rank_cost.shape[0] > 2 and rank_cost[2] == rank_cost[1]:
        exact_size = 3
    two_level = 2  # largest class that the perfect tree puts within two levels
    while two_level < rank_cost.shape[0] and rank_cost[two_level] == rank_cost[1]:
        two_level += 1
    exact_guess = -1
    exact_value = own
    for gi in range(n_guesses):
        if useful[gi] and ok[gi] and largest[gi] <= 2:
            v = bound[gi] + own
            if exact_guess < 0 or v < exact_value:
                exact_guess = guesses[gi]
                exact_value = v
    cutoff = beta
    if exact_guess >= 0 and exact_value < cutoff:
        cutoff = exact_value
    return Assessment(
        counts,
        parts,
        largest,
        spread,
        useful,
        most,
        b,
        rank_cost,
        bound,
        ok,
        exact_size,
        two_level,
        exact_guess,
        exact_value,
        cutoff,
    )


@nb.njit(cache=True, nogil=True)
def most_classes(scores, guesses, all_guesses, cands, slots):  # pragma: no cover - compiled
    """The most non-winning classes any of ``guesses`` makes on ``cands`` (at least 1)."""
    _, parts, _, _ = class_table(scores, guesses, all_guesses, cands, slots)
    most = 1
    for gi in range(guesses.shape[0]):
        most = max(most, np.int64(parts[gi]))
    return most


@nb.njit(cache=True, nogil=True)
def refine_buffers(scores, cands, weights, n_slots, refine):  # pragma: no cover - compiled
    """Scratch arrays of the refined bound; with ``refine``, the answers among ``cands``."""
    n = cands.shape[0]
    buf = np.empty(n, dtype=np.int32)  # positions in cands; int32 as cands, one class_bound for both
    buf_w = np.empty(n, dtype=weights.dtype)
    start = np.empty(n_slots + 1, dtype=np.int64)
    pos = np.empty(n_slots, dtype=np.int64)
    seen = np.zeros(n_slots + 1, dtype=np.int64)
    local = np.empty((0, 0), dtype=scores.dtype)
    if refine:
        local = np.empty((n, n), dtype=scores.dtype)
        for i in range(n):
            row = scores[cands[i]]
            for j in range(n):
                local[i, j] = row[cands[j]]
    return buf, buf_w, start, pos, seen, local


@nb.njit(cache=True, nogil=True)
def plan_node(
    scores, guesses, cands, weights, rank_tables, size_tables, own, beta, weighted, unit, refine, slots
):  # pragma: no cover
    """Everything the search needs to know about one node, in one pass over the guesses.

    ``rank_tables[b]``/``size_tables[b]``: perfect-tree slot costs when no guess makes more
    than b non-winning classes (see ``guess_bounds``); b is taken as the most classes any
    guess makes on this set, since no guess splits a subset into more. Guesses below the
    cut-off get the refined bound of ``class_bound``. Returns the guesses worth searching
    (bound below ``beta`` and below the best exactly-solved guess, one per partition, sorted
    by bound then by sum of squared class sizes) with their bounds (``own`` included), the
    best exactly-solved guess (-1 if none) and its cost, the smallest bound among the guesses
    left out (for the lower bound when the search fails) and b.
    """
    win = slots[-1]  # the win is the last answer slot
    n_slots = win + 1
    # np.bool_ and np.int64, not literals: the search's own compiled kernels, not twins of them
    no, one = np.bool_(False), np.int64(1)
    a = assess_guesses(
        scores,
        guesses,
        no,
        cands,
        weights,
        rank_tables,
        size_tables,
        own,
        beta,
        weighted,
        refine,
        one,
        slots,
    )
    counts, parts, largest, spread, useful, bound, ok = (
        a.counts,
        a.parts,
        a.largest,
        a.spread,
        a.useful,
        a.bound,
        a.ok,
    )
    exact_guess, exact_value, cutoff = a.exact_guess, a.exact_value, a.cutoff
    n_guesses = guesses.shape[0]
    scratch = refine_buffers(scores, cands, weights, n_slots, refine)
    rest_min = np.inf
    n_plan = np.int64(0)  # not the literal 0: see n_pick in _dfs.dfs
    pick = np.empty(n_guesses, dtype=np.int64)
    for gi in range(n_guesses):
        if not (useful[gi] and ok[gi]) or largest[gi] <= 2:
            continue
        v = bound[gi] + own
        if v < cutoff and refine and _has_refinable(counts[:, gi], counts.shape[0] - 1, a.two_level):
            v = refine_guess(
                scores,
                guesses,
                gi,
                cands,
                weights,
                a.rank_cost,
                counts,
                slots,
                unit,
                weighted,
                bound,
                own,
                cutoff,
                scratch,
            )
            if largest[gi] <= a.exact_size:
                if v >= cutoff:
                    if v < rest_min:
                        rest_min = v
                    continue
                if exact_guess < 0 or v < exact_value:
                    exact_guess = guesses[gi]
                    exact_value = v
                    if v < cutoff:
                        cutoff = v
                continue
        if v < cutoff:
            pick[n_plan] = gi
            n_plan += 1
        elif v < rest_min:
            rest_min = v
    if exact_guess >= 0 and exact_value >= beta and exact_value < rest_min:
        rest_min = exact_value
    pick = pick[:n_plan]
    # sort by bound, ties by spread (stable passes); drop those above the final cut-off
    order = stable_argsort(spread[pick])
    pick = pick[order]
    order = stable_argsort(bound[pick])
    pick = pick[order]
    # one guess per partition
    log = new_partition_log(n_plan)
    n_log = np.int64(0)
    plan = np.empty(n_plan, dtype=np.int64)
    plan_bound = np.empty(n_plan, dtype=bound.dtype)
    k = 0
    for gi in pick:
        v = bound[gi] + own
        if v >= cutoff:
            if v < rest_min:
                rest_min = v
            continue
        repeat, n_log = repeats_partition(
            gi, scores, guesses, cands, counts, parts, largest, spread, win, log, n_log
        )
        if repeat:
            continue
        plan[k] = guesses[gi]
        plan_bound[k] = v
        k += 1
    return plan[:k], plan_bound[:k], exact_guess, exact_value, rest_min, a.most


@nb.njit(cache=True, nogil=True)
def perfect_member(scores, cands, n_slots):  # pragma: no cover - compiled
    """Position of the first candidate (candidates come heaviest first) whose answers
    tell all the other candidates apart, or -1. Guessing it reaches the perfect-tree bound."""
    n = cands.shape[0]
    seen = np.zeros(n_slots, dtype=np.int64)
    for gi in range(n):
        row = scores[cands[gi]]
        distinct = True
        for j in range(n):
            if j != gi:
                a = row[cands[j]]
                if seen[a] == gi + 1:
                    distinct = False
                    break
                seen[a] = gi + 1
        if distinct:
            return gi
    return -1


OTHER_FIRSTS = 8
"""The guesses making the most classes that :func:`most_other_classes` lists (the first
ones; a set is taken as solved by one of them only if its classes are told apart)."""


@nb.njit(cache=True, nogil=True)
def _add_answers(masks, answers):  # pragma: no cover - compiled
    """One candidate's answers into every guess's answer bits (contiguous and branch-free:
    the compiler vectorises it)."""
    for gi in range(masks.shape[0]):
        masks[gi] |= np.uint64(1) << np.uint64(answers[gi])


@nb.njit(cache=True, nogil=True)
def most_other_classes(scores, guesses, all_guesses, cands, n_slots):  # pragma: no cover - compiled
    """The most classes any of ``guesses`` that is no candidate (no answer is the win)
    splits the candidates into (0 if every guess is a candidate), and the positions of the
    first (at most ``OTHER_FIRSTS``) making that many. Answers are kept as bits,
    so ``n_slots`` is at most 64. ``all_guesses``: ``guesses`` is every code in order.

    One pass per candidate over every guess, setting a bit: 2-3x cheaper than counting the
    class sizes as weighing the guesses does (``class_table``)."""
    n_guesses = guesses.shape[0]
    masks = np.zeros(n_guesses, dtype=np.uint64)
    answers = np.empty(n_guesses, dtype=scores.dtype)
    for j in range(cands.shape[0]):
        row = scores[cands[j]]
        if all_guesses:
            _add_answers(masks, row)
        else:
            _gather(answers, row, guesses)
            _add_answers(masks, answers)
    win_bit = np.uint64(1) << np.uint64(n_slots - 1)
    most = np.int64(0)
    firsts = np.empty(OTHER_FIRSTS, dtype=np.int64)
    n_firsts = 0
    for gi in range(n_guesses):
        m = masks[gi]
        if m & win_bit == 0:
            classes = np.int64(0)
            while m:
                m &= m - np.uint64(1)
                classes += 1
            if classes > most:
                most = classes
                n_firsts = 0
            if classes == most and n_firsts < OTHER_FIRSTS:
                firsts[n_firsts] = gi
                n_firsts += 1
    return most, firsts[:n_firsts]


@nb.njit(cache=True, nogil=True)
def classes_told_apart(scores, guess, cands, n_slots):  # pragma: no cover - compiled
    """Whether every class ``guess`` splits the candidates into has a member telling its
    other members apart (so that, guessed first, the class costs its least: 2k - 1)."""
    n = cands.shape[0]
    row = scores[guess]
    done = np.zeros(n_slots, dtype=np.bool_)
    members = np.empty(n, dtype=cands.dtype)
    for j in range(n):
        a = row[cands[j]]
        if done[a]:
            continue
        done[a] = True
        k = 0
        for o in range(j, n):
            if row[cands[o]] == a:
                members[k] = cands[o]
                k += 1
        if k >= 3 and perfect_member(scores, members[:k], n_slots) < 0:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def cheapest_member(scores, cands, n_slots):  # pragma: no cover - compiled
    """``(j, most)``: ``most`` the most classes any candidate's answers split the other
    candidates into, ``j`` the position of the first candidate that makes that many with a
    member telling the others apart in each class (-1 if none does). Each class of k secrets
    then costs its least, 2k - 1 (its telling member first), so that guessing the candidate
    costs 3n - 2 - most: one guess per secret, one more per other candidate, and one more per
    other candidate in a class but its first."""
    n = cands.shape[0]
    seen = np.zeros(n_slots, dtype=np.int64)
    size = np.zeros(n_slots, dtype=np.int64)
    most = np.int64(-1)
    best = np.int64(-1)
    for gi in range(n):
        row = scores[cands[gi]]
        mark = gi + 1
        classes = 0
        largest = 0
        for j in range(n):
            if j != gi:
                a = row[cands[j]]
                if seen[a] != mark:
                    seen[a] = mark
                    size[a] = 0
                    classes += 1
                size[a] += 1
                if size[a] > largest:
                    largest = size[a]
        if classes < most or (classes == most and best >= 0):
            continue
        # (the candidate's own class, the win, holds it alone)
        ok = largest < 3 or classes_told_apart(scores, np.int64(cands[gi]), cands, n_slots)
        if classes > most:
            most = classes
            best = gi if ok else -1
        elif ok:
            best = gi
    return best, most


@nb.njit(cache=True, nogil=True)
def _before(bound, spread, guesses, a, b):  # pragma: no cover - compiled
    """Plan order: bound, then sum of squared class sizes, then position."""
    if bound[a] != bound[b]:
        return bound[a] < bound[b]
    if spread[a] != spread[b]:
        return spread[a] < spread[b]
    return a < b


@nb.njit(cache=True, nogil=True)
def _heap_push(heap, size, x, bound, spread, guesses):  # pragma: no cover - compiled
    i = size
    heap[i] = x
    while i > 0:
        parent = (i - 1) >> 1
        if _before(bound, spread, guesses, heap[i], heap[parent]):
            heap[i], heap[parent] = heap[parent], heap[i]
            i = parent
        else:
            break
    return size + 1


@nb.njit(cache=True, nogil=True)
def _sift_down(heap, size, i, bound, spread, guesses):  # pragma: no cover - compiled
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and _before(bound, spread, guesses, heap[left + 1], heap[left]):
            child = left + 1
        if _before(bound, spread, guesses, heap[child], heap[i]):
            heap[i], heap[child] = heap[child], heap[i]
            i = child
        else:
            break


@nb.njit(cache=True, nogil=True)
def _heap_pop(heap, size, bound, spread, guesses):  # pragma: no cover - compiled
    top = heap[0]
    size -= 1
    heap[0] = heap[size]
    _sift_down(heap, size, np.int64(0), bound, spread, guesses)
    return top, size


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
