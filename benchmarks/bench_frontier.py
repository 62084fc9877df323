"""Whole-process proofs at the frontier (issue 28 item 5): 4x9 and 5x8 without repetition with
2 jobs, against the 2-minute target, this checkout beside another one (the "before").

    python benchmarks/bench_frontier.py                              # p4c9 and p5c8n, 3 runs
    python benchmarks/bench_frontier.py --games p4c9 --runs 1 --before /work/base
    python benchmarks/bench_frontier.py --objective worst --games p4c8 p4c9 --runs 2 --before DIR

Each run is ``python -m mastermind optimal -r GAME -j 2 --no-cache --json`` (with
``--objective worst``: the optimal worst case, then the best total within it) as a fresh
process (numba's cache warm: one unmeasured p4c6 run first), timed from outside; the table
gives the median and best wall time, the nodes, the peak resident memory of the process
(``ru_maxrss`` of the child) and whether the total is the one every run agrees on. With
``--before DIR`` the same runs of the checkout in DIR (its own ``mastermind`` package on
``PYTHONPATH``) alternate with this one's, so that a slow minute of this shared VM falls on
both. The reference column repeats the issue's figures (this tool before, same machine).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 120.0  # seconds with 2 jobs, issue 28 item 5
REFERENCE = {"p4c9": 236.0, "p5c8n": 287.0}  # the measurements (2 jobs, this VM)


def run_once(tree: str, game: str, jobs: int, objective: str = "total") -> dict:
    env = {**os.environ, "PYTHONPATH": tree}
    cmd = [sys.executable, "-m", "mastermind", "optimal", "-r", game, "-j", str(jobs), "--no-cache", "--json"]
    if objective != "total":
        cmd += ["--objective", objective]
    t0 = time.perf_counter()
    with open(os.devnull, "w") as quiet, tempfile.TemporaryFile("w+") as out:
        child = subprocess.Popen(cmd, cwd=tree, env=env, stdout=out, stderr=quiet)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory
        seconds = time.perf_counter() - t0
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} in {tree}: exit {child.returncode}")
        out.seek(0)
        data = json.load(out)
    peak_mb = usage.ru_maxrss / 1024
    return {
        "seconds": seconds,
        "total": data["total"],
        "worst": data.get("worst"),
        "nodes": data.get("nodes"),
        "peak_mb": peak_mb,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", nargs="*", default=["p4c9", "p5c8n"])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--objective", choices=["total", "worst"], default="total")
    parser.add_argument("--before", metavar="DIR", help="another checkout to run in turns with this one")
    args = parser.parse_args()
    trees = [("this", ROOT)] + ([("before", os.path.abspath(args.before))] if args.before else [])
    for _, tree in trees:  # numba's cache warm in each tree
        subprocess.run(
            [sys.executable, "-m", "mastermind", "optimal", "-r", "p4c6", "--no-cache", "--json"],
            cwd=tree,
            env={**os.environ, "PYTHONPATH": tree},
            capture_output=True,
            check=True,
        )
    print(f"objective: {args.objective}")
    print("| game | tree | median s | best s | nodes | peak MB | total | worst | target s | issue's s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game in args.games:
        runs: dict[str, list[dict]] = {label: [] for label, _ in trees}
        for _ in range(args.runs):
            for label, tree in trees:
                runs[label].append(run_once(tree, game, args.jobs, args.objective))
        totals = {(r["total"], r["worst"]) for rs in runs.values() for r in rs}
        for label, rs in runs.items():
            times = [r["seconds"] for r in rs]
            peak = max(r["peak_mb"] for r in rs)
            print(
                f"| {game} | {label} | {statistics.median(times):.1f} | {min(times):.1f} "
                f"| {rs[0]['nodes']} | {peak:.0f} "
                f"| {rs[0]['total']}{'' if len(totals) == 1 else ' (DIFFER)'} | {rs[0]['worst']} "
                f"| {TARGET:.0f} | {REFERENCE.get(game, '')} |"
            )


if __name__ == "__main__":
    main()
