"""The exact search's memo: a transposition table of bounded size, as chess engines keep one.

Entries map a 128-bit key (a candidate set and the guesses left, see ``_dfs.set_key``) to a
cost and a tag (the optimal guess of an exact cost, or a mark that the cost is a lower bound).
The table starts small and doubles when half full, up to ``max_entries``; an entry lives in
the first free slot of the :data:`WINDOW` slots from its hash (open addressing, linear
probing, no deletions, so a lookup stops at the first free slot). Once the table may grow no
more, a new entry whose window is full takes the place of the entry of the smallest
candidate set there (the cheapest to find again), unless it is smaller still. Losing an entry
never makes an answer wrong: the search then computes that set again.

A change here needs `_dfs.py` compiled again (touch it, or clear its numba cache): numba
caches the search with these functions compiled into it and does not see them change.

A slot is four 64-bit words, one 32-byte row: the key's first half, a check word (the key's
second half XOR the other two words), ``info`` (the tag plus 3 in the low 32 bits, the set
size above; 0 marks an empty slot) and the cost's bits. Threads may share one table without
locks, as chess engines share theirs: a slot that two threads write at once fails its check
and reads as absent, never as a wrong entry. A table of one thread grows by itself; a shared
table grows only when its owner calls :func:`memo_grow` while no thread uses it (between the
rounds of a search); its rows sit in a one-element typed list so that they can be replaced.

>>> import numpy as np
>>> from mastermind.engines.exact._memo import memo_lookup, memo_size, memo_store, new_memo
>>> memo = new_memo(1 << 10)
>>> memo_store(memo, np.uint64(5), np.uint64(7), np.float64(12.0), np.int64(3), np.int64(40))
>>> memo_lookup(memo, np.uint64(5), np.uint64(7))
(True, 12.0, 3)
>>> memo_size(memo)
1
"""

import numba as nb
import numpy as np
from numba.core import types
from numba.extending import intrinsic
from numba.typed import List

ENTRY_BYTES = 32
WINDOW = 16
FIRST_CAPACITY = 1 << 12
# info slots: entries held, most entries allowed, entries replaced (or dropped) when full,
# whether the table grows by itself (one thread) or only through memo_grow (shared)
HELD, LIMIT, REPLACED, SELF_GROWING = 0, 1, 2, 3
LOWER_WORD = 1  # the low word of a lower bound's info: its tag (-2, ``_dfs.LOWER``) plus 3


