"""Whole-process start-up of the command line (issue 14, items 2 and 3).

    python benchmarks/bench_startup.py                      # this interpreter, 7 runs each
    python benchmarks/bench_startup.py --python /tmp/venv/bin/python --runs 5
    python benchmarks/bench_startup.py --cold               # also a fresh install and its first run

Each row is the median (and best) wall time of ``python -m mastermind ARGS`` as a fresh
process, numba's cache warm (one unmeasured run first), in a result cache of its own:

- ``repeat``: the same command asked again, answered from the result cache (no numba);
- ``--no-cache``: computed again: imports, loading the cached kernels, the search itself.

The reference column repeats the figures of issue 14 (this tool before, and the C++ solver
mmstrat, one thread), for reference only. ``--cold`` clones this checkout, makes a venv, times
``pip install -e .`` (which compiles the kernels, see setup.py) and then ``mastermind compare``
(the first run after a fresh install, against the issue's 15 s target), and, for reference,
``compare`` again with an empty numba cache (compiling on first use, as without the install step).
"""

from __future__ import annotations

import argparse
import os
import shutil
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


def _timed(cmd: list[str], **kwargs) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True, **kwargs)
    return time.perf_counter() - t0


def fresh_install_seconds(python: str, env: dict[str, str]) -> tuple[float, float, float]:
    """(``pip install -e .``, the first ``compare -r p4c6`` after it, ``compare`` with an empty
    numba cache) in a fresh clone and venv: seconds of each."""
    base = subprocess.run(
        [python, "-c", "import sys; print(sys._base_executable)"], capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as numba_cache:
        clone = os.path.join(tmp, "clone")
        subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
        subprocess.run([base, "-m", "venv", os.path.join(clone, ".venv")], check=True)
        venv_python = os.path.join(clone, ".venv", "bin", "python")
        fresh = {k: v for k, v in env.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
        install = _timed([venv_python, "-m", "pip", "install", "-q", "-e", "."], cwd=clone, env=fresh)
        compare = [venv_python, "-m", "mastermind", "compare", "-r", "p4c6", "--json"]
        first = _timed(compare, cwd=clone, env=fresh)
        uncompiled = _timed(compare, cwd=clone, env=dict(fresh, NUMBA_CACHE_DIR=numba_cache))
        shutil.rmtree(clone, ignore_errors=True)
    return install, first, uncompiled


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
            install, first, uncompiled = fresh_install_seconds(args.python, env)
            print(f"fresh clone: `pip install -e .` (compiles the kernels): {install:.1f} s")
            print(f"first `compare -r p4c6` after it: {first:.1f} s (target <= {COLD_TARGET} s)")
            print(f"`compare -r p4c6` with an empty numba cache (compiling on first use): {uncompiled:.1f} s")


if __name__ == "__main__":
    main()
