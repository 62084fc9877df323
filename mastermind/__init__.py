"""mastermind: optimal and heuristic strategies for generalized Mastermind.

The everyday library, one import away (each name is loaded on first use, so that
``import mastermind`` stays quick and compiles nothing):

>>> import mastermind as mm
>>> rules = mm.Rules.parse("p3c3")
>>> table = mm.CodeTable(rules)
>>> str(mm.score(rules, rules.parse_code("123"), rules.parse_code("321")))
'1B2W'
>>> mm.STRATEGY_NAMES
('minimax', 'expected-size', 'entropy', 'most-parts', 'simple', 'random', 'optimal')
>>> knuth = mm.strategy_tree("minimax", table)
>>> knuth.stats(table).total, mm.play_all(mm.make_strategy("simple", table)).stats(table).total
(74, 89)
>>> best = mm.solve(table)
>>> best.total, best.tree.stats(table).worst, best.status
(73, 4, <Status.OPTIMAL: 'optimal'>)
>>> mm.solve(table, mm.Problem(max_guesses=2)).status  # an answer, not an error
<Status.NO_STRATEGY: 'no strategy'>
>>> token = mm.CancelToken()
>>> token.cancel()  # (from another thread, or a Ctrl-C handler)
>>> early = mm.solve(table, cancel=token)
>>> early.status, early.stopped, early.lower_bound <= 73
(<Status.UNKNOWN: 'unknown'>, <StopReason.INTERRUPTED: 'interrupted'>, True)
>>> mm.game_bounds(table).total <= 73
True
>>> text = mm.write_tree(best.tree, "irving")
>>> mm.verify_text(text, "irving", rules).stats.total
73
>>> tree, _ = mm.read_tree(mm.write_tree(knuth, "json"), "json")
>>> tree.stats(table) == knuth.stats(table)
True
>>> mm.game_value(mm.CodeTable(mm.Rules(2, 3))).value  # the maker mixes: above 21/9
Fraction(29, 12)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_WHERE = {
    # the model: rules, codes, scoring
    "Rules": "mastermind.core.game",
    "CodeTable": "mastermind.core.game",
    "Feedback": "mastermind.core.game",
    "score": "mastermind.core.game",
    "Variant": "mastermind.core.variant",
    "find_variant": "mastermind.core.variant",
    "MastermindError": "mastermind.core.errors",
    "TableTooLarge": "mastermind.core.errors",
    # stopping long work: a token a caller cancels (Ctrl-C, another thread, a time limit)
    "CancelToken": "mastermind.core.cancel",
    "Stopped": "mastermind.core.cancel",
    "StopReason": "mastermind.core.cancel",
    # strategies and their trees
    "Strategy": "mastermind.core.strategy",
    "TreeStrategy": "mastermind.core.strategy",
    "Node": "mastermind.core.tree",
    "StrategyTree": "mastermind.core.tree",
    "Stats": "mastermind.core.tree",
    # every strategy by name (heuristics and the optimal solver)
    "STRATEGY_NAMES": "mastermind.engines.registry",
    "make_strategy": "mastermind.engines.registry",
    "strategy_tree": "mastermind.engines.registry",
    "play_all": "mastermind.engines.heuristics",
    "monte_carlo": "mastermind.engines.heuristics",
    # optimal play, lower bounds and the game value
    "solve": "mastermind.engines.optimum",
    "solve_by_first_guess": "mastermind.engines.exact",
    "Problem": "mastermind.engines.exact.options",
    "Limits": "mastermind.engines.exact.options",
    "Execution": "mastermind.engines.exact.options",
    "Tuning": "mastermind.engines.exact.options",
    "CheckpointError": "mastermind.engines.exact.checkpoint",
    "Result": "mastermind.engines.result",
    "Status": "mastermind.engines.result",
    "game_bounds": "mastermind.engines.models.lower_bounds",
    "game_value": "mastermind.engines.gamevalue",
    # strategy files: read, write, verify
    "read_tree": "mastermind.core.formats",
    "write_tree": "mastermind.core.formats",
    "verify_text": "mastermind.core.formats",
}
_RENAMED = {"STRATEGY_NAMES": "NAMES", "solve": "solve_optimum"}

__all__ = [
    "CancelToken",
    "CheckpointError",
    "CodeTable",
    "Execution",
    "Feedback",
    "Limits",
    "MastermindError",
    "Node",
    "Problem",
    "Result",
    "Rules",
    "STRATEGY_NAMES",
    "Stats",
    "Status",
    "StopReason",
    "Stopped",
    "Strategy",
    "StrategyTree",
    "TableTooLarge",
    "TreeStrategy",
    "Tuning",
    "Variant",
    "find_variant",
    "game_bounds",
    "game_value",
    "make_strategy",
    "monte_carlo",
    "play_all",
    "read_tree",
    "score",
    "solve",
    "solve_by_first_guess",
    "strategy_tree",
    "verify_text",
    "write_tree",
]

if TYPE_CHECKING:
    from mastermind.core.cancel import CancelToken, Stopped, StopReason
    from mastermind.core.errors import MastermindError, TableTooLarge
    from mastermind.core.formats import read_tree, verify_text, write_tree
    from mastermind.core.game import CodeTable, Feedback, Rules, score
    from mastermind.core.strategy import Strategy, TreeStrategy
    from mastermind.core.tree import Node, Stats, StrategyTree
    from mastermind.core.variant import Variant, find_variant
    from mastermind.engines.exact import solve_by_first_guess
    from mastermind.engines.exact.checkpoint import CheckpointError
    from mastermind.engines.exact.options import Execution, Limits, Problem, Tuning
    from mastermind.engines.gamevalue import game_value
    from mastermind.engines.heuristics import monte_carlo, play_all
    from mastermind.engines.models.lower_bounds import game_bounds
    from mastermind.engines.optimum import solve_optimum as solve
    from mastermind.engines.registry import NAMES as STRATEGY_NAMES
    from mastermind.engines.registry import make_strategy, strategy_tree
    from mastermind.engines.result import Result, Status


def __getattr__(name: str) -> Any:
    """Import the public names on first use (PEP 562)."""
    if name not in _WHERE:
        raise AttributeError(f"module 'mastermind' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), _RENAMED.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
