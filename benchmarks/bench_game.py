"""Score table build times per game and variant (the numba kernel; the pure-Python reference
in mastermind.core.variant is for tests, far too slow to time here).

python benchmarks/bench_game.py
"""

import argparse
import time

from mastermind.core.game import CodeTable, Rules


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0]).parse_args()
    t = time.perf_counter()
    CodeTable(Rules(2, 2))
    print(f"first table (numba load/compile): {time.perf_counter() - t:.3f} s")
    print(f"{'rules':8} {'codes':>6} {'table s':>9}")
    for text in ["p4c6", "p4c6n", "p4c8n", "p4c10n", "p5c8n", "p5c8", "p5c8b"]:
        rules = Rules.parse(text)
        fast = best_of(lambda: CodeTable(rules))
        print(f"{text:8} {rules.n_codes:6} {fast:9.4f}")


if __name__ == "__main__":
    main()
