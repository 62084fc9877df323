"""Benchmark of proof files: what writing one adds to the search, how long checking takes,
and how large it is.

    python benchmarks/bench_proofs.py                        # p4c6 and p4c7, median of 3, one job
    python benchmarks/bench_proofs.py --games p4c8 --runs 1
    python benchmarks/bench_proofs.py --code /tmp/base       # another tree's code (before/after)
    python benchmarks/bench_proofs.py --game-value --games p3c4 p4c4 p4c6   # game values' proofs

Per game and run, a process of its own (on the package in ``--code``) finds the optimum with
one job (``solve``, as ``mastermind optimal -r GAME -j 1``) and then writes its proof
(``certify.prove``, as ``--proof`` does), each timed in CPU seconds (user + system of the
process: the machine is shared, wall seconds say little), after a warm-up proof of 3x3 in the
same process (the kernels compiled or loaded, out of the timings); then ``mastermind verify``
checks the file in a process of its own. Columns, each the median of the runs: the search's
CPU seconds, the proof pass's, their ratio (the target: at most 25%), the check's CPU
seconds, the facts and the compressed size. With ``--game-value``, the search is the game
value's column generation (``game_value``, as ``mastermind game-value -r GAME -j 1``) and the
proof its certificate (``game_value_proof``, as ``game-value --proof`` writes it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (run in the measured tree: the library calls ``optimal --proof`` makes, each timed alone)
WRITE = """
import gzip, json, resource, sys
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, solve
from mastermind.engines.exact.certify import prove

def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime

warm = CodeTable(Rules.parse("p3c3"))
prove(warm, solve(warm, execution=Execution(jobs=1)).tree.root, 73)
game, path = sys.argv[1], sys.argv[2]
table = CodeTable(Rules.parse(game))
began = cpu()
try:  # (the search's memo kept for the pass, as ``optimal --proof`` keeps it, where the tree can)
    execution = Execution(jobs=1, keep_memo=True)
except TypeError:
    execution = Execution(jobs=1)
result = solve(table, execution=execution)
searched = cpu()
memo = getattr(result.details, "memo", None)
document = prove(table, result.tree.root, result.total, **({} if memo is None else {"memo": memo}))
proved = cpu()
with gzip.open(path, "wt") as fh:
    json.dump(document, fh, separators=(",", ":"))
print(json.dumps({"search": searched - began, "proof": proved - searched, "facts": len(document["facts"])}))
"""


# (the same for a game value: the column generation, then the proof of its value)
WRITE_GAME_VALUE = """
import gzip, json, resource, sys
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.gamevalue import game_value, game_value_proof

def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime

warm = CodeTable(Rules.parse("p3c3"))
game_value_proof(warm, game_value(warm, jobs=1))
game, path = sys.argv[1], sys.argv[2]
table = CodeTable(Rules.parse(game))
began = cpu()
result = game_value(table, jobs=1)
searched = cpu()
document = game_value_proof(table, result)
proved = cpu()
with gzip.open(path, "wt") as fh:
    json.dump(document, fh, separators=(",", ":"))
print(json.dumps({"search": searched - began, "proof": proved - searched, "facts": len(document["facts"])}))
"""


def run(code: Path, *args: str) -> tuple[str, float]:
    """Standard output of ``python ARGS`` run on the package in ``code``, and its CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(code) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    before = os.times()
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=code)
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"python {' '.join(args[:3])} failed: {done.stderr.strip()[-2000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return done.stdout, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["p4c6", "p4c7"])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--code", type=Path, default=ROOT, help="the source tree whose mastermind runs")
    parser.add_argument(
        "--game-value", action="store_true", help="proofs of game values (game-value --proof)"
    )
    args = parser.parse_args()
    script = WRITE_GAME_VALUE if args.game_value else WRITE
    code = args.code.resolve()
    print(f"code: {code}")
    widths = {"search cpu": 10, "proof cpu": 10, "ratio": 7, "check cpu": 10, "facts": 7, "bytes": 9}
    print(f"{'game':7} " + " ".join(f"{c:>{w}}" for c, w in widths.items()))
    with tempfile.TemporaryDirectory() as folder:
        for game in args.games:
            proof = Path(folder) / f"{game}.proof.json.gz"
            search, pass_, check = [], [], []
            for _ in range(args.runs):
                out, _ = run(code, "-c", script, game, str(proof))
                data = json.loads(out)
                search.append(data["search"])
                pass_.append(data["proof"])
                check.append(run(code, "-m", "mastermind", "verify", str(proof))[1])
            searched, proved = statistics.median(search), statistics.median(pass_)
            print(
                f"{game:7} {searched:10.2f} {proved:10.2f} {100 * proved / searched:6.0f}% "
                f"{statistics.median(check):10.2f} {data['facts']:7} {proof.stat().st_size:9}",
                flush=True,
            )


if __name__ == "__main__":
    main()
