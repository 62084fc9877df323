"""Compiling every numba kernel ahead of the first command: ``python -m mastermind.app.precompile``.

An editable install (``pip install -e .``) runs this from its build step (``setup.py``), so
the first command after installing loads its kernels from numba's cache instead of compiling
them for most of a minute. It plays a tiny game through the commands' code paths on both
cores: the tie-break search in a child process; the heuristics, the bounds and the plain
search here (the kernels the two searches share are in the cache by then).
"""

from __future__ import annotations

import sys
import time

TINY = (2, 3)  # pegs, colours: every kernel is reached, none takes long to run
HOUR = 3600.0


def _tie_break_search() -> None:
    from mastermind.core.game import CodeTable, Rules
    from mastermind.core.progress import NoProgress
    from mastermind.engines.exact.solver import solve

    solve(CodeTable(Rules(*TINY)), tie_break=True, progress=NoProgress())


def precompile() -> float:
    """Compile (or load from the cache) the kernels of every command; the seconds it took."""
    from mastermind.app.registry import HEURISTIC_NAMES, strategy_tree
    from mastermind.app.reports import game_bounds
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact.warmup import load_kernels
    from mastermind.engines.models.timed import TimedWorker

    start = time.perf_counter()
    table = CodeTable(Rules(*TINY))
    with TimedWorker() as worker:
        worker.submit(_tie_break_search, (), HOUR)
        for name in HEURISTIC_NAMES:
            strategy_tree(name, table).stats(table)
        game_bounds(table)
        load_kernels()  # the plain search and the work-unit planning
        worker.result()
    return time.perf_counter() - start


def main() -> int:
    print("compiling the mastermind kernels once, about 60 s", file=sys.stderr, flush=True)
    print(f"compiled in {precompile():.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
