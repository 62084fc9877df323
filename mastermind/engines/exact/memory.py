"""How the exact search shares out its memory: the score tables first, an interpreter and
scratch for each process and search, then the memos (transposition tables, see
:mod:`._memo`) and the strategy search's memo.

The budget is the whole command's (``--memory-limit``): threads share one table and one
memo; a backend of processes gives each worker its own table and memo beside the main
process's (its planner's memo, and the strategy search's), each an equal share; a command
whose own process waits for a child's search (compare, table, results) counts what it holds
too. Work that cannot fit is refused before it starts.

>>> from mastermind.engines.exact.memory import MemoryBudget
>>> from mastermind.core.game import CodeTable, Rules
>>> budget = MemoryBudget.of(CodeTable(Rules(4, 7)), 1 << 30)
>>> budget.memo_entries, budget.strategy_bytes >> 20
(8388608, 282)
>>> budget.first_entries(2401)
1048576
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from mastermind.core.errors import TableTooLarge
from mastermind.core.game import CodeTable, Rules

INTERPRETER = 224 << 20
"""A process's own memory beside its tables: Python, numpy, numba and the compiled kernels
(measured: 180 MiB after a search of 4x6 in a process of the command line)."""
SCRATCH = 128 << 20
"""Each search's scratch beside the memo: the refined bound's table of answers between
candidates (at most 64 MiB, ``_dfs.REFINE_PAIRS_MAX``), the cache of canonical guesses (at
most 64 MiB, ``_dfs.MASK_CACHE_BYTES``); node plans and trees are small beside them."""
LEAST = 16 << 20
"""The least memory left for each process's memo once the rest is counted."""


@dataclass(frozen=True)
class MemoryBudget:
    """What the search's memos get within the whole command's memory (``total``): the memo
    of each process (``memo_entries`` when threads share it, ``search_bytes`` for a memo of
    its own), the strategy search's (``strategy_bytes``), and all a process has for its
    memos (``process_bytes``, what a proof pass after the search may use)."""

    total: int
    memo_entries: int
    search_bytes: int
    strategy_bytes: int
    process_bytes: int

    @staticmethod
    def of(
        table: CodeTable,
        memory: int | None,
        workers: int = 0,
        *,
        shared: bool = True,
        alongside: bool = False,
        parent: int = 0,
    ) -> MemoryBudget:
        """The budget of a search on ``table`` within ``memory`` bytes (None: the table's own
        ``memory_limit``, 2 GiB by default): this process's own search (its planner's, in a
        run of work units) and ``workers`` more at once, threads of this process that share
        its table and memo (``shared``), or processes that each hold the table and a memo
        beside this one; and the strategy search in this process where it runs
        ``alongside``. ``parent``: bytes held by a process that waits for this one (see
        :func:`parent_bytes`), counted within ``memory``.

        Each process has an equal share for its memos: its memo is given what it may reach
        while it doubles (see ``_memo.capacity_for``), and what the power of two leaves of
        this process's share goes to the strategy search."""
        # (numba: only once a search runs)
        from mastermind.engines.exact._memo import ENTRY_BYTES, capacity_for

        total = table.memory_limit if memory is None else int(memory)
        processes = _processes(workers, shared)
        share = _room(table.rules, total, workers, shared, alongside, parent) // processes
        each = share * 3 // 4
        entries = capacity_for(each)
        strategy = share - 3 * entries * ENTRY_BYTES // 2  # (at least a quarter of the share)
        return MemoryBudget(total, entries, each, strategy, share)

    @staticmethod
    def check(rules: Rules, memory: int, jobs: int = 1, *, shared: bool = True, parent: int = 0) -> None:
        """Refuse (:class:`TableTooLarge`), before any work, a game whose exact search with
        ``jobs`` (below 1: every core, the most ``--jobs`` can mean) may not fit in ``memory``
        bytes: counted as :meth:`of` counts the most a search of them runs (as many workers
        as jobs, the strategy search beside them); nothing is built or compiled (a command
        answered from its result cache checks this too)."""
        workers = jobs if jobs >= 1 else max(1, os.cpu_count() or 1)
        _room(rules, memory, workers, shared, True, parent)

    @property
    def proof_bytes(self) -> int:
        """The bytes of a proof pass after the search in this process: all its memos had
        (the search's memo, handed to it, counted within)."""
        return self.process_bytes

    def first_entries(self, n_codes: int) -> int:
        """The room a shared memo starts with (it grows between rounds, up to its budget):
        enough for small games without touching gigabytes of pages."""
        want = min(1 << 22, max(1 << 16, n_codes * 256))
        return min(self.memo_entries, 1 << (want - 1).bit_length())


def parent_bytes(rules: Rules | None = None) -> int:
    """What a command's own process holds while a child process searches for it: an
    interpreter, and ``rules``' score table where it plays on it meanwhile (compare)."""
    return INTERPRETER + (0 if rules is None else rules.table_bytes())


def child_memory(memory: int, parent: int) -> int:
    """What a search in a child process may use of ``memory`` while its parent holds
    ``parent`` bytes: the rest, never below half (for work that searches nothing under a
    limit below what a parent holds: a search that would not fit beside its parent was
    refused before, by :meth:`MemoryBudget.check` with ``parent``).

    >>> from mastermind.engines.exact.memory import child_memory
    >>> child_memory(1000, 100), child_memory(1000, 900)
    (900, 500)
    """
    return max(memory // 2, memory - parent)


def _processes(workers: int, shared: bool) -> int:
    """The processes that hold a score table and memos (see :meth:`MemoryBudget.of`)."""
    return 1 if shared else workers + 1


def _room(rules: Rules, total: int, workers: int, shared: bool, alongside: bool, parent: int) -> int:
    """The bytes left for the memos of every process of the search (the strategy search's
    among them), within ``total`` bytes; :class:`TableTooLarge` if that is less than
    ``LEAST`` a process."""
    processes = _processes(workers, shared)
    searches = workers + 1 + int(alongside)
    held = parent + processes * (rules.table_bytes() + INTERPRETER) + searches * SCRATCH
    free = total - held
    if free < LEAST * processes:
        # (the amount needed, rounded up: "more than 0.01 GiB: its table takes 0.01 GiB"
        # named neither what was given nor what is needed)
        least = held + LEAST * processes
        each = "" if processes <= 1 else f" ({processes} processes, each with its own score table)"
        raise TableTooLarge(
            f"the exact search of {rules} needs at least {_gib(least)} GiB of memory{each}, "
            f"got {total / 1024**3:.3g} GiB"
        )
    return free


def _gib(n: int) -> str:
    """Bytes in GiB, rounded up to two decimals.

    >>> from mastermind.engines.exact.memory import _gib
    >>> _gib(1), _gib(1 << 30), _gib(int(1.234 * 2**30))
    ('0.01', '1.00', '1.24')
    """
    hundredths = -(-n * 100 // 2**30)
    return f"{hundredths / 100:.2f}"


__all__ = ["MemoryBudget", "child_memory", "parent_bytes"]
