"""Lower bounds and CP-SAT models: wall times, and what seeding the tree model buys.

    python benchmarks/bench_models.py

The baseline of each CP-SAT row is the same model without the lookahead bound as an
objective bound (same run, same workers).
"""

import argparse
import time

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.models.bounds import lookahead_total_bound, lookahead_worst_bound
from mastermind.engines.models.cpsat_tree import solve_tree
from mastermind.engines.models.static import solve_static


def timed(fn):
    t = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t


def main() -> None:
    argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0]).parse_args()
    p4c6 = CodeTable(Rules(4, 6))
    lookahead_total_bound(CodeTable(Rules(2, 3)), 2)  # numba compile outside the timings
    print("bounds on p4c6")
    for label, fn in [
        ("total, 1 level", lambda: lookahead_total_bound(p4c6, 1)),
        ("total, 2 levels", lambda: lookahead_total_bound(p4c6, 2)),
        ("total, 2 levels refined", lambda: lookahead_total_bound(p4c6, 2, refined=True)),
        ("worst, 2 levels", lambda: lookahead_worst_bound(p4c6, 2)),
    ]:
        value, secs = timed(fn)
        print(f"  {label:26} {value:6}  {secs:7.2f} s")

    print("CP-SAT strategy tree, optimal total within the optimal worst case (1 worker)")
    print(f"  {'game':6} {'depth':>5} {'total':>6} {'seeded s':>9} {'plain s':>9} {'ratio':>6}")
    for rules, depth in [(Rules(2, 3), 4), (Rules(3, 2), 4), (Rules(2, 4), 4), (Rules(4, 2), 4)]:
        table = CodeTable(rules)
        bound = lookahead_total_bound(table, 2)
        seeded, s1 = timed(lambda: solve_tree(table, depth, lower_bound=bound, time_limit=120))
        plain, s2 = timed(lambda: solve_tree(table, depth, time_limit=120))
        assert seeded.value == plain.value
        print(f"  {str(rules):6} {depth:5} {seeded.value:6} {s1:9.2f} {s2:9.2f} {s2 / s1:6.1f}")

    print("static Mastermind, 2 pegs (1 worker)")
    for colors in range(2, 8):
        res, secs = timed(lambda: solve_static(CodeTable(Rules(2, colors)), workers=1, time_limit=60))
        print(f"  p2c{colors}  {res.value} guesses + final  proven={res.proven}  {secs:6.2f} s")


if __name__ == "__main__":
    main()
