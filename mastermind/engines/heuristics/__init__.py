"""One-step heuristics, playing every secret into a strategy tree, and Monte Carlo games.

>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(3, 3))
>>> stats = play_all(make_strategy("minimax", table)).stats(table)
>>> stats.total, stats.worst
(74, 4)
"""

from __future__ import annotations

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.engines.heuristics.montecarlo import MonteCarloResult, monte_carlo
from mastermind.engines.heuristics.play import play_all
from mastermind.engines.heuristics.scores import CRITERIA, Scorer, guess_keys
from mastermind.engines.heuristics.strategies import (
    POOLS, TIE_BREAKS, RandomStrategy, ScoredStrategy, SimpleStrategy, check_choice,
)
from mastermind.core.strategy import Strategy, TreeStrategy

STRATEGY_NAMES = ("minimax", "expected-size", "entropy", "most-parts", "simple", "random")
"""The heuristics, in the order reports list them."""

ALL_NAMES = (*STRATEGY_NAMES, "optimal")
"""Every name :func:`make_strategy` accepts."""

__all__ = ["ALL_NAMES", "CRITERIA", "MonteCarloResult", "POOLS", "STRATEGY_NAMES", "Scorer",
           "TIE_BREAKS", "guess_keys", "make_strategy", "monte_carlo", "play_all"]


def make_strategy(name: str, table: CodeTable, *, pool: str = "all", tie_break: str = "default",
                  seed: int | None = None) -> Strategy:
    """The strategy called ``name`` (see :data:`ALL_NAMES`) for the game of ``table``.

    ``pool`` and ``tie_break`` matter to the scored heuristics; ``seed`` to ``random`` and to
    random tie-breaking. ``optimal`` solves the game exactly (minimal total guesses).
    """
    check_choice("strategy", name, ALL_NAMES)
    check_choice("pool", pool, POOLS)
    check_choice("tie-break", tie_break, TIE_BREAKS)
    if name == "simple":
        return SimpleStrategy(table)
    if name == "random":
        return RandomStrategy(table, seed)
    if name == "optimal":
        return _optimal(table, pool)
    return ScoredStrategy(name, table, pool=pool, tie_break=tie_break, seed=seed)


def _optimal(table: CodeTable, pool: str) -> Strategy:
    try:
        from mastermind.engines.exact import solve
    except ImportError as exc:  # the exact solver is optional until it is installed
        raise MastermindError(f"strategy 'optimal' needs the exact solver (mastermind.engines.exact): {exc}") from exc
    result = solve(table) if pool == "all" else solve(table, pool=pool)
    return TreeStrategy(result.tree, table, "optimal")