def capacity_for(memory_bytes: int) -> int:
    """The most entries a memo within ``memory_bytes`` may grow to: a power of two, at least
    one window. A table grows by doubling, and while it does the old half lives beside the
    new table, so the limit is the largest power of two whose table and half fit together
    (a 6x5 run of 12 GiB peaked at 15.5 GB when only the full table was counted).

    >>> from mastermind.engines.exact._memo import capacity_for
    >>> capacity_for(48 << 20)
    1048576
    >>> capacity_for(1)
    16
    """
    entries = max(WINDOW, int(memory_bytes) * 2 // (3 * ENTRY_BYTES))
    return 1 << (entries.bit_length() - 1)


@intrinsic
def _float_bits(typingctx, x):  # pragma: no cover - compiled
    """The bits of a float64 as an int64 (no conversion)."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(types.int64))

    return types.int64(types.float64), codegen


@intrinsic
def _bits_float(typingctx, x):  # pragma: no cover - compiled
    """The float64 whose bits an int64 holds."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(types.float64))

    return types.float64(types.int64), codegen


@nb.njit(cache=True)
def _new_memo(first, limit, self_growing):  # pragma: no cover - compiled
    slots = List()
    slots.append(np.zeros((first, 4), dtype=np.int64))
    info = np.zeros(4, dtype=np.int64)
    info[LIMIT] = limit
    info[SELF_GROWING] = self_growing
    return slots, info


def new_memo(max_entries: int, *, shared: bool = False, first: int = FIRST_CAPACITY):
    """An empty memo that holds at most ``max_entries`` (a power of two) entries, starting
    with room for ``first``; a ``shared`` one (for threads) grows only through
    :func:`memo_grow`. Built by a compiled function: its code is cached on disk, where typed
    lists made from Python compile their helpers again in every process."""
    limit = max(WINDOW, int(max_entries))
    start = 1 << (max(WINDOW, min(int(first), limit)).bit_length() - 1)
    return _new_memo(start, limit, 0 if shared else 1)


@nb.njit(cache=True, nogil=True)
def memo_lookup(memo, k1, k2):  # pragma: no cover - compiled
    """``(found, cost, tag)`` of a key."""
    slots = memo[0][0]
    a = np.int64(k1)
    b = np.int64(k2)
    mask = slots.shape[0] - 1
    s = np.int64(k1 & np.uint64(mask))
    for _ in range(WINDOW):
        word = slots[s, 2]
        if word == 0:
            break
        if slots[s, 0] == a:
            bits = slots[s, 3]
            if slots[s, 1] ^ word ^ bits == b:
                return True, _bits_float(bits), (word & 0xFFFFFFFF) - 3
        s = (s + 1) & mask
    return False, np.inf, np.int64(-2)


@nb.njit(cache=True, nogil=True, inline="always")
def _write(slots, s, a, b, word, bits):  # pragma: no cover - compiled
    slots[s, 0] = a
    slots[s, 1] = b ^ word ^ bits
    slots[s, 2] = word
    slots[s, 3] = bits


@nb.njit(cache=True, nogil=True, inline="always")
def _keeps(held, held_bits, word, bits):  # pragma: no cover - compiled
    """Whether a new entry for a key replaces the one held: a proven lower bound never
    replaces an exact cost, nor a greater bound (threads sharing the table may store what
    they found for a key in any order)."""
    if (word & 0xFFFFFFFF) != LOWER_WORD:
        return True
    if (held & 0xFFFFFFFF) != LOWER_WORD:
        return False
    return _bits_float(bits) >= _bits_float(held_bits)


@nb.njit(cache=True, nogil=True)
def _place(slots, a, b, word, bits, size, replace):  # pragma: no cover - compiled
    """Put an entry in its window: its own slot, else the first free one, else (``replace``)
    in place of the smallest set's unless the new set is smaller. Returns 1 if a slot was
    newly filled, 0 if an entry was overwritten, -1 if one was replaced or the new one
    dropped, -2 if the window is full and ``replace`` is False (nothing written)."""
    mask = slots.shape[0] - 1
    s = np.int64(np.uint64(a) & np.uint64(mask))
    small = -1
    small_size = np.int64(1) << 62
    for _ in range(WINDOW):
        held = slots[s, 2]
        if held == 0:
            _write(slots, s, a, b, word, bits)
            return 1
        if slots[s, 0] == a and slots[s, 1] ^ held ^ slots[s, 3] == b:
            if _keeps(held, slots[s, 3], word, bits):
                _write(slots, s, a, b, word, bits)
            return 0
        if held >> 32 < small_size:
            small_size = held >> 32
            small = s
        s = (s + 1) & mask
    if not replace:
        return -2
    if size >= small_size:
        _write(slots, small, a, b, word, bits)
    return -1


@nb.njit(cache=True, nogil=True)
def _grow(memo):  # pragma: no cover - compiled
    old = memo[0][0]
    slots = np.zeros((old.shape[0] * 2, 4), dtype=np.int64)
    held = 0
    for s in range(old.shape[0]):
        word = old[s, 2]
        if word != 0:
            b = old[s, 1] ^ word ^ old[s, 3]
            # (the types of memo_store's call, a runtime bool for a literal: one compiled _place)
            if _place(slots, old[s, 0], b, word, old[s, 3], np.int64(word >> 32), slots.shape[0] > 0) == 1:
                held += 1
    memo[0][0] = slots
    memo[1][HELD] = held


@nb.njit(cache=True, nogil=True)
def memo_store(memo, k1, k2, cost, tag, size):  # pragma: no cover - compiled
    """Keep ``(cost, tag)`` for a key of a set of ``size`` candidates."""
    info = memo[1]
    growing = info[SELF_GROWING] != 0
    if growing and 2 * info[HELD] >= memo[0][0].shape[0] and 2 * memo[0][0].shape[0] <= info[LIMIT]:
        _grow(memo)
    word = (np.int64(tag) + 3) | (np.int64(size) << 32)
    bits = _float_bits(np.float64(cost))
    while True:
        full = not growing or 2 * memo[0][0].shape[0] > info[LIMIT]
        placed = _place(memo[0][0], np.int64(k1), np.int64(k2), word, bits, np.int64(size), full)
        if placed != -2:
            break
        _grow(memo)  # a full window in a table that may still grow: grow rather than lose an entry
    # (counts are approximate when threads share the table: they only guide growth and reports)
    if placed == 1:
        info[HELD] += 1
    elif placed < 0:
        info[REPLACED] += 1


@nb.njit(cache=True, nogil=True)
def memo_grow(memo):  # pragma: no cover - compiled
    """Double a table that is half full, or has lost entries for want of room, while it may
    grow (call it only while no other thread uses the table). True if it grew."""
    info = memo[1]
    capacity = memo[0][0].shape[0]
    if 2 * capacity > info[LIMIT] or (2 * info[HELD] < capacity and info[REPLACED] == 0):
        return False
    _grow(memo)
    info[REPLACED] = 0
    return True


@nb.njit(cache=True, nogil=True)
def memo_export(memo, min_size, max_entries):  # pragma: no cover - compiled
    """The rows of the entries of sets of at least ``min_size`` candidates, at most
    ``max_entries`` of them, those of the biggest sets (the least size kept is raised until
    they fit, so no more than that is ever copied), as an array of rows ``(key high, key low,
    info, cost bits)``. A slot being written by another thread meanwhile may be read torn:
    its key is then garbage, which no set's key meets."""
    slots = memo[0][0]
    largest = np.int64(0)
    for s in range(slots.shape[0]):
        size = slots[s, 2] >> 32
        if slots[s, 2] != 0 and size > largest:
            largest = size
    counts = np.zeros(largest + 2, dtype=np.int64)
    for s in range(slots.shape[0]):
        word = slots[s, 2]
        if word != 0 and word >> 32 >= min_size:
            counts[min(word >> 32, largest)] += 1
    least = largest + 1  # the least size kept: lowered while the entries still fit
    kept = np.int64(0)
    while least - 1 >= max(min_size, 1) and kept + counts[least - 1] <= max_entries:
        least -= 1
        kept += counts[least]
    out = np.empty((kept, 4), dtype=np.int64)
    k = 0
    for s in range(slots.shape[0]):
        word = slots[s, 2]
        if word != 0 and word >> 32 >= least and k < kept:
            out[k, 0] = slots[s, 0]
            out[k, 1] = slots[s, 1] ^ word ^ slots[s, 3]
            out[k, 2] = word
            out[k, 3] = slots[s, 3]
            k += 1
    return out[:k]


@nb.njit(cache=True, nogil=True)
def memo_import(memo, rows):  # pragma: no cover - compiled
    """Keep the entries of ``rows`` (as :func:`memo_export` gives them; a row marked empty
    is skipped)."""
    for j in range(rows.shape[0]):
        word = rows[j, 2]
        if word == 0 or word >> 32 <= 0:
            continue
        memo_store(
            memo,
            np.uint64(rows[j, 0]),
            np.uint64(rows[j, 1]),
            _bits_float(rows[j, 3]),
            np.int64((word & 0xFFFFFFFF) - 3),
            np.int64(word >> 32),
        )


@nb.njit(cache=True, nogil=True)
def memo_size(memo):  # pragma: no cover - compiled
    """Entries held."""
    return memo[1][HELD]


def memo_bytes(memo) -> int:
    """Bytes the table takes now."""
    return int(memo[0][0].shape[0]) * ENTRY_BYTES


def memo_replaced(memo) -> int:
    """Entries replaced or dropped for want of room (since the table last grew)."""
    return int(memo[1][REPLACED])


def memo_limit(memo) -> int:
    """The most entries the table may hold."""
    return int(memo[1][LIMIT])


def memo_reach(memo) -> int:
    """The most bytes the table may take from now on: its limit's, and half that again while
    it doubles up to it by itself (see :func:`capacity_for`; a shared table grows only
    between rounds, with nothing else searching).

    >>> from mastermind.engines.exact._memo import memo_reach, new_memo
    >>> memo_reach(new_memo(1 << 16)) >> 20, memo_reach(new_memo(1 << 16, first=1 << 16)) >> 20
    (3, 2)
    """
    full = memo_limit(memo) * ENTRY_BYTES
    growing = memo[1][SELF_GROWING] != 0 and memo_bytes(memo) < full
    return full * 3 // 2 if growing else full


@nb.njit(cache=True)
def cache_probe():
    """Loaded from numba's cache, or compiled with this module's other kernels (see
    :mod:`mastermind.core.compiling`)."""
    return 0
