"""Game value (column generation with exact best replies): wall and CPU seconds, best replies.

    python benchmarks/bench_gamevalue.py [REPEATS]

Median of REPEATS runs (default 3) per game, one thread and every core; the CPU column is
what a busy shared machine cannot inflate. p4c6 (5600/1290) is the case issue 17 asks to
prove within 30 s.
"""

import argparse
import statistics
import time

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.gamevalue import game_value

GAMES = ["p3c6", "p4c5", "p5c4", "p4c6"]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("repeats", type=int, nargs="?", default=3, help="runs per game and job count")
    repeats = parser.parse_args().repeats
    game_value(CodeTable(Rules(2, 3)))  # numba compile and cache loading outside the timings
    print(f"{'game':6} {'jobs':>4} {'value':>10} {'replies':>7} {'wall s':>7} {'cpu s':>7}")
    for text in GAMES:
        table = CodeTable(Rules.parse(text))
        for jobs in (1, -1):
            walls, cpus = [], []
            for _ in range(repeats):
                wall, cpu = time.perf_counter(), time.process_time()
                result = game_value(table, jobs=jobs)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            v = result.value
            print(
                f"{text:6} {'all' if jobs < 0 else jobs:>4} {f'{v.numerator}/{v.denominator}':>10} "
                f"{result.details.iterations:7} {statistics.median(walls):7.2f} "
                f"{statistics.median(cpus):7.2f}"
            )


if __name__ == "__main__":
    main()
