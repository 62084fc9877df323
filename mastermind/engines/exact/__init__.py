"""Exact optimal strategies: memoized depth-first branch and bound with symmetry at every level.

>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.exact import Execution, Problem, solve
>>> solve(CodeTable(Rules(2, 3))).total
21
>>> solve(CodeTable(Rules(2, 3)), Problem(objective="worst"), execution=Execution(jobs=2)).worst
3

The names below are loaded on first use (PEP 562): importing a light module of the engine
(:mod:`.memory`, :mod:`.options`, :mod:`.document`) runs this package first, and a command
answered from its result cache or refusing its options must not load the search and numba
(a second of imports) for it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_WHERE = {
    "ExactSolver": "solver",
    "Execution": "options",
    "Limits": "options",
    "Problem": "options",
    "SearchDetails": "details",
    "Tuning": "options",
    "no_strategy_text": "details",
    "solve": "api",
    "solve_by_first_guess": "api",
}

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

if TYPE_CHECKING:
    from mastermind.engines.exact.api import solve, solve_by_first_guess
    from mastermind.engines.exact.details import SearchDetails, no_strategy_text
    from mastermind.engines.exact.options import Execution, Limits, Problem, Tuning
    from mastermind.engines.exact.solver import ExactSolver


def __getattr__(name: str) -> Any:
    """Import the public names on first use (PEP 562); a submodule's name is not one of
    them, so ``from mastermind.engines.exact import memo_file`` imports the module."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
