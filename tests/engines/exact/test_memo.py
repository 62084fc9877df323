"""The bounded memo: what it returns is what was stored, and it never outgrows its budget."""

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact._memo import (
    ENTRY_BYTES,
    WINDOW,
    capacity_for,
    memo_bytes,
    memo_grow,
    memo_lookup,
    memo_replaced,
    memo_size,
    memo_store,
    new_memo,
)
from mastermind.engines.exact.search import INF, UNLIMITED
from mastermind.engines.exact.solver import ExactSolver


def _keys(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(1, 2**63, size=(n, 2), dtype=np.uint64)


def test_a_table_that_may_still_grow_keeps_every_entry():
    memo = new_memo(1 << 20)
    keys = _keys(20_000)
    for i, (a, b) in enumerate(keys):
        memo_store(memo, a, b, float(i), i % 50 - 2, i % 300 + 3)
    assert memo_size(memo) == 20_000
    assert memo_replaced(memo) == 0
    for i, (a, b) in enumerate(keys):
        assert memo_lookup(memo, a, b) == (True, float(i), i % 50 - 2)
    assert memo_lookup(memo, np.uint64(1), np.uint64(2))[0] is False


def test_overwriting_keeps_one_entry():
    memo = new_memo(1 << 12)
    memo_store(memo, np.uint64(9), np.uint64(4), 5.0, -2, 10)
    memo_store(memo, np.uint64(9), np.uint64(4), 7.0, 3, 10)
    assert memo_size(memo) == 1
    assert memo_lookup(memo, np.uint64(9), np.uint64(4)) == (True, 7.0, 3)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(3, 2000)), min_size=1, max_size=3000))
def test_a_full_table_never_answers_wrong_and_keeps_its_size(entries):
    """Against a plain dict: a key found has the last value stored for it; the table holds
    no more entries than allowed, and bytes stay at the budget."""
    limit = 64
    memo = new_memo(limit)
    truth = {}
    for step, (k, size) in enumerate(entries):
        a, b = np.uint64(k * 7919 + 1), np.uint64(k * 104729 + 3)
        memo_store(memo, a, b, float(step), k, size)
        truth[k] = float(step)
        assert memo_size(memo) <= limit
    assert memo_bytes(memo) <= limit * ENTRY_BYTES
    for k, value in truth.items():
        found, cost, tag = memo_lookup(memo, np.uint64(k * 7919 + 1), np.uint64(k * 104729 + 3))
        if found:
            assert (cost, tag) == (value, k)


