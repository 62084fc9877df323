"""The depth-first branch and bound itself, compiled whole with numba (one self-recursive
function, no Python between nodes). :mod:`mastermind.engines.exact.search` wraps it; the node-level
kernels it calls live in :mod:`mastermind.engines.exact._kernels` and are tested against their
pure-Python twins, the search as a whole against the plain exhaustive search.

Costs are float64 throughout (exact for integers below 2**53); the memo maps a 128-bit hash
of (candidate set in its canonical order, guesses left capped at set size + 1) to
``(cost, tag)``: tag >= 0 is the optimal guess of an exact cost, ``EXACT_NONE`` an exact
"no strategy" (cost inf), ``LOWER`` a proven lower bound from a search that ran out of
budget, ``CHOOSE`` an exact cost known without its guess (from the candidates alone).
Candidate sets always arrive in one order per set (index order without weights,
heaviest first then index with weights), so hashing the sequence hashes the set.
"""

from collections import namedtuple

import numba as nb
import numpy as np
from numba import types
from numba.typed import Dict

from mastermind.core._kernels import stable_argsort
from mastermind.core._symmetry_kernels import canonical_mask_blocks, restrict_group_kernel
from mastermind.engines.exact._kernels import (
    _before,
    _has_refinable,
    _heap_pop,
    _heap_push,
    _mix,
    _sift_down,
    assess_guesses,
    cheapest_member,
    classes_told_apart,
    most_classes,
    most_other_classes,
    new_partition_log,
    perfect_member,
    refine_buffers,
    refine_guess,
    repeats_partition,
    split_classes,
)
from mastermind.engines.exact._memo import memo_lookup, memo_store

REFINE_PAIRS_MAX = 8192
"""The largest set whose guesses get the refined bound, which tabulates the answers between
every two candidates (64 MiB at this size; 1 GiB at the root of 5 pegs x 8 colours)."""
MEMBER_SIZE_MAX = 64
"""The largest set whose cost is first sought from its candidates alone (see :func:`dfs`:
a pass over every two candidates, where the node weighs every guess on every candidate)."""

PROBE_SIZE = 100
"""The least size of a class that is first searched for its own bound one level deeper,
before any class of its guess is searched deeply (see :func:`dfs`). Measured on proofs with
one job (nodes): p4c8 25113 -> 17634, p4c9 258674 -> 156768, p5c8n 119546 -> 97820; from
64 or 150 up, fewer classes gain than pay (p4c8 19259 and 18281, p4c9 263669 at 64)."""

EXACT_NONE = -1
LOWER = -2
CHOOSE = -3  # an exact cost whose guess the tree's build chooses (see Search.build)
# stats slots: nodes searched, memo hits, guess chosen at a restricted root
# (and the last set's optimal guess: the set a top-level call returns for, read by the tree
# builder when a full memo lost its entry)
NODES, MEMO_HITS, ROOT_GUESS, LAST_GUESS = 0, 1, 2, 3

# Everything a search carries from node to node, as one typed value (numba passes a
# namedtuple of arrays, dicts and scalars as one argument and caches the compiled function).
# ``stop``: a one-element uint8 array; once non-zero, every node returns a proven lower bound
# at once (no memo write), so a search can be cancelled from another thread within milliseconds.
SearchState = namedtuple(
    "SearchState",
    (
        "scores",
        "codes",
        "colour_bits",
        "all_codes",
        "unit",
        "penalty",
        "consistent",
        "weighted",
        "slots",
        "branching",
        "memo",
        "masks",
        "stats",
        "stop",
    ),
)

MASK_CACHE_BYTES = 64 << 20
"""The most memory a search's cache of canonical guesses (see :func:`node_guesses`) takes,
its entries counted at the most they can hold (a mask of every code, 1 byte each, and the
indices of its codes, 4 bytes each); once full, it starts again (refilled in well under a
second). Unbounded, it grew all run: 5x8 held 661 entries (41 MB) after 90 s of search and
955 (57 MB) after 300 s, in each search of a run (each thread's units, the planner, the
strategy search)."""

