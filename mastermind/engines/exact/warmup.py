"""Compiling the exact search's kernels ahead of a timed search (first run after install).

The warm-up runs the search itself on a tiny game, every way the solver and the work units
call it: from the root, with a fixed first guess, with the tie-break's costs, building the
tree, planning and splitting a root as the rounds do, and the strategy search's kernels. It never goes through
:func:`mastermind.engines.exact.solve`, which calls it.

>>> from mastermind.engines.exact.warmup import SEARCH, load_kernels
>>> from mastermind.engines.exact.warmup import compile_kernels
>>> compile_kernels()  # a tiny game: every kernel the search uses gets compiled (or loaded)
>>> load_kernels([SEARCH])  # what one search from the root calls, once in this process
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from mastermind.core.compiling import EXACT_KERNELS, CompileNotice

if TYPE_CHECKING:
    from mastermind.core.game import CodeTable


def tiny_table() -> CodeTable:
    """The game every warm-up plays: solved at once, and every kernel is reached."""
    from mastermind.core.game import CodeTable, Rules

    return CodeTable(Rules(2, 3))


def plan_root(table: CodeTable) -> None:
    """Plan the root of ``table`` as the top-level search does (``plan_node`` and its
    kernels), which a tiny game's own search never reaches."""
    import numpy as np

    from mastermind.core.symmetry import full_group
    from mastermind.engines.exact.search import INF, Search

    weights = np.ones(table.n, dtype=np.int64)
    Search(table, weights, full_group(table.rules)).plan(table.all_codes, 9, INF)


SEARCH = "search"
"""The one search's kernels (solving, building the tree, a fixed first guess, the
tie-break's costs): what a search from the root and every work unit call."""
ROUNDS = "rounds"
"""The rounds' own (:mod:`.anytime`): a root planned and a guess split into its classes,
the memo the threads share, grown between rounds."""
STRATEGY = "strategy"
"""The strategy search's ranking of guesses (:mod:`.strategy_search`), run beside the rounds
of a run that may stop."""
MEMO_FILE = "memo file"
"""A memo saved to and read from a file (:mod:`.memo_file`: a checkpoint's)."""
PARTS = (SEARCH, ROUNDS, STRATEGY, MEMO_FILE)


def compile_kernels(parts: Iterable[str] = PARTS) -> None:
    """Run the search on a tiny game every way it is used (or the ways of ``parts``), so
    that its kernels are compiled or loaded from numba's cache."""
    import numpy as np

    from mastermind.core.symmetry import full_group
    from mastermind.engines.exact.partition import guess_classes
    from mastermind.engines.exact.search import INF, UNLIMITED, Search

    parts = set(parts)
    unknown = parts - set(PARTS)
    if unknown:
        raise ValueError(f"no such kernels: {', '.join(sorted(unknown))} (parts: {', '.join(PARTS)})")
    table = tiny_table()
    cands = table.all_codes
    group = full_group(table.rules)
    weights = np.ones(table.n, dtype=np.int64)
    search = Search(table, weights, group, max_set=len(cands))
    opening = int(cands[0])
    if SEARCH in parts:
        search.solve(cands, UNLIMITED, INF)
        search.build(cands, UNLIMITED)
        search.solve(cands, UNLIMITED, INF, only=[opening])  # a fixed first guess: the root kept apart
        search.build(cands, UNLIMITED, guess=search.root_guess)
        # the tie-break's costs: a guess outweighs every secret, one more for the last level
        tie = Search(table, weights, group, unit=len(cands) + 1, penalty=1, max_set=len(cands))
        tie.solve(cands, 3, INF)
        tie.build(cands, 3)
    if ROUNDS in parts:
        # the top-level search: a root planned (which the tiny game's own search never
        # reaches) and a guess split into its classes; the rounds' shared memo, grown
        # between rounds
        from mastermind.engines.exact._memo import memo_grow, new_memo

        plan = search.plan(cands, 9, INF)
        guess_classes(search, cands, 9, group, plan.guesses[0] if plan.guesses else opening, plan.most)
        memo = new_memo(64, shared=True, first=16)
        memo_grow(memo)
    if MEMO_FILE in parts:
        # the least depth's memo file (saved within a Ctrl-C's grace: no compiling then)
        from mastermind.engines.exact._memo import memo_export, memo_import

        memo_import(search.memo, memo_export(search.memo, np.int64(1), np.int64(16)))
    if STRATEGY in parts:
        # the strategy search's ranking of guesses (which only large sets reach)
        from mastermind.engines.exact._ranking import rank_guesses

        rank_tables, size_tables = search.node_tables(UNLIMITED)
        xlogx = np.zeros(table.n + 1)
        for every in (True, False):  # (the ranking of every code, and of some)
            rank_guesses(
                search.scores,
                cands,
                every,
                cands,
                weights[cands],
                rank_tables,
                size_tables,
                xlogx,
                search.slots,
            )


_loaded: set[str] = set()
_loading = threading.Lock()


def load_kernels(parts: Iterable[str] = PARTS) -> None:
    """:func:`compile_kernels` of ``parts`` once in this process (a part loaded already is
    not run again): a search loads what it calls before its clock starts, and no more (each
    kernel loaded from numba's cache takes 5-30 ms, more on a busy machine)."""
    with _loading:
        missing = [p for p in PARTS if p in set(parts) and p not in _loaded]
        if missing:
            compile_kernels(missing)
            _loaded.update(missing)


def ensure_compiled(
    stream: TextIO | None = None, quiet: bool = False, json_lines: bool = False
) -> float | None:
    """Compile the exact search's kernels if numba's cache lacks them, saying so on stderr
    first (not when ``quiet``; a JSON line with ``json_lines``, see
    :class:`~mastermind.core.compiling.CompileNotice`); the seconds it took, or None when the
    cache was warm."""
    with CompileNotice(EXACT_KERNELS, "the search kernels", stream, quiet, json_lines) as notice:
        if notice.cold:
            compile_kernels()
    return notice.seconds
