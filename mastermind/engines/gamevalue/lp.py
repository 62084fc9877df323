"""The breaker's linear program over a set of strategy trees, solved by OR-Tools GLOP.

Trees are columns, the maker's classes are rows: ``costs[t][k]`` is the total number of
guesses tree ``t`` spends on the codes of class ``k``. The breaker mixes trees (each played
under a uniformly random symmetry, which spreads its cost evenly within a class) to minimise
``v`` subject to ``sum_t q_t costs[t][k] <= v * sizes[k]`` for every class. The dual prices of
those rows are the maker's probabilities per code.

>>> from mastermind.engines.gamevalue.lp import solve_breaker_lp
>>> sol = solve_breaker_lp([[3, 1], [1, 3]], [1, 1])
>>> round(sol.value, 9), [round(x, 9) for x in sol.breaker], [round(x, 9) for x in sol.maker]
(2.0, [0.5, 0.5], [0.5, 0.5])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mastermind.core.errors import MastermindError


@dataclass(frozen=True)
class LPSolution:
    value: float  # the breaker's guarantee: expected guesses, at most this for every secret
    breaker: list[float]  # probability of each tree
    maker: list[float]  # probability of each single code of each class (sum of size * p is 1)


def solve_breaker_lp(costs: Sequence[Sequence[int]], sizes: Sequence[int]) -> LPSolution:
    """Solve the restricted breaker LP with GLOP; both players' mixes come back normalised."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("GLOP")
    if solver is None:  # pragma: no cover - ortools always ships GLOP
        raise MastermindError("OR-Tools GLOP is not available")
    n_trees, n_classes = len(costs), len(sizes)
    q = [solver.NumVar(0.0, solver.infinity(), f"q{t}") for t in range(n_trees)]
    v = solver.NumVar(-solver.infinity(), solver.infinity(), "v")
    rows = []
    for k in range(n_classes):
        row = solver.Constraint(-solver.infinity(), 0.0, f"class{k}")
        for t in range(n_trees):
            row.SetCoefficient(q[t], float(costs[t][k]) / float(sizes[k]))
        row.SetCoefficient(v, -1.0)
        rows.append(row)
    mix = solver.Constraint(1.0, 1.0, "mix")
    for var in q:
        mix.SetCoefficient(var, 1.0)
    solver.Minimize(v)
    status = solver.Solve()
    if status != pywraplp.Solver.OPTIMAL:  # pragma: no cover - the LP is always feasible
        raise MastermindError(f"GLOP could not solve the breaker LP (status {status})")
    breaker = [max(0.0, var.solution_value()) for var in q]
    s = sum(breaker)
    breaker = [x / s for x in breaker]
    # dual of class row k is the maker's probability of class k (up to GLOP's sign convention)
    prices = [abs(row.dual_value()) for row in rows]
    s = sum(prices)
    maker = [p / s / sizes[k] for k, p in enumerate(prices)]
    return LPSolution(v.solution_value(), breaker, maker)
