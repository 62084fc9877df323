"""Exact optimal strategies: memoized depth-first branch and bound with symmetry at every level.

>>> from mastermind.core.game import CodeTable, Rules
>>> solve(CodeTable(Rules(2, 3))).total
21
"""

from mastermind.engines.exact.solver import ExactSolver, solve, solve_by_first_guess

__all__ = ["ExactSolver", "solve", "solve_by_first_guess"]
