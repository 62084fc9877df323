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


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    gib=st.floats(0.5, 64),
    workers=st.integers(0, 8),
    shared=st.booleans(),
    alongside=st.booleans(),
    parent=st.sampled_from([0, INTERPRETER]),
)
def test_what_a_budget_gives_fits_in_its_limit(game, gib, workers, shared, alongside, parent):
    """Each process's memo at its peak (doubling, its old half beside it) and the strategy
    search's memo fit in the process's share; the shares, an interpreter and a table a
    process, and a scratch a search fit in the limit."""
    table = CodeTable(game)
    memory = int(gib * 2**30)
    try:
        budget = MemoryBudget.of(table, memory, workers, shared=shared, alongside=alongside, parent=parent)
    except TableTooLarge:
        return
    processes = 1 if shared else workers + 1
    peak = 3 * budget.memo_entries * ENTRY_BYTES // 2
    assert peak <= budget.search_bytes and peak + budget.strategy_bytes <= budget.process_bytes
    assert budget.strategy_bytes >= budget.process_bytes // 4
    searches = workers + 1 + alongside
    fixed = parent + processes * (game.table_bytes() + INTERPRETER) + searches * SCRATCH
    assert fixed + processes * budget.process_bytes <= memory
    # (a proof pass after the search has its process's share, no more: it had more than all)
    assert budget.proof_bytes == budget.process_bytes


def test_more_workers_or_processes_leave_less_for_each_memo():
    table = CodeTable(Rules(4, 7))
    one = MemoryBudget.of(table, 4 << 30)
    threads = MemoryBudget.of(table, 4 << 30, 3)
    processes = MemoryBudget.of(table, 4 << 30, 3, shared=False)
    assert one.search_bytes - threads.search_bytes == 3 * SCRATCH * 3 // 4  # (scratch only)
    assert processes.search_bytes < threads.search_bytes // 3
    # a head of many processes keeps its strategy search to its own share (it was given
    # what every process's power of two left: 58 GiB of 240 for 64 processes)
    many = MemoryBudget.of(CodeTable(Rules(5, 8)), 240 << 30, 63, shared=False, alongside=True)
    assert many.strategy_bytes <= many.process_bytes < 4 << 30


@pytest.mark.parametrize("jobs", [1, 2, 4])
@pytest.mark.parametrize("shared", [True, False])
def test_the_memory_a_refusal_names_is_enough(jobs, shared):
    """``check`` names the least memory for the game with these jobs: given that, it passes,
    and so does the budget of every way a search of these jobs runs (one search; work units
    on as many workers, or one fewer beside the strategy search)."""
    rules, parent = Rules(4, 7), parent_bytes(Rules(4, 7))
    with pytest.raises(TableTooLarge) as refused:
        MemoryBudget.check(rules, 1 << 20, jobs, shared=shared, parent=parent)
    named = re.search(r"needs at least ([0-9.]+) GiB of memory", str(refused.value))
    assert named is not None
    enough = int(float(named.group(1)) * 2**30)
    MemoryBudget.check(rules, enough, jobs, shared=shared, parent=parent)
    table = CodeTable(rules)
    MemoryBudget.of(table, enough, parent=parent)
    MemoryBudget.of(table, enough, jobs, shared=shared, parent=parent)
    MemoryBudget.of(table, enough, max(1, jobs - 1), shared=shared, alongside=True, parent=parent)
    with pytest.raises(TableTooLarge):  # (and what it named is no more than needed, to 0.01 GiB)
        MemoryBudget.check(rules, enough - (12 << 20), jobs, shared=shared, parent=parent)


@pytest.mark.parametrize("backend", ["threads", "processes"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_search_runs_within_the_least_memory_its_refusal_named(backend, jobs, tmp_path):
    """The search itself, in work units with the strategy search beside them (a
    checkpoint), accepts the amount the check named (`--jobs 1` was named 0.37 GiB for p4c6
    and then refused below 0.49)."""
    from mastermind.engines.exact import Execution, Limits, solve

    rules = Rules(4, 5)
    with pytest.raises(TableTooLarge) as refused:
        MemoryBudget.check(rules, 1 << 20, jobs, shared=backend == "threads")
    named = re.search(r"needs at least ([0-9.]+) GiB of memory", str(refused.value))
    assert named is not None
    enough = int(float(named.group(1)) * 2**30)
    result = solve(
        CodeTable(rules),
        limits=Limits(time_limit=60, memory=enough),
        execution=Execution(jobs=jobs, backend=backend, checkpoint=tmp_path / "run"),
    )
    assert result.proven and result.total == 2463  # (4x5's optimum; nothing refused)


def test_a_parent_counts_an_interpreter_and_the_table_it_plays_on():
    rules = Rules(5, 6)
    assert parent_bytes() == INTERPRETER
    assert parent_bytes(rules) == INTERPRETER + rules.table_bytes()
