"""Compiling every numba kernel ahead of the first command: ``python -m mastermind.app.precompile``.

An editable install (``pip install -e .``) runs this from its build step (``setup.py``), so
the first command after installing loads its kernels from numba's cache instead of compiling
them for most of a minute. It plays a tiny game through the commands' code paths, on two
cores: the exact search (plain, tie-break, the work-unit planning: one compiled search) in a
child process from the start; the heuristics, the bounds and, sooner than the child gets to
it, the work-unit planning here.
"""

from __future__ import annotations

import os
import sys
import time

HOUR = 3600.0
INTERRUPTED = "interrupted: kernels not compiled yet are compiled by the first command"


def precompile() -> float:
    """Compile (or load from the cache) the kernels of every command; the seconds it took."""
    from mastermind.engines.exact import compile_kernels, plan_root, tiny_table
    from mastermind.engines.workers import TimedWorker

    start = time.perf_counter()
    with TimedWorker() as worker:
        worker.submit(compile_kernels, (), HOUR)  # first: the longest part
        from mastermind.core.compiling import ALL_KERNELS, cold_modules

        cold_modules(ALL_KERNELS)  # the probes by which commands ask numba whether it must compile
        # imported only now: the heuristics' kernels have signatures, so importing compiles them
        from mastermind.engines.models import game_bounds
        from mastermind.engines.registry import HEURISTIC_NAMES, strategy_tree

        table = tiny_table()
        for name in HEURISTIC_NAMES:
            strategy_tree(name, table).stats(table)
        game_bounds(table)
        plan_root(table)
        worker.result()
    return time.perf_counter() - start


def _interrupted() -> int:
    at_terminal = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    print(("\n" if at_terminal else "") + INTERRUPTED, file=sys.stderr)  # after the echoed ^C
    return 130


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if args:
        print(f"error: precompile takes no arguments, got {' '.join(args)!r}", file=sys.stderr)
        return 2
    # Ctrl-C stops it even when started with SIGINT ignored (a shell's background jobs are),
    # and even when it arrives inside numba's compiler, which cannot always raise it
    from mastermind.app.interrupts import interrupt_handling, interrupted

    with interrupt_handling(farewell=INTERRUPTED):
        # said once Ctrl-C is handled: one pressed as soon as this shows ends in the one line too
        print("compiling the mastermind kernels once, about 40 s on 2 cores", file=sys.stderr, flush=True)
        try:
            seconds = precompile()
        except KeyboardInterrupt:
            return _interrupted()
        except Exception:
            if interrupted():  # numba half-way through saving a kernel, say
                return _interrupted()
            raise
    print(f"compiled in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    # not through the command line's module: the build environment has no typer (numba_colours)
    from mastermind.app.numba_colours import quiet_numba_colours

    quiet_numba_colours()
    code = main()
    if code == 130:
        # leave at once: objects numba left half-built would complain while Python shuts down
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    raise SystemExit(code)
