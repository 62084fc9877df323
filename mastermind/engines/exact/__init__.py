"""Exact optimal strategies: memoized depth-first branch and bound with symmetry at every level.

>>> from mastermind.core.game import CodeTable, Rules
>>> solve(CodeTable(Rules(2, 3))).total
21
>>> solve(CodeTable(Rules(2, 3)), Problem(objective="worst"), execution=Execution(jobs=2)).worst
3
"""

from mastermind.engines.exact.api import solve, solve_by_first_guess
from mastermind.engines.exact.details import SearchDetails, no_strategy_text
from mastermind.engines.exact.options import Execution, Limits, Problem, Tuning
from mastermind.engines.exact.solver import ExactSolver

__all__ = [
    "ExactSolver",
    "Execution",
    "Limits",
    "Problem",
    "SearchDetails",
    "Tuning",
    "no_strategy_text",
    "solve",
    "solve_by_first_guess",
]