def test_when_full_a_window_keeps_its_largest_sets():
    memo = new_memo(WINDOW)  # one window: every key probes every slot
    sizes = [50, 10, 40, 30] * (WINDOW // 4)
    sizes[5] = 9
    for i, size in enumerate(sizes):
        memo_store(memo, np.uint64(i), np.uint64(i + 1), 1.0, i, size)
    assert memo_size(memo) == WINDOW
    memo_store(memo, np.uint64(100), np.uint64(1), 2.0, 9, 20)  # replaces the set of 9
    assert memo_lookup(memo, np.uint64(5), np.uint64(6))[0] is False
    assert memo_lookup(memo, np.uint64(100), np.uint64(1)) == (True, 2.0, 9)
    memo_store(memo, np.uint64(200), np.uint64(1), 3.0, 9, 5)  # smaller than all: dropped
    assert memo_lookup(memo, np.uint64(200), np.uint64(1))[0] is False
    assert memo_replaced(memo) == 2
    assert memo_size(memo) == WINDOW
    assert memo_lookup(memo, np.uint64(0), np.uint64(1)) == (True, 1.0, 0)


def test_capacity_is_a_power_of_two_within_the_budget():
    for budget in (1, 10_000, 1 << 20, 3 << 20, 1 << 30):
        cap = capacity_for(budget)
        assert cap & (cap - 1) == 0
        assert cap >= WINDOW
        # while the table doubles to its limit, its old half lives beside it
        assert 3 * cap // 2 * ENTRY_BYTES <= max(budget, WINDOW * ENTRY_BYTES * 3 // 2)
        assert 3 * cap * ENTRY_BYTES > budget  # the next power of two would not fit


_FILL = """
import sys
import numpy as np
from mastermind.engines.exact._memo import capacity_for, memo_bytes, memo_import, new_memo
budget = int(sys.argv[1])
memo_import(new_memo(64), np.array([[1, 2, (4 + 3) | (3 << 32), 0]], dtype=np.int64))  # compiled
n = 2 * capacity_for(budget)
rows = np.zeros((n, 4), dtype=np.int64)
rows[:, :2] = np.random.default_rng(1).integers(1, 2**62, size=(n, 2))
rows[:, 2] = (1 + 3) | (9 << 32)
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
open("/proc/self/clear_refs", "w").write("5")  # the peak from here on
before = peak()
memo = new_memo(capacity_for(budget))
memo_import(memo, rows)
print(peak() - before, memo_bytes(memo))
"""


@pytest.mark.skipif(
    not os.path.exists("/proc/self/clear_refs"), reason="the peak is read from Linux's /proc/self"
)
def test_a_memo_filled_past_its_limit_stays_within_its_budget_while_it_grows():
    """The peak resident memory of a memo filled twice over, growth included, is within the
    bytes it was given (measured in a process of its own: a 6x5 run once peaked a fifth
    above ``--memory-limit``)."""
    import subprocess
    import sys

    budget = 128 << 20  # (the old rule: a table of all of it, 192 MiB while it doubled)
    command = [sys.executable, "-c", _FILL, str(budget)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    grew, held = map(int, out.stdout.split())
    assert held == capacity_for(budget) * ENTRY_BYTES  # it did grow to its limit
    assert grew <= budget


@pytest.mark.parametrize("game", ["p4c4", "p3c6", "p4c5n"])
def test_a_search_with_a_tiny_memo_finds_the_same_optimum(game):
    """Entries lost to a full table are computed again: same value, same tree cost."""
    table = CodeTable(Rules.parse(game))
    solver = ExactSolver(table)
    big = solver.new_search()
    small = solver.new_search(memory=WINDOW * ENTRY_BYTES)
    cands = table.all_codes.astype(np.int32)
    assert small.solve(cands, UNLIMITED, INF) == big.solve(cands, UNLIMITED, INF)
    assert small.memo_entries <= small.memo_limit
    assert small.memo_limit == WINDOW
    assert memo_replaced(small.memo) > 0


def test_a_shared_table_grows_only_when_asked_and_keeps_its_entries():
    memo = new_memo(1 << 12, shared=True, first=64)
    keys = _keys(200, seed=3)
    for i, (a, b) in enumerate(keys):
        memo_store(memo, a, b, float(i), 1, 10)
    assert memo_bytes(memo) == 64 * ENTRY_BYTES  # full windows replaced entries instead
    assert memo_replaced(memo) > 0
    kept = [i for i, (a, b) in enumerate(keys) if memo_lookup(memo, a, b)[0]]
    assert memo_grow(memo)
    assert memo_bytes(memo) == 128 * ENTRY_BYTES and memo_replaced(memo) == 0
    for i in kept:
        assert memo_lookup(memo, *keys[i]) == (True, float(i), 1)
    while memo_grow(memo):
        pass
    assert memo_bytes(memo) <= (1 << 12) * ENTRY_BYTES


def test_threads_sharing_a_table_never_read_a_wrong_entry():
    """Four threads store and look up overlapping keys at once; every entry found holds a
    value some thread stored for that key."""
    import threading

    memo = new_memo(1 << 10, shared=True, first=1 << 10)
    keys = _keys(3000, seed=5)
    wrong = []

    def work(t):
        for _rep in range(3):
            for i, (a, b) in enumerate(keys):
                memo_store(memo, a, b, float(i * 10 + t), i % 7, 5 + (i + t) % 20)
                found, cost, tag = memo_lookup(memo, a, b)
                if found and (int(cost) // 10 != i or tag != i % 7):
                    wrong.append((i, cost, tag))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert wrong == []


def test_a_lower_bound_never_replaces_an_exact_cost_nor_a_greater_bound():
    """Threads sharing the table store what they found for a key in any order: an exact cost
    stays, and of two bounds the greater."""
    lower = -2  # the search's tag of a lower bound (_dfs.LOWER)
    memo = new_memo(1 << 10)
    a, b = np.uint64(77), np.uint64(99)
    memo_store(memo, a, b, 40.0, 5, 9)  # exact: 40 with guess 5
    memo_store(memo, a, b, 38.0, lower, 9)  # a bound from a search with a smaller budget
    assert memo_lookup(memo, a, b) == (True, 40.0, 5)
    c = np.uint64(78)
    memo_store(memo, c, b, 30.0, lower, 9)
    memo_store(memo, c, b, 25.0, lower, 9)
    assert memo_lookup(memo, c, b) == (True, 30.0, lower)
    memo_store(memo, c, b, 33.0, lower, 9)
    assert memo_lookup(memo, c, b) == (True, 33.0, lower)
    memo_store(memo, c, b, 31.0, 2, 9)  # exact replaces a bound
    assert memo_lookup(memo, c, b) == (True, 31.0, 2)


def test_a_cost_without_its_guess_is_kept_as_an_exact_cost():
    """The tag ``CHOOSE`` (-3: its low word 0, next to an empty slot's) reads back as
    stored, through an export and an import too, and no lower bound replaces it."""
    from mastermind.engines.exact._dfs import CHOOSE, LOWER
    from mastermind.engines.exact._memo import memo_export, memo_import

    memo = new_memo(1 << 10)
    a, b = np.uint64(12345), np.uint64(678)
    memo_store(memo, a, b, 17.0, CHOOSE, 8)
    memo_store(memo, a, b, 16.0, LOWER, 8)
    assert memo_lookup(memo, a, b) == (True, 17.0, CHOOSE)
    copy = new_memo(1 << 10)
    memo_import(copy, memo_export(memo, 3, 100))
    assert memo_lookup(copy, a, b) == (True, 17.0, CHOOSE) and memo_size(copy) == 1
