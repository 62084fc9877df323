"""How the exact search shares out its memory: the score table first, then the memo (a
transposition table, see :mod:`._memo`), the strategy search's memo and some room for scratch.

The budget is the whole command's (``--memory-limit``): each process of the search holds the
score table and a memo, so a backend of processes gives each ``1/workers`` of it (the jobs,
less one where the strategy search runs beside the units); threads share one table and one
memo. Work that cannot fit is refused before it starts.

>>> from mastermind.engines.exact.memory import MemoryBudget
>>> from mastermind.core.game import CodeTable, Rules
>>> budget = MemoryBudget.of(CodeTable(Rules(4, 7)), 1 << 30, processes=1)
>>> budget.memo_entries, budget.strategy_bytes >> 20
(8388608, 190)
>>> budget.first_entries(2401)
1048576
"""

from __future__ import annotations

from dataclasses import dataclass

from mastermind.core.errors import TableTooLarge
from mastermind.core.game import CodeTable, Rules

RESERVE = 256 << 20
"""Room kept for everything but the table and the memos: the refined bound's table of
answers between candidates (at most 64 MiB a search), the cache of canonical guesses (at
most 64 MiB a search, ``_dfs.MASK_CACHE_BYTES``), node plans, trees, Python."""
LEAST = 16 << 20
"""The least memory left for the memos once the table is counted."""


@dataclass(frozen=True)
class MemoryBudget:
    """Bytes for one process of the search: its memo (``memo_entries`` when threads share
    it, ``search_bytes`` for a memo of its own) and the strategy search's memo."""

    total: int
    memo_entries: int
    search_bytes: int
    strategy_bytes: int

    @staticmethod
    def of(table: CodeTable, memory: int | None, processes: int) -> MemoryBudget:
        """The budget of a search on ``table`` within ``memory`` bytes (None: the table's own
        ``memory_limit``, 2 GiB by default) over ``processes`` processes that each hold the table."""
        total = table.memory_limit if memory is None else int(memory)
        free = _room(table.rules, total, processes)
        from mastermind.engines.exact._memo import capacity_for  # (numba: only once a search runs)

        memo = free * 3 // 4
        return MemoryBudget(total, capacity_for(memo), memo, free - memo)

    @staticmethod
    def check(rules: Rules, memory: int, processes: int = 1) -> None:
        """Refuse (:class:`TableTooLarge`), before any work, a game whose exact search cannot
        fit in ``memory`` bytes over ``processes`` processes; nothing is built or compiled
        (a command answered from its result cache checks this too)."""
        _room(rules, memory, processes)

    @property
    def proof_bytes(self) -> int:
        """The bytes of a proof pass after the search in this process (its memos and its
        index of the sets certified; the search's memo, handed to it, counted within)."""
        return self.search_bytes + self.strategy_bytes

    def first_entries(self, n_codes: int) -> int:
        """The room a shared memo starts with (it grows between rounds, up to its budget):
        enough for small games without touching gigabytes of pages."""
        want = min(1 << 22, max(1 << 16, n_codes * 256))
        return min(self.memo_entries, 1 << (want - 1).bit_length())


def _room(rules: Rules, total: int, processes: int) -> int:
    """The bytes one process of the search has for its memos and scratch, within ``total``
    bytes over ``processes`` processes; :class:`TableTooLarge` if that is less than ``LEAST``."""
    share = total // max(1, processes)
    free = share - rules.table_bytes() - RESERVE
    if free < LEAST:
        # (the amount needed, rounded up: "more than 0.01 GiB: its table takes 0.01 GiB"
        # named neither what was given nor what is needed)
        least = (rules.table_bytes() + RESERVE + LEAST) * max(1, processes)
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


__all__ = ["MemoryBudget"]