MASK_KEY = types.UniTuple(types.uint64, 2)
# a group's canonical guesses: as a mask over the codes, and as their indices
MASK_VALUE = types.Tuple((types.boolean[::1], types.int32[::1]))


# Built by a compiled function: its machine code is cached on disk, whereas
# ``Dict.empty`` called from Python compiles its helpers afresh in every process (about
# 0.3 s of start-up).
@nb.njit(cache=True)
def _empty_mask_cache():  # pragma: no cover - compiled
    return Dict.empty(key_type=MASK_KEY, value_type=MASK_VALUE)


def new_mask_cache() -> Dict:
    """An empty cache of canonical-guess masks for :func:`dfs`."""
    return _empty_mask_cache()


@nb.njit(cache=True, nogil=True)
def set_key(cands, r):  # pragma: no cover - compiled
    """Memo key of a candidate sequence with ``r`` guesses left (capped: beyond n + 1
    guesses left the value no longer changes)."""
    n = cands.shape[0]
    cap = min(r, n + 1)
    h1 = _mix(np.uint64(0x243F6A8885A308D3), n)
    h2 = _mix(np.uint64(0x13198A2E03707344), cap)
    for j in range(n):
        x = cands[j]
        h1 = _mix(h1, x)
        h2 = _mix(h2 ^ np.uint64(0xA4093822299F31D0), x + 11)
    return (h1, _mix(h2, cap))


@nb.njit(cache=True, nogil=True)
def memo_get(memo, cands, r):  # pragma: no cover - compiled
    """``(found, cost, tag)`` of a candidate set in the memo."""
    k1, k2 = set_key(cands, r)
    return memo_lookup(memo, k1, k2)


@nb.njit(cache=True, nogil=True)
def node_rank_tables(levels, n, branching, unit, penalty):  # pragma: no cover - compiled
    """Perfect-tree slot costs for sets of up to ``n`` secrets with ``levels`` guesses left,
    for every cap b = 0..branching on the non-winning classes per guess: ``rank[b, k]`` is
    the cheapest cost of the k-th secret, ``size[b, m]`` the cheapest total of m secrets
    (-1: no room). Twin of :meth:`mastermind.engines.exact.search.Search.node_tables`, cut to n."""
    rank = np.full((branching + 1, n), -1, dtype=np.int64)
    size = np.zeros((branching + 1, n + 1), dtype=np.int64)
    for bb in range(branching + 1):
        b = max(1, bb)
        k = 0
        depth = 1
        width = 1
        while k < n and depth <= levels:
            cost = unit * depth + (penalty if depth == levels else 0)
            stop = min(n, k + width)
            for t in range(k, stop):
                rank[bb, t] = cost
            k = stop
            depth += 1
            width = b if depth == 2 else min(width * b, n)
        full = True
        for m in range(1, n + 1):
            if rank[bb, m - 1] < 0:
                full = False
            size[bb, m] = size[bb, m - 1] + rank[bb, m - 1] if full else -1
    return rank, size


@nb.njit(cache=True, nogil=True)
def small_cost(w, r, unit, penalty):  # pragma: no cover - compiled
    """Exact cost of one or two secrets (the heavier, first in ``w``, guessed first)."""
    n = w.shape[0]
    if r < n:
        return np.inf
    total = 0.0
    for k in range(n):
        depth = k + 1
        total += w[k] * (unit * depth + (penalty if depth == r else 0))
    return total


