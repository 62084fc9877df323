"""Whole-process start-up of the command line (issue 14, items 2 and 3).

    python benchmarks/bench_startup.py                      # this interpreter, 7 runs each
    python benchmarks/bench_startup.py --python /tmp/venv/bin/python --runs 5
    python benchmarks/bench_startup.py --cold               # also a first run after install

Each row is the median (and best) wall time of ``python -m mastermind ARGS`` as a fresh
process, numba's cache warm (one unmeasured run first), in a result cache of its own:

- ``repeat``: the same command asked again, answered from the result cache (no numba);
- ``--no-cache``: computed again: imports, loading the cached kernels, the search itself.

The reference column repeats the figures of issue 14 (this tool before, and the C++ solver
mmstrat, one thread), for reference only. ``--cold`` times ``compare -r p4c6`` with an empty
numba cache (compiling every kernel), against the issue's 15 s target.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 0.35  # seconds, issue 14 item 2
COLD_TARGET = 15.0  # seconds, issue 14 item 3
# (label, arguments, the figure for this tool, the C++ solver's)
CASES = [
    ("--version", ["--version"], None, None),
    ("optimal p4c6, repeat", ["optimal", "-r", "p4c6", "--json"], 1.06, "0.09-0.18"),
    ("optimal p4c6, --no-cache", ["optimal", "-r", "p4c6", "--json", "--no-cache"], 1.06, "0.09-0.18"),
    ("heuristics p4c6, repeat", ["heuristics", "-r", "p4c6", "--json"], 0.80, "0.05"),
    ("heuristics p4c6, --no-cache", ["heuristics", "-r", "p4c6", "--json", "--no-cache"], 0.80, "0.05"),
]


def wall_times(python: str, args: list[str], runs: int, env: dict[str, str]) -> list[float]:
    cmd = [python, "-m", "mastermind", *args]
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)  # warm: kernels, cache
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return times


def cold_compare_seconds(python: str, env: dict[str, str]) -> float:
    with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as results:
        cold = dict(env, NUMBA_CACHE_DIR=numba_cache, XDG_CACHE_HOME=results)
        t0 = time.perf_counter()
        subprocess.run(
            [python, "-m", "mastermind", "compare", "-r", "p4c6", "--json"],
            cwd=ROOT,
            env=cold,
            capture_output=True,
            check=True,
        )
        return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter to run (e.g. a clean venv's)")
    parser.add_argument("--runs", type=int, default=7, help="measured runs of each command")
    parser.add_argument("--cold", action="store_true", help="also a cold `compare -r p4c6` (minutes)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as results:
        env = dict(os.environ, XDG_CACHE_HOME=results)
        print(f"{args.python}: median (best) of {args.runs} whole-process runs, target <= {TARGET} s")
        print(f"{'command':30} {'median s':>8} {'best s':>7} {'issue 14 s':>10} {'C++ s':>10}")
        for label, command, before, cpp in CASES:
            times = wall_times(args.python, command, args.runs, env)
            print(
                f"{label:30} {statistics.median(times):8.3f} {min(times):7.3f} "
                f"{before if before is not None else '':>10} {cpp or '':>10}",
                flush=True,
            )
        if args.cold:
            seconds = cold_compare_seconds(args.python, env)
            print(f"cold `compare -r p4c6` (empty numba cache): {seconds:.1f} s (target <= {COLD_TARGET} s)")


if __name__ == "__main__":
    main()
