"""Benchmark of proof files: what writing one adds to the search, how long checking takes,
and how large it is.

    python benchmarks/bench_proofs.py                        # p4c6 and p4c7, median of 3
    python benchmarks/bench_proofs.py --games p4c8 --runs 1 --jobs 1

Per game, ``mastermind optimal -r GAME --no-cache --json`` runs ``--runs`` times without and
with ``--proof`` (each in its own process; the first run of all compiles nothing: the kernels
are compiled by a warm-up run first), and ``mastermind verify PROOF`` as many times. Columns:
the median search seconds (the JSON's ``seconds``) without and with the proof, the median
seconds the proof took (its ``proof.seconds``), the overhead (proof seconds over the search's
median without), the median CPU seconds of the check (user + system of its process: it runs
on one core) and its wall seconds, the facts and the compressed size.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def mastermind(*args: str) -> tuple[subprocess.CompletedProcess, float, float]:
    """The command's result, its wall seconds and its CPU seconds (user + system)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mastermind", *args], capture_output=True, text=True, env=env
    )
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"mastermind {' '.join(args)} failed: {done.stderr.strip()}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return done, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["p4c6", "p4c7"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0, help="--jobs of the searches (0: every core)")
    args = parser.parse_args()
    print(
        f"{'game':7} {'search s':>9} {'w/ proof':>9} {'proof s':>8} {'overhead':>9} "
        f"{'check cpu':>10} {'check s':>8} {'facts':>7} {'bytes':>9}"
    )
    with tempfile.TemporaryDirectory() as folder:
        warm = Path(folder) / "warm.proof.json.gz"  # (compiles the kernels, out of the timings)
        mastermind("optimal", "-r", "p3c3", "--no-cache", "--proof", str(warm), "--json")
        mastermind("verify", str(warm))
        for game in args.games:
            proof = Path(folder) / f"{game}.proof.json.gz"
            jobs = ["-j", str(args.jobs)] if args.jobs else []
            plain, with_proof, proof_seconds, check_cpu, check_wall = [], [], [], [], []
            for _ in range(args.runs):
                done, _, _ = mastermind("optimal", "-r", game, "--no-cache", "--json", *jobs)
                plain.append(json.loads(done.stdout)["seconds"])
                done, _, _ = mastermind(
                    "optimal", "-r", game, "--no-cache", "--json", *jobs, "--proof", str(proof)
                )
                data = json.loads(done.stdout)
                with_proof.append(data["seconds"])
                proof_seconds.append(data["proof"]["seconds"])
                _, wall, cpu = mastermind("verify", str(proof))
                check_cpu.append(cpu)
                check_wall.append(wall)
            base = statistics.median(plain)
            extra = statistics.median(proof_seconds)
            print(
                f"{game:7} {base:9.2f} {statistics.median(with_proof):9.2f} {extra:8.2f} "
                f"{100 * extra / base:8.0f}% {statistics.median(check_cpu):10.2f} "
                f"{statistics.median(check_wall):8.2f} {data['proof']['facts']:7} {proof.stat().st_size:9}"
            )


if __name__ == "__main__":
    main()
