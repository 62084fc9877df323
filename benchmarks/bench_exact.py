"""Benchmark of the exact solver: search time, nodes, memo hit rate, peak memory.

    python benchmarks/bench_exact.py                   # the games of issue 14 (long: p4c8, p5c7n)
    python benchmarks/bench_exact.py --quick --no-baseline   # p4c6, p4c8n, p4c9n, p5c5
    python benchmarks/bench_exact.py --games p4c6 p4c5 --no-baseline --startup-runs 0

Each game runs in its own process (peak memory is that process's maximum resident size).
Search time excludes numba compilation: the process first solves a tiny game; the cold
compile time is measured once with an empty numba cache. The baseline is the same search
without any symmetry (every guess tried at every node) on the same machine in the same run;
the C++ column repeats the published single-thread times from the issue, for reference only,
and "ratio" is our best time over it. Each run solves ``--repeat`` times in one process and
shows the best and the median search time (tree building included). "calib ms" times a fixed
class-counting workload in the same process: this VM's speed drifts by up to 1.5x, and the
column tells a slow moment from a slow search.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# The C++ solver mmstrat (fancidev/mastermind-strategy), one thread, on this machine: seconds
# and nodes (its OptimalRecursion count) as issue 14 lists them (p4c9n: measured side by side
# for this benchmark); reference only, never run from here.
CPP_SECONDS = {
    "p4c6": 0.15,
    "p4c5": 0.04,
    "p4c7n": 0.05,
    "p4c8n": 0.96,
    "p5c4": 0.23,
    "p4c7": 26.7,
    "p4c9n": 5.6,
    "p4c10n": 167.0,
    "p6c4": 87.0,
    "p5c5": 6.9,
    "p6c6n": 127.0,
    "p5c7n": 130.0,
}
CPP_NODES = {"p4c8n": 17310, "p4c9n": 52309, "p4c10n": 1_300_000}
DEFAULT_RUNS = [
    ("p4c6", 1),
    ("p4c5", 1),
    ("p5c4", 1),
    ("p4c7n", 1),
    ("p4c8n", 1),
    ("p4c9n", 1),
    ("p5c5", 1),
    ("p3c10", 1),
    ("p4c7", 1),
    ("p6c6n", 1),
    ("p6c4", 1),
    ("p4c10n", 1),
    ("p5c7n", 1),
    ("p4c8", 1),
]
QUICK_RUNS = [("p4c6", 1), ("p4c8n", 1), ("p4c9n", 1), ("p5c5", 1)]
BASELINE_GAMES = ["p4c5", "p4c6"]
STARTUP_COMMANDS = (
    # computed each time (benchmarks/bench_startup.py also times the repeats the cache answers)
    ("optimal", ["optimal", "-r", "p4c6", "-j", "1", "--json", "--no-cache"]),
    ("heuristics", ["heuristics", "-r", "p4c6", "--json", "--no-cache"]),
)
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def startup_seconds(args: list[str], runs: int) -> tuple[float, float]:
    """Median and best wall time of the whole process ``python -m mastermind ARGS`` (warm
    numba cache: one unmeasured run first)."""
    cmd = [sys.executable, "-m", "mastermind", *args]
    env = dict(os.environ, PYTHONPATH=ROOT)
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2], min(times)


def run_one(game: str, jobs: int, symmetry: bool, repeat: int = 1) -> dict:
    import resource

    import numpy as np

    from mastermind.core.cancel import CancelToken
    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact import ExactSolver, Execution, Problem, solve

    solve(CodeTable(Rules(3, 3)))  # compile (or load the cache) outside the timing
    solve(CodeTable(Rules(3, 3)), Problem(weights=np.arange(27)))
    execution = Execution(jobs=jobs)
    if jobs > 1:
        solve(CodeTable(Rules(4, 4)), execution=execution)  # start the worker processes (and their numba)
    t0 = time.perf_counter()
    table = CodeTable(Rules.parse(game))
    table_seconds = time.perf_counter() - t0
    calib = calibration_seconds()
    times = []
    for _ in range(repeat):
        if symmetry:
            result = solve(table, execution=execution)
        else:
            solver = ExactSolver(table)
            p, c = table.rules.pegs, table.rules.colors
            solver.group = (np.arange(p, dtype=np.int8)[None, :], np.arange(c, dtype=np.int8)[None, :])
            result = solver.run(CancelToken())
        times.append(result.seconds)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "game": game,
        "jobs": jobs,
        "symmetry": symmetry,
        "total": result.total,
        "secrets": result.secrets,
        "worst": result.worst,
        "seconds": min(times),
        "median": sorted(times)[len(times) // 2],
        "calib_ms": 1000 * min(calib, calibration_seconds()),
        "table_seconds": table_seconds,
        "nodes": result.nodes,
        "memo_hits": result.memo_hits,
        "hit_rate": result.memo_hits / max(1, result.nodes + result.memo_hits),
        "peak_mib": peak,
        "first_guess": table.rules.code_text(result.first_guess),
    }


def calibration_seconds() -> float:
    """A fixed workload of the search's main kernel (class counting on p4c6), best of 3:
    the machine's speed at the time of a run, since it drifts on this VM."""
    import numpy as np

    from mastermind.core.game import CodeTable, Rules
    from mastermind.engines.exact._kernels import class_table

    table = CodeTable(Rules(4, 6))
    rng = np.random.default_rng(0)
    sets = [
        np.sort(rng.choice(table.n, int(k), replace=False)).astype(np.int32) for k in rng.integers(5, 60, 300)
    ]
    # every answer slot, the impossible one too, as the calibrations of earlier runs counted
    # them; since the statistics joined the counting kernel (``class_table``) each set also
    # gets those, so figures from before that are not comparable with later ones
    slots = np.arange(table.rules.n_answer_slots, dtype=np.int64)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for cands in sets:
            class_table(table.scores, table.all_codes, True, cands, slots)
        best = min(best, time.perf_counter() - t0)
    return best


