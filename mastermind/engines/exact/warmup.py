"""Compiling the exact search's kernels ahead of a timed search (first run after install).

>>> from mastermind.engines.exact.warmup import compile_kernels
>>> compile_kernels()  # a tiny game: every kernel the search uses gets compiled (or loaded)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mastermind.core.compiling import EXACT_KERNELS, CompileNotice

if TYPE_CHECKING:
    from mastermind.core.game import CodeTable


def tiny_table() -> CodeTable:
    """The game every warm-up plays: solved at once, and every kernel is reached."""
    from mastermind.core.game import CodeTable, Rules

    return CodeTable(Rules(2, 3))


def plan_root(table: CodeTable) -> None:
    """Plan the root of ``table`` as the work-unit driver does (``plan_node`` and its
    kernels), which a tiny game's own search never reaches."""
    from mastermind.engines.exact.solver import ExactSolver

    ExactSolver(table).new_search().plan(table.all_codes, 9, float("inf"))


def compile_kernels() -> None:
    """Solve a tiny game, so that the kernels of every search (plain and tie-break, and the
    work-unit driver's planning) are compiled or loaded from numba's cache."""
    from mastermind.engines.exact.solver import solve

    solve(tiny_table(), tie_break=True)
    load_kernels()


_loaded = False


def load_kernels() -> None:
    """Load (or compile) in this process every kernel the work-unit driver and its units use,
    once: the tiny game's units, and the planning of a root, which the tiny game skips."""
    global _loaded
    if _loaded:
        return
    _loaded = True  # first: the tiny solve below goes through the driver, which calls this
    from mastermind.core.progress import NoProgress
    from mastermind.engines.exact.solver import solve

    table = tiny_table()
    solve(table, progress=NoProgress())
    plan_root(table)


def ensure_compiled(stream=None, quiet: bool = False) -> float | None:
    """Compile the exact search's kernels if numba's cache lacks them, saying so on stderr
    first (not when ``quiet``); the seconds it took, or None when the cache was warm."""
    with CompileNotice(EXACT_KERNELS, "the search kernels", stream, quiet) as notice:
        if notice.cold:
            compile_kernels()
    return notice.seconds
