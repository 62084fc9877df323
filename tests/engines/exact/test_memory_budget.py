"""The exact search's memory budget: every process, search and memo counted within the limit."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind.core.errors import TableTooLarge
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact._memo import ENTRY_BYTES
from mastermind.engines.exact.memory import INTERPRETER, SCRATCH, MemoryBudget, parent_bytes

GAMES = [Rules(4, 6), Rules(4, 7), Rules(5, 5), Rules(4, 8)]


def _spent(table: CodeTable, budget: MemoryBudget, workers: int, shared: bool, parent: int) -> int:
    """All the search may hold at once under ``budget``: each process's interpreter, table and
    memo (half again while it doubles), each search's scratch, the strategy search's memo."""
    processes = 1 if shared else workers + 1
    memos = processes * (3 * budget.memo_entries * ENTRY_BYTES // 2)
    fixed = processes * (table.rules.table_bytes() + INTERPRETER) + (workers + 1) * SCRATCH
    return parent + fixed + memos + budget.strategy_bytes


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    gib=st.floats(0.5, 64),
    workers=st.integers(0, 8),
    shared=st.booleans(),
    parent=st.sampled_from([0, INTERPRETER]),
)
def test_what_a_budget_gives_fits_in_its_limit(game, gib, workers, shared, parent):
    table = CodeTable(game)
    memory = int(gib * 2**30)
    try:
        budget = MemoryBudget.of(table, memory, workers, shared=shared, parent=parent)
    except TableTooLarge:
        return
    assert _spent(table, budget, workers, shared, parent) <= memory
    assert budget.search_bytes >= 3 * budget.memo_entries * ENTRY_BYTES // 2
    assert budget.strategy_bytes > 0


def test_more_workers_or_processes_leave_less_for_each_memo():
    table = CodeTable(Rules(4, 7))
    one = MemoryBudget.of(table, 4 << 30)
    threads = MemoryBudget.of(table, 4 << 30, 3)
    processes = MemoryBudget.of(table, 4 << 30, 3, shared=False)
    assert one.search_bytes - threads.search_bytes == 3 * SCRATCH * 3 // 4  # (scratch only)
    assert processes.search_bytes < threads.search_bytes // 3


@pytest.mark.parametrize("jobs", [1, 2, 4])
@pytest.mark.parametrize("shared", [True, False])
def test_the_memory_a_refusal_names_is_enough(jobs, shared):
    """``check`` names the least memory for the game with these jobs: given that, it passes,
    and so does the search's own budget of as many workers."""
    rules, parent = Rules(4, 7), parent_bytes(Rules(4, 7))
    with pytest.raises(TableTooLarge) as refused:
        MemoryBudget.check(rules, 1 << 20, jobs, shared=shared, parent=parent)
    named = re.search(r"needs at least ([0-9.]+) GiB of memory", str(refused.value))
    assert named is not None
    enough = int(float(named.group(1)) * 2**30)
    MemoryBudget.check(rules, enough, jobs, shared=shared, parent=parent)
    MemoryBudget.of(CodeTable(rules), enough, 0 if jobs == 1 else jobs, shared=shared, parent=parent)
    with pytest.raises(TableTooLarge):  # (and what it named is no more than needed, to 0.01 GiB)
        MemoryBudget.check(rules, enough - (12 << 20), jobs, shared=shared, parent=parent)


def test_a_parent_counts_an_interpreter_and_the_table_it_plays_on():
    rules = Rules(5, 6)
    assert parent_bytes() == INTERPRETER
    assert parent_bytes(rules) == INTERPRETER + rules.table_bytes()