def compile_seconds() -> float:
    """Import + first solve of a tiny game with an empty numba cache, minus the same warm."""
    code = (
        "import time; t=time.perf_counter(); from mastermind.engines.exact import Problem, solve; "
        "from mastermind.core.game import CodeTable, Rules; import numpy as np; "
        "solve(CodeTable(Rules(3, 3))); solve(CodeTable(Rules(3, 3)), Problem(weights=np.arange(27))); "
        "print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=ROOT)
        cold = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        warm = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
    return cold - warm


def child(game: str, jobs: int, symmetry: bool, timeout: float, repeat: int = 1) -> dict | None:
    cmd = [sys.executable, __file__, "--one", game, str(jobs), "1" if symmetry else "0", str(repeat)]
    env = dict(os.environ, PYTHONPATH=ROOT)  # this checkout, not whatever is installed
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True, env=env)
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as exc:
        print(f"{game}: failed\n{exc.stderr}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="*", help="games to run (jobs 1), default: the issue's list")
    parser.add_argument("--jobs", type=int, default=1, help="threads for --games runs (0: all cores)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="solves per run: the best and the median time are shown (this "
        "machine's speed varies by up to 1.5x from minute to minute)",
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip the no-symmetry baseline")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run before giving up")
    parser.add_argument("--quick", action="store_true", help=f"only {', '.join(g for g, _ in QUICK_RUNS)}")
    parser.add_argument("--compile", action="store_true", help="also time compiling on a cold cache")
    parser.add_argument(
        "--startup-runs", type=int, default=7, help="whole-process runs of each start-up command (0: skip)"
    )
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        game, jobs, symmetry, repeat = args.one
        print(json.dumps(run_one(game, int(jobs), symmetry == "1", int(repeat))))
        return
    runs = (
        [(g, args.jobs) for g in args.games] if args.games else (QUICK_RUNS if args.quick else DEFAULT_RUNS)
    )
    if args.startup_runs > 0:
        for _name, command in STARTUP_COMMANDS:
            median, best = startup_seconds(command, args.startup_runs)
            print(
                f"start-up, whole process `mastermind {' '.join(command)}`: median {median:.3f} s, "
                f"best {best:.3f} s (target <= 0.35 s)",
                flush=True,
            )
    if args.compile:
        print(
            f"numba compile time of the search on a cold cache: {compile_seconds():.1f} s "
            "(a fresh install and its first compare: bench_startup.py --cold)",
            flush=True,
        )
    header = (
        f"{'game':7} {'jobs':>4} {'total':>7} {'avg':>7} {'worst':>5} {'best s':>8} "
        f"{'median s':>8} {'C++ s':>6} {'ratio':>6} {'nodes':>8} {'C++ nodes':>9} {'hit rate':>8} "
        f"{'peak MiB':>8} {'calib ms':>8}  first"
    )
    print(header)
    results = {}
    for game, jobs in runs:
        r = child(game, jobs, True, args.timeout, args.repeat)
        if r is None:
            print(f"{game:7} {jobs:>4}  (did not finish within {args.timeout:.0f} s)")
            continue
        results[(game, jobs)] = r
        cpp = CPP_SECONDS.get(game, float("nan"))
        print(
            f"{game:7} {jobs:>4} {r['total']:>7} {r['total'] / r['secrets']:>7.4f} {r['worst']:>5} "
            f"{r['seconds']:>8.3f} {r['median']:>8.3f} {cpp:>6.2f} {r['seconds'] / cpp:>6.2f} "
            f"{r['nodes']:>8} {CPP_NODES.get(game, ''):>9} {r['hit_rate']:>8.3f} {r['peak_mib']:>8.0f} "
            f"{r['calib_ms']:>8.1f}  "
            f"{r['first_guess']}",
            flush=True,
        )
    if args.no_baseline:
        return
    print("\nbaseline: the same search without symmetry (every guess at every node)")
    for game in BASELINE_GAMES:
        if (game, 1) not in results:
            continue
        b = child(game, 1, False, args.timeout)
        if b is None:
            print(
                f"{game:7} baseline did not finish within {args.timeout:.0f} s "
                f"(ratio > {args.timeout / results[(game, 1)]['seconds']:.0f}x)"
            )
            continue
        r = results[(game, 1)]
        assert b["total"] == r["total"], (b, r)
        print(
            f"{game:7} baseline {b['seconds']:.3f} s, {b['nodes']} nodes; with symmetry "
            f"{r['seconds']:.3f} s: {b['seconds'] / r['seconds']:.1f}x faster",
            flush=True,
        )


if __name__ == "__main__":
    main()