@nb.njit(cache=True, nogil=True)
def canonical_guess_mask(codes, perms, cmaps, free_bits, absent_bits):  # pragma: no cover
    """Canonical codes under the listed elements times the permutations of the free colours
    and of the ``absent_bits`` colours (one block when they overlap)."""
    c = cmaps.shape[1]
    block = np.full(c, -1, dtype=np.int8)
    table = np.full((2, c), -1, dtype=np.int8)
    n_blocks = 0
    if free_bits & absent_bits:
        sets = (free_bits | absent_bits, 0)
    else:
        sets = (free_bits, absent_bits)
    for s in sets:
        if s == 0:
            continue
        k = 0
        for col in range(c):
            if s >> col & 1:
                block[col] = n_blocks
                table[n_blocks, k] = col
                k += 1
        n_blocks += 1
    return canonical_mask_blocks(codes, perms, cmaps, block, table[:n_blocks])


@nb.njit(cache=True, nogil=True)
def group_key(perms, cmaps, free_bits, absent_bits):  # pragma: no cover - compiled
    """128-bit key of a group with its free and absent colour blocks."""
    h1 = _mix(np.uint64(0x452821E638D01377), perms.shape[0])
    h2 = _mix(np.uint64(0xBE5466CF34E90C6C), free_bits)
    h2 = _mix(h2, absent_bits)
    for e in range(perms.shape[0]):
        for j in range(perms.shape[1]):
            h1 = _mix(h1, perms[e, j])
            h2 = _mix(h2, perms[e, j] + 3)
        for col in range(cmaps.shape[1]):
            h1 = _mix(h1, cmaps[e, col] + 1)
            h2 = _mix(h2, cmaps[e, col] + 5)
    return (h1, h2)


