"""One-step heuristics, playing every secret into a strategy tree, and Monte Carlo games.

Strategies are found by name in :mod:`mastermind.engines.registry`; this engine knows classes only.

>>> from mastermind.engines.heuristics.play import play_all
>>> from mastermind.engines.heuristics.strategies import ScoredStrategy
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(3, 3))
>>> stats = play_all(ScoredStrategy("minimax", table)).stats(table)
>>> stats.total, stats.worst
(74, 4)
"""

from __future__ import annotations

from mastermind.engines.heuristics.montecarlo import MonteCarloResult, monte_carlo
from mastermind.engines.heuristics.play import play_all, solve
from mastermind.engines.heuristics.scores import CRITERIA, Scorer, guess_keys, wants_full_table
from mastermind.engines.heuristics.strategies import (
    POOLS,
    TIE_BREAKS,
    RandomStrategy,
    ScoredStrategy,
    SimpleStrategy,
)

__all__ = [
    "CRITERIA",
    "POOLS",
    "TIE_BREAKS",
    "MonteCarloResult",
    "RandomStrategy",
    "ScoredStrategy",
    "Scorer",
    "SimpleStrategy",
    "guess_keys",
    "monte_carlo",
    "play_all",
    "solve",
    "wants_full_table",
]
