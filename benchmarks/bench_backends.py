"""Benchmark of the exact search's backends and of resuming from a checkpoint.

    python benchmarks/bench_backends.py                     # p4c7 and p4c8, every backend
    python benchmarks/bench_backends.py --games p4c7 --runs 3
    python benchmarks/bench_backends.py --games p4c7 --configs 2 dask --resume ''   # some backends

For each game: 1 job (threads), 2 threads, 2 loky processes, Dask LocalCluster with 2 workers;
seconds (median of ``--runs``) and the ratio against the 1-job run. Each run is its own
``python -m mastermind optimal ... --json`` process (start-up and numba loading excluded:
"seconds" is the solve as the tool reports it; starting the backend's workers (a Dask
cluster, loky processes: kernels loaded, table built) is ``startup_seconds``, reported apart).
Then the resume: p4c8 on 2 threads with a checkpoint, killed (SIGKILL) at about half the fresh
time, run again; the resumed run's seconds against the fresh run.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
CONFIGS = [
    ("1 job", ["-j", "1"]),
    ("2 threads", ["-j", "2"]),
    ("2 processes", ["-j", "2", "--backend", "processes"]),
    ("dask, 2 workers", ["-j", "2", "--backend", "dask"]),
]


def optimal(game: str, *extra: str) -> tuple[dict, float]:
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "mastermind", "optimal", "-r", game, "--json", "--no-cache", *extra],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out), time.perf_counter() - start


def bench_game(game: str, runs: int, configs: list[str]) -> dict[str, float]:
    seconds: dict[str, float] = {}
    for name, extra in CONFIGS:
        if name != "1 job" and configs and not any(name.startswith(c) for c in configs):
            continue
        times, walls, startups, total = [], [], [], None
        for _ in range(runs):
            data, wall = optimal(game, *extra)
            total = data["total"]
            times.append(data["seconds"])
            startups.append(data.get("startup_seconds", 0.0))
            walls.append(wall)
        seconds[name] = statistics.median(times)
        ratio = seconds[name] / seconds["1 job"]
        print(
            f"{game:6} {name:16} total {total:6}  {seconds[name]:8.2f} s  ratio {ratio:5.2f}  "
            f"(workers' start-up {statistics.median(startups):.1f} s, "
            f"process wall {statistics.median(walls):.1f} s)",
            flush=True,
        )
    if "2 threads" in seconds and "dask, 2 workers" in seconds:
        threads, dask = seconds["2 threads"], seconds["dask, 2 workers"]
        print(f"{game:6} dask overhead over threads: {100 * (dask / threads - 1):+.1f} %", flush=True)
    return seconds


def bench_resume(game: str, fresh: float) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = str(Path(scratch) / "checkpoint")
        args = [
            sys.executable,
            "-m",
            "mastermind",
            "optimal",
            "-r",
            game,
            "-j",
            "2",
            "--json",
            "--checkpoint",
            folder,
            "--progress",
            "json",
        ]
        # progress lines go to a file: an undrained pipe would fill up and block the search
        log = Path(scratch) / "progress.jsonl"
        with open(log, "w") as stderr:
            proc = subprocess.Popen(args, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=stderr)
        while 'work units"' not in log.read_text():  # the search has started: the clock starts
            time.sleep(0.05)
        time.sleep(fresh / 2)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data, _ = optimal(game, "-j", "2", "--checkpoint", folder)
        print(
            f"{game:6} resumed after a kill at {fresh / 2:.0f} s: total {data['total']}, "
            f"{data['seconds']:.2f} s = {100 * data['seconds'] / fresh:.0f} % of fresh, "
            f"{data['units']['reused']} of {data['units']['done']} units reused",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["p4c7", "p4c8"])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument(
        "--configs", nargs="*", default=[], help="only these (by first word: 2, dask); the 1-job run always"
    )
    parser.add_argument("--resume", default="p4c8", help="game for the kill-and-resume run ('' to skip)")
    args = parser.parse_args()
    optimal("p3c3")  # numba cache warm
    fresh = {}
    for game in args.games:
        fresh[game] = bench_game(game, args.runs, args.configs).get("2 threads", 0.0)
    if args.resume:
        seconds = fresh.get(args.resume) or optimal(args.resume, "-j", "2")[0]["seconds"]
        bench_resume(args.resume, seconds)


if __name__ == "__main__":
    main()