@nb.njit(cache=True, nogil=True)
def node_guesses(codes, colour_bits, all_codes, cands, perms, cmaps, consistent, masks):  # pragma: no cover
    """The guesses to try on ``cands`` (int32, as the codes are): canonical under the group
    fixing the guesses so far, with the colours absent from every candidate (they never
    score) permuted freely too. ``masks`` caches the canonical codes by group, as a mask and
    as indices (few groups recur at many nodes; listing them anew took most of this
    function's 8 us on 5x8n)."""
    colors = cmaps.shape[1]
    free_bits = np.int64(0)  # not the literal 0: see n_pick in dfs
    n_free = 0
    for col in range(colors):
        if cmaps[0, col] < 0:
            free_bits |= 1 << col
            n_free += 1
    trivial = perms.shape[0] == 1 and n_free <= 1
    absent = np.int64(0)
    if consistent:
        if trivial:
            return cands
    else:
        present = 0
        for j in range(cands.shape[0]):
            present |= colour_bits[cands[j]]
        absent = ((1 << colors) - 1) & ~present
        extra = absent & ~free_bits
        if extra == 0 or (extra == absent and extra & (extra - 1) == 0):
            # the absent colours add no permutation the group does not already have
            if trivial:
                return all_codes
            absent = np.int64(0)
    key = group_key(perms, cmaps, free_bits, absent)
    if key in masks:
        mask, listed = masks[key]
    else:
        mask = canonical_guess_mask(codes, perms, cmaps, free_bits, absent)
        listed = np.flatnonzero(mask).astype(np.int32)
        if len(masks) >= max(16, MASK_CACHE_BYTES // (5 * codes.shape[0])):
            masks.clear()  # (bounded: see MASK_CACHE_BYTES)
        masks[key] = (mask, listed)
    if not consistent:
        return listed
    keep = 0
    for j in range(cands.shape[0]):
        if mask[cands[j]]:
            keep += 1
    out = np.empty(keep, dtype=cands.dtype)
    keep = 0
    for j in range(cands.shape[0]):
        if mask[cands[j]]:
            out[keep] = cands[j]
            keep += 1
    return out


@nb.njit(cache=True, nogil=True)
def child_group(perms, cmaps, code):  # pragma: no cover - compiled
    """The subgroup fixing one more guess (the same arrays when the group is trivial)."""
    n_free = 0
    for col in range(cmaps.shape[1]):
        if cmaps[0, col] < 0:
            n_free += 1
    if perms.shape[0] == 1 and n_free <= 1:
        return perms, cmaps
    keep, new = restrict_group_kernel(perms, cmaps, code)
    k = 0
    for e in range(keep.shape[0]):
        if keep[e]:
            k += 1
    out_p = np.empty((k, perms.shape[1]), dtype=perms.dtype)
    out_c = np.empty((k, cmaps.shape[1]), dtype=cmaps.dtype)
    k = 0
    for e in range(keep.shape[0]):
        if keep[e]:
            # element by element: a row assignment brings seconds of compiling (its error message)
            for col in range(perms.shape[1]):
                out_p[k, col] = perms[e, col]
            for col in range(cmaps.shape[1]):
                out_c[k, col] = new[e, col]
            k += 1
    return out_p, out_c


@nb.njit(cache=True, nogil=True)
def entry_bound(w, own, unit):  # pragma: no cover - compiled
    """A lower bound on any set of three or more secrets, known before any work: one guess
    each, and a second for all but (at most) the heaviest."""
    heaviest = w[0]
    rest = w[0] * 0
    for j in range(w.shape[0]):
        rest += w[j]
        if w[j] > heaviest:
            heaviest = w[j]
    return own + float(unit * (rest - heaviest))


@nb.njit(cache=True, nogil=True)
def stopped_bound(found, bound, own, pick, n_pick, heap, n_heap):  # pragma: no cover - compiled
    """The lower bound of a node whose search was stopped: the least of ``found`` (best cost
    found, bounds of guesses refuted, the partial sum of the guess being explored) and the
    bounds of the guesses not reached yet. Each guess's cost is at least one of them."""
    value = found
    for t in range(n_pick):
        value = min(value, bound[pick[t]] + own)
    for t in range(n_heap):
        value = min(value, bound[heap[t]] + own)
    return value


@nb.njit(cache=True, nogil=True)
def dfs(state, cands, w, r, beta, perms, cmaps, only):  # pragma: no cover - compiled
    """Least cost of the secrets ``cands`` (weights ``w``) with ``r`` guesses left, if below
    ``beta``; else a proven lower bound at least ``beta``. ``state``: a :data:`SearchState`.
    ``perms``/``cmaps``: the group fixing every guess so far; ``only`` (non-empty): the
    guesses allowed here, for a root that is kept out of the memo (its choice goes to
    ``stats[ROOT_GUESS]``). Once ``state.stop[0]`` is set the value is only a lower bound.

    Per node: every guess gets the perfect-tree bound (``assess_guesses``); guesses are then
    taken lazily in order of bound, the refined bound computed as each comes up, one guess
    per partition; each is explored class by class, smallest first, with the budget left
    (every class first raised to what the memo proved of it, and each of at least
    :data:`PROBE_SIZE` secrets to its own bound one level deeper), until the next bound
    reaches the best cost found."""
    (
        scores,
        codes,
        colour_bits,
        all_codes,
        unit,
        penalty,
        consistent,
        weighted,
        slots,
        branching,
        memo,
        masks,
        stats,
        stop,
    ) = state
    win = slots[-1]  # the win is the last answer slot
    n = cands.shape[0]
    restricted = only.shape[0] > 0
    if n <= 2 and not restricted:
        return small_cost(w, r, unit, penalty)
    if r <= 0:
        return np.inf
    k1, k2 = set_key(cands, r)
    old = -np.inf
    found, value, tag = (False, np.inf, np.int64(LOWER)) if restricted else memo_lookup(memo, k1, k2)
    if found:
        if tag != LOWER or value >= beta:
            stats[MEMO_HITS] += 1
            stats[LAST_GUESS] = tag
            return value
        old = value
    w_sum = w[0] * 0
    for j in range(n):
        w_sum += w[j]
    own = float(unit * w_sum)
    if stop[0]:
        return max(old, entry_bound(w, own, unit))
    if n <= branching + 1 and not restricted and r >= 2:
        # a candidate as heavy as any that tells the others apart meets the perfect-tree
        # bound (heaviest secret at depth 1, all others at depth 2): optimal
        j = perfect_member(scores, cands, win + 1)
        if j >= 0 and w[j] == w[0]:
            value = own + float(w_sum - w[j]) * (unit + (penalty if r == 2 else 0))
            memo_store(memo, k1, k2, np.float64(value), np.int64(cands[j]), np.int64(n))
            stats[LAST_GUESS] = cands[j]
            return value
    listed = all_codes[:0]  # the guesses listed below, kept for the weighing (none yet)
    have_listed = False
    if n <= MEMBER_SIZE_MAX and not restricted and not weighted and r >= 2 and win < 64:
        # costs from the candidates alone, before any guess is weighed. A class of k secrets
        # costs 2k - 1 at least, so a guess that is a secret and splits the others into m
        # classes costs at least 3n - 2 - m, and any other guess that splits them into m
        # classes 3n - m (the consistent pool has no other guesses)
        per = unit * (w_sum / n)
        j, most = cheapest_member(scores, cands, win + 1)
        by_member = 3 * n - 2 - most
        # a guess that is a secret or not, making the most classes of its kind, each class with
        # a member telling its others apart (guessed first: the class then costs its least),
        # costs just its bound, and is optimal when no guess's bound is lower: the set's cost
        # is known with no guess weighed (room and no penalty needed for 2k - 1 a class).
        # Its guess is left for the tree's build to choose: of the guesses that cost as
        # much, the one a full weighing picks, so that the trees, their histograms and worst
        # cases stay those published (keeping this candidate gave p4c9's optimal tree a worst
        # case of 8, not 7, and p3c4's another histogram)
        finish = r >= 3 and (penalty == 0 or r >= 4)
        by_other = np.inf if consistent else float(3 * n - min(n, branching))
        chosen = -1.0
        if j >= 0 and finish and by_member <= by_other:
            chosen = by_member * per  # (the most classes any guess makes not needed)
        elif not consistent:
            listed = node_guesses(codes, colour_bits, all_codes, cands, perms, cmaps, consistent, masks)
            have_listed = True
            listed_all = listed.shape[0] == all_codes.shape[0]
            most_other, firsts = most_other_classes(scores, listed, listed_all, cands, win + 1)
            by_other = float(3 * n - most_other)
            if most_other == n:
                # no member tells the others apart (above: n <= b), so every secret takes
                # two guesses at least (a member leaves two others together, one of which
                # takes a third), and this guess, telling them all apart, takes just that
                chosen = float(w_sum) * (2 * unit + (penalty if r == 2 else 0))
            elif j >= 0 and finish and by_member <= by_other:
                chosen = by_member * per
            elif finish and by_other <= by_member:
                for t in range(firsts.shape[0]):
                    if classes_told_apart(scores, np.int64(listed[firsts[t]]), cands, win + 1):
                        chosen = by_other * per
                        break
        if chosen >= 0:
            memo_store(memo, k1, k2, np.float64(chosen), np.int64(CHOOSE), np.int64(n))
            stats[LAST_GUESS] = CHOOSE
            return chosen
        if r == 2:
            # no guess tells every secret apart (a member, above, only with n <= b + 1; the
            # other guesses here): two guesses cannot do
            memo_store(memo, k1, k2, np.float64(np.inf), np.int64(EXACT_NONE), np.int64(n))
            stats[LAST_GUESS] = EXACT_NONE
            return np.inf
        least = min(by_member, by_other) * per
        if least >= beta:
            # those bounds alone reach the budget: refuted without weighing a guess
            if old > least:
                least = old
            memo_store(memo, k1, k2, np.float64(least), np.int64(LOWER), np.int64(n))
            stats[LAST_GUESS] = LOWER
            return least
    stats[NODES] += 1
    most_hint = 1
    if restricted:
        guesses = only
        all_guesses = False
        # the perfect-tree bound below uses the most classes ANY guess makes here
        every = node_guesses(codes, colour_bits, all_codes, cands, perms, cmaps, consistent, masks)
        every_all = every.shape[0] == all_codes.shape[0] and not consistent
        most_hint = most_classes(scores, every, every_all, cands, slots)
    else:
        if have_listed:
            guesses = listed
        else:
            guesses = node_guesses(codes, colour_bits, all_codes, cands, perms, cmaps, consistent, masks)
        all_guesses = guesses.shape[0] == all_codes.shape[0] and not consistent
    rank_tables, size_tables = node_rank_tables(r - 1, n, branching, unit, penalty)
    refine = r - 1 >= 3
    # the refined bound needs the answers between every two candidates: not for huge sets
    refine_pairs = refine and n <= REFINE_PAIRS_MAX
    a = assess_guesses(
        scores,
        guesses,
        all_guesses,
        cands,
        w,
        rank_tables,
        size_tables,
        own,
        beta,
        weighted,
        refine,
        most_hint,
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
    exact_guess, exact_value = a.exact_guess, a.exact_value
    best = beta
    best_guess = -1
    lower = np.inf
    if exact_guess >= 0:
        if exact_value < best:
            best = exact_value
            best_guess = exact_guess
        elif exact_value < lower:
            lower = exact_value
    n_guesses = guesses.shape[0]
    # counters start as np.int64(0), not 0: a variable first typed as the literal 0 has numba
    # compile every kernel it is passed to once more, for that literal (seconds on a first run)
    n_pick = np.int64(0)
    pick = np.empty(n_guesses, dtype=np.int64)
    for gi in range(n_guesses):
        if not (useful[gi] and ok[gi]) or largest[gi] <= 2:
            continue
        v = bound[gi] + own
        if v < best:
            pick[n_pick] = gi
            n_pick += 1
        elif v < lower:
            lower = v
    # a heap rather than a sort: a search mostly stops after the first few guesses
    for t in range((n_pick - 2) // 2, -1, -1):
        _sift_down(pick, n_pick, t, bound, spread, guesses)
    heap = np.empty(max(n_pick, 1), dtype=np.int64)
    n_heap = np.int64(0)
    buffers_ready = False
    scratch = refine_buffers(scores, cands[:0], w[:0], win + 1, np.bool_(False))  # not literals: see n_pick
    # guesses explored so far, for one guess per partition
    log = new_partition_log(n_pick)
    n_log = np.int64(0)
    table = rank_tables[min(a.most, branching)]
    exact_size_e = 2
    if refine and table.shape[0] > 2 and table[2] == table[1]:
        exact_size_e = 3
    while True:
        if n_heap > 0 and (n_pick == 0 or not _before(bound, spread, guesses, pick[0], heap[0])):
            gi, n_heap = _heap_pop(heap, n_heap, bound, spread, guesses)
            v = bound[gi] + own
            if v >= best:
                # every guess left has a bound at least v
                if v < lower:
                    lower = v
                break
            repeat, n_log = repeats_partition(
                gi, scores, guesses, cands, counts, parts, largest, spread, win, log, n_log
            )
            if repeat:
                continue
            # explore the guess: its classes, smallest first, with the budget left (small classes
            # are cheap and their excess over the bound tightens the budget of the big ones,
            # which then fail early: p4c9n takes 8x fewer nodes than largest first)
            g = guesses[gi]
            out, out_w, starts, sizes, _, cbounds = split_classes(
                scores, np.int64(g), cands, w, table, win + 1, win, unit, refine
            )
            # each class at the better of its bound and what the memo proved of it (an
            # earlier search of the same set, here or by transposition): a guess whose classes
            # together already reach the best is dropped before any of them is searched
            cb = np.empty(cbounds.shape[0], dtype=np.float64)
            acc = own
            for c in range(cbounds.shape[0]):
                cb[c] = cbounds[c]
                if sizes[c] > exact_size_e:
                    lo = starts[c]
                    hit, known, _ = memo_get(memo, out[lo : lo + sizes[c]], r - 1)
                    if hit and known > cb[c]:
                        cb[c] = known
                acc += cb[c]
            if acc < best:
                c_perms, c_cmaps = child_group(perms, cmaps, codes[g])
                order = stable_argsort(sizes)
                if unit == 0:
                    # a search that only asks whether a strategy exists (every guess free):
                    # the biggest class is the likeliest to have none, and one such drops
                    # the guess (p4c7 refuted in 5 guesses: 120 nodes against 31850 smallest first)
                    order = order[::-1].copy()
                # a first pass (probe) takes every big class to its own bound one level deeper
                # (a search with a budget just above its bound weighs its guesses and stops):
                # searched smallest first, the first big class would be given all the slack
                # and searched deep for what its brothers' own bounds give at once. At a root
                # held to its guess (a unit of a split class) every class: the unit then
                # answers at least what all its classes' own bounds give
                probe = unit > 0 and sizes.shape[0] > 0 and (restricted or sizes.max() >= PROBE_SIZE)
                for phase in range(0 if probe else 1, 2):
                    for t in range(sizes.shape[0]):
                        c = t if phase == 0 else order[t]  # (the probe in answer order)
                        size = sizes[c]
                        if size <= exact_size_e or (phase == 0 and size < PROBE_SIZE and not restricted):
                            continue
                        lo = starts[c]
                        value = dfs(
                            state,
                            out[lo : lo + size],
                            out_w[lo : lo + size],
                            r - 1,
                            cb[c] + unit if phase == 0 else best - acc + cb[c],
                            c_perms,
                            c_cmaps,
                            only[:0],
                        )
                        if phase == 1 or value > cb[c]:
                            acc += value - cb[c]
                            cb[c] = value
                        if stop[0]:
                            # the child's value is only a lower bound: no memo write from here up
                            if restricted:
                                stats[ROOT_GUESS] = -1
                            reached = min(best, lower, acc)
                            return stopped_bound(reached, bound, own, pick, n_pick, heap, n_heap)
                        if acc >= best:
                            break
                    if acc >= best:
                        break
            if acc < best:
                best = acc
                best_guess = g
            elif acc < lower:
                lower = acc
            continue
        if n_pick == 0:
            break
        gi, n_pick = _heap_pop(pick, n_pick, bound, spread, guesses)
        v = bound[gi] + own
        if v >= best:
            if v < lower:
                lower = v
            break
        if refine_pairs and _has_refinable(counts[:, gi], counts.shape[0] - 1, a.two_level):
            if not buffers_ready:
                scratch = refine_buffers(scores, cands, w, win + 1, np.bool_(True))
                buffers_ready = True
            v = refine_guess(
                scores,
                guesses,
                gi,
                cands,
                w,
                a.rank_cost,
                counts,
                slots,
                unit,
                weighted,
                bound,
                own,
                best,
                scratch,
            )
            if largest[gi] <= a.exact_size:
                # classes of at most three: the refined bound is the exact cost
                if v < best:
                    best = v
                    best_guess = guesses[gi]
                elif v < lower:
                    lower = v
                continue
            if v >= best:
                if v < lower:
                    lower = v
                continue
        n_heap = _heap_push(heap, n_heap, gi, bound, spread, guesses)
    if restricted:
        stats[ROOT_GUESS] = best_guess
        return best if best_guess >= 0 else lower
    if best_guess >= 0:
        memo_store(memo, k1, k2, np.float64(best), np.int64(best_guess), np.int64(n))
        stats[LAST_GUESS] = best_guess
        return best
    if lower == np.inf:
        memo_store(memo, k1, k2, np.float64(np.inf), np.int64(EXACT_NONE), np.int64(n))
        stats[LAST_GUESS] = EXACT_NONE
        return np.inf
    if old > lower:
        lower = old
    # (every call in the same types: one compiled, cached memo_store)
    memo_store(memo, k1, k2, np.float64(lower), np.int64(LOWER), np.int64(n))
    stats[LAST_GUESS] = LOWER
    return lower


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
