"""Whole processes of this checkout against a reference checkout, timed in turns.

    python benchmarks/bench_turns.py --reference ../wt-bc              # optimal 4x6, 5 turns
    python benchmarks/bench_turns.py --reference ../wt-bc --runs 7 -- optimal -r p4c7 -j 1 --no-cache --json

On a machine shared with other work a timing drifts with the load, so the two checkouts run
in turns (reference, this one, reference, ...), each ``python -m mastermind ARGS`` a fresh
process with its own checkout first on ``PYTHONPATH`` (each its own numba cache, warmed by one
unmeasured run first). Each row gives the median and the range of the wall time and of the
processor time (user + system of the child), and, when the command prints JSON, the search's
own ``seconds`` and ``nodes`` (and work units run) as it reports them. The ratio is this
checkout's median over the reference's: processor time is the steadier of the two on a busy
machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ARGS = ["optimal", "-r", "p4c6", "--no-cache", "--json"]


def one_run(checkout: str, args: list[str], python: str) -> dict:
    """One whole process: wall and processor seconds, and what its JSON says of the search."""
    env = {**os.environ, "PYTHONPATH": checkout}
    before = os.times()
    t0 = time.perf_counter()
    done = subprocess.run(
        [python, "-m", "mastermind", *args], cwd=checkout, env=env, capture_output=True, text=True
    )
    wall = time.perf_counter() - t0
    after = os.times()
    if done.returncode not in (0, 1):
        raise SystemExit(f"{checkout}: exit {done.returncode}\n{done.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    row: dict = {"wall": wall, "cpu": cpu}
    try:
        data = json.loads(done.stdout)
    except ValueError:
        return row
    units = data.get("units")
    row.update(
        seconds=data.get("seconds"),
        nodes=data.get("nodes"),
        units=units.get("run") if isinstance(units, dict) else units,
    )
    return row


def summary(label: str, rows: list[dict]) -> str:
    def spread(key: str) -> str:
        values = [r[key] for r in rows]
        return f"{statistics.median(values):6.2f} ({min(values):.2f}-{max(values):.2f})"

    line = f"{label:10s} wall {spread('wall')}  cpu {spread('cpu')}"
    if all(r.get("seconds") is not None for r in rows):
        nodes = sorted({r["nodes"] for r in rows})
        units = sorted({r["units"] for r in rows if r["units"] is not None})
        line += f"  search {spread('seconds')} s, nodes {nodes}" + (f", units {units}" if units else "")
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="the other checkout (a git worktree)")
    parser.add_argument("--checkout", default=ROOT, help="the checkout measured (default: this one)")
    parser.add_argument("--runs", type=int, default=5, help="turns (default 5)")
    parser.add_argument("--python", default=sys.executable)
    default = " ".join(DEFAULT_ARGS)
    parser.add_argument("args", nargs="*", help=f"the command's arguments (default: {default})")
    opts = parser.parse_args()
    args = opts.args or DEFAULT_ARGS
    checkouts = {"reference": os.path.abspath(opts.reference), "this": os.path.abspath(opts.checkout)}
    print(f"mastermind {' '.join(args)}: {opts.runs} turns")
    for path in checkouts.values():
        one_run(path, args, opts.python)  # (warm: numba's cache, the file system's)
    rows: dict[str, list[dict]] = {label: [] for label in checkouts}
    for _ in range(opts.runs):
        for label, path in checkouts.items():
            rows[label].append(one_run(path, args, opts.python))
    for label, path in checkouts.items():
        print(summary(label, rows[label]) + f"  [{path}]")
    for key in ("wall", "cpu"):
        ratio = statistics.median(r[key] for r in rows["this"]) / statistics.median(
            r[key] for r in rows["reference"]
        )
        print(f"this / reference, {key}: {ratio:.3f}")


if __name__ == "__main__":
    main()
