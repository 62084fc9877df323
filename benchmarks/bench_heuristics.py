"""Wall time of the one-step heuristics, played on every secret, against a numpy baseline.

    python benchmarks/bench_heuristics.py            # p4c6, p5c8n and p5c8 (with and without its 1 GiB table)
    python benchmarks/bench_heuristics.py --no-big   # skip p5c8

Targets (issue 3): all six heuristics on p4c6 together <= 0.25 s; minimax tree of p5c8n
<= 1 s; minimax tree of p5c8 <= 15 s within 2 GiB. Issue 14: p5c8 without the table
(answers computed as they are counted, as the CLI does for games whose table exceeds 256 MiB),
whole process: all six heuristics within 300 MiB, and minimax no slower than the 5.1 s the
issue measured with the full table (the C++ solver: 8.5 s, 7 MB). Times are the best of
``--repeat`` runs after a warm-up (numba compilation or cache load); whole-process runs
give the median. The baseline is the same decision rule
with the class counts taken by plain numpy (a fancy-indexed block of the score table and
one bincount), recorded with mastermind.core.tree.build_tree; the ratio is baseline / ours.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

from mastermind.core.game import CodeTable, Rules
from mastermind.core.symmetry import canonical_first_guesses
from mastermind.core.tree import build_tree
from mastermind.engines.heuristics import play_all
from mastermind.engines.heuristics.scores import TOLERANCE, keys_from_counts
from mastermind.engines.registry import HEURISTIC_NAMES, make_strategy


def numpy_rule(table: CodeTable, criterion: str):
    """The default decision rule with numpy class counts: the baseline."""
    firsts = np.array(canonical_first_guesses(table.rules))
    slots = table.rules.n_answer_slots

    def next_guess(cands, history):
        if len(cands) <= 2:
            return int(cands[0])
        pool = firsts if not history and len(cands) == table.n else table.all_codes
        block = table.scores[np.ix_(pool, cands)].astype(np.int64)
        block += (np.arange(len(pool)) * slots)[:, None]
        counts = np.bincount(block.ravel(), minlength=len(pool) * slots).reshape(len(pool), slots)
        keys = keys_from_counts(counts, criterion)
        tied = pool[keys <= keys.min() + TOLERANCE]
        preferred = tied[np.isin(tied, cands)]
        return int((preferred if len(preferred) else tied).min())

    return next_guess


CPU: dict[str, float] = {}


def best_of(repeat: int, fn, label: str = "") -> tuple[float, object]:
    """Best wall time of ``repeat`` runs, and the result of the last run. The process CPU
    time of the best run goes to ``CPU[label]``: far below the wall time means the machine
    was busy with other work (all threads count, so it can exceed wall time too)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = fn()
        wall = time.perf_counter() - start
        if wall < best:
            best, CPU[label] = wall, time.process_time() - cpu
    return best, result


def p4c6_all_six(repeat: int) -> None:
    table = CodeTable(Rules(4, 6))
    run = lambda: [play_all(make_strategy(n, table, seed=0)) for n in HEURISTIC_NAMES]
    run()  # warm-up
    ours, trees = best_of(repeat, run, "six")
    totals = [tree.stats(table).total for tree in trees]
    scored = HEURISTIC_NAMES[:4]
    base, base_totals = best_of(
        max(1, repeat // 2),
        lambda: [build_tree(table, numpy_rule(table, n)) for n in scored],
    )
    base_totals = [tree.stats(table).total for tree in base_totals]
    ours4, _ = best_of(repeat, lambda: [play_all(make_strategy(n, table)) for n in scored])
    assert base_totals == totals[:4], (base_totals, totals)
    print(
        f"p4c6   all six heuristics      {ours:7.3f} s   (cpu {CPU['six']:.3f} s; target <= 0.25 s, "
        f"trees only) totals {totals}"
    )
    print(f"p4c6   four scored, numpy      {base:7.3f} s   ours {ours4:.3f} s   ratio {base / ours4:5.1f}x")


def minimax_tree(text: str, repeat: int, target: float, baseline: bool, full: bool = True) -> None:
    start = time.perf_counter()
    table = CodeTable(Rules.parse(text), full=full)
    built = time.perf_counter() - start
    ours, tree = best_of(repeat, lambda: play_all(make_strategy("minimax", table)), text)
    stats = tree.stats(table)
    how = f"table {built:.2f} s" if full else "no table"
    line = (
        f"{text:6} minimax tree            {ours:7.3f} s   (cpu {CPU[text]:.3f} s; target <= {target:g} s) "
        f"total {stats.total} worst {stats.worst} avg {stats.average:.4f}; {how}"
    )
    print(line)
    if baseline:
        base, base_tree = best_of(1, lambda: build_tree(table, numpy_rule(table, "minimax")))
        assert base_tree.root == tree.root
        print(f"{text:6} minimax tree, numpy     {base:7.3f} s   ratio {base / ours:5.1f}x")


# Runs the command and prints its peak resident KiB. A child forked from this process would
# report this process's own peak (Linux carries it over fork and exec); a child of a fresh
# small interpreter reports its own.
_LAUNCHER = (
    "import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL); "
    "_, status, usage = os.wait4(p.pid, 0); print(usage.ru_maxrss if status == 0 else -1)"
)


def whole_process(args: list[str], runs: int) -> tuple[float, float]:
    """Median wall seconds and largest peak resident MiB of ``mastermind ARGS`` run
    ``runs`` times (after one untimed run that loads the kernel cache)."""
    cmd = [sys.executable, "-c", _LAUNCHER, sys.executable, "-m", "mastermind.app.cli", *args]
    walls, peaks = [], []
    for i in range(runs + 1):
        start = time.perf_counter()
        kib = int(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        if kib < 0:
            raise SystemExit(f"mastermind {' '.join(args)} failed")
        if i:
            walls.append(time.perf_counter() - start)
            peaks.append(kib / 1024)
    return statistics.median(walls), max(peaks)


def p5c8_streamed(runs: int) -> None:
    base = ["heuristics", "-r", "p5c8", "--json", "--no-cache"]
    wall, peak = whole_process([*base, "-s", "minimax"], runs)
    print(
        f"p5c8   minimax, no table       {wall:7.3f} s   peak {peak:5.0f} MiB   whole process, "
        f"median of {runs} (issue 14: 5.1 s, 1.17 GiB with the table; C++ 8.5 s, 7 MB)"
    )
    wall, peak = whole_process(base, runs)
    print(f"p5c8   all six, no table       {wall:7.3f} s   peak {peak:5.0f} MiB   (target <= 300 MiB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3, help="whole-process runs of p5c8 without the table")
    parser.add_argument("--no-big", action="store_true", help="skip p5c8")
    args = parser.parse_args()
    p4c6_all_six(args.repeat)
    minimax_tree("p5c8n", args.repeat, 1.0, baseline=True)
    if not args.no_big:
        minimax_tree("p5c8", 1, 15.0, baseline=False, full=False)
        minimax_tree("p5c8", 1, 15.0, baseline=False)
        p5c8_streamed(args.runs)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    print(f"peak resident memory {peak:.2f} GiB (target <= 2 GiB)")


if __name__ == "__main__":
    main()
