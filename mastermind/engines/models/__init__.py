"""Lower bounds and OR-Tools models: proven limits on what any strategy can achieve.

The names below are the engine's public face, the only names the app uses; each is loaded on
first use (PEP 562), so that a command refusing its options loads neither numba nor OR-Tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mastermind.core.lazy import lazy_names

_WHERE = {
    "knuth_first_guess": "bounds",
    "crude_worst_bound": "bounds",
    "counting_worst_bound": "bounds",
    "perfect_tree_total": "bounds",
    "lookahead_total_bound": "bounds",
    "lookahead_worst_bound": "bounds",
    "lookahead_totals_by_first_guess": "bounds",
    "Bounds": "lower_bounds",
    "game_bounds": "lower_bounds",
    "LevelBounds": "lower_bounds",
    "level_bounds": "lower_bounds",
    "check_levels": "lower_bounds",
    "CPSAT_MAX_CODES": "lower_bounds",
    "MAX_LOOKAHEAD_CODES": "lower_bounds",
    "MAX_REFINED_CODES": "lower_bounds",
    "ModelRun": "result",
    "stopped_result": "result",
    "model_size": "cpsat_tree",
    "deepest_model": "cpsat_tree",
    "check_model_size": "cpsat_tree",
    "solve_tree": "cpsat_tree",
    "DepthPlan": "cpsat_game",
    "TreeModelAnswer": "cpsat_game",
    "plan_depth": "cpsat_game",
    "solve_cpsat": "cpsat_game",
    "counting_static_bound": "static",
    "solve_static": "static",
    "static_answer": "static",
    "static_document": "static",
}

__all__ = [
    "Bounds",
    "CPSAT_MAX_CODES",
    "DepthPlan",
    "LevelBounds",
    "MAX_LOOKAHEAD_CODES",
    "MAX_REFINED_CODES",
    "ModelRun",
    "TreeModelAnswer",
    "check_levels",
    "check_model_size",
    "counting_static_bound",
    "counting_worst_bound",
    "crude_worst_bound",
    "deepest_model",
    "game_bounds",
    "knuth_first_guess",
    "level_bounds",
    "lookahead_total_bound",
    "lookahead_totals_by_first_guess",
    "lookahead_worst_bound",
    "model_size",
    "perfect_tree_total",
    "plan_depth",
    "solve_cpsat",
    "solve_static",
    "static_answer",
    "static_document",
    "solve_tree",
    "stopped_result",
]

if TYPE_CHECKING:
    from mastermind.engines.models.bounds import (
        counting_worst_bound,
        crude_worst_bound,
        knuth_first_guess,
        lookahead_total_bound,
        lookahead_totals_by_first_guess,
        lookahead_worst_bound,
        perfect_tree_total,
    )
    from mastermind.engines.models.cpsat_game import DepthPlan, TreeModelAnswer, plan_depth, solve_cpsat
    from mastermind.engines.models.cpsat_tree import check_model_size, deepest_model, model_size, solve_tree
    from mastermind.engines.models.lower_bounds import (
        CPSAT_MAX_CODES,
        MAX_LOOKAHEAD_CODES,
        MAX_REFINED_CODES,
        Bounds,
        LevelBounds,
        check_levels,
        game_bounds,
        level_bounds,
    )
    from mastermind.engines.models.result import ModelRun, stopped_result
    from mastermind.engines.models.static import (
        counting_static_bound,
        solve_static,
        static_answer,
        static_document,
    )

__getattr__, __dir__ = lazy_names(__name__, _WHERE)
