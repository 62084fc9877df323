"""Every cheap lower bound of one game at once (:func:`game_bounds`): what ``mastermind table``,
``compare`` and ``results`` show where the optimum is not known, and ``mastermind.game_bounds``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.engines.models.bounds import (
    counting_worst_bound,
    crude_worst_bound,
    knuth_first_guess,
    lookahead_total_bound,
    lookahead_worst_bound,
    perfect_tree_total,
)

# lookahead levels used by the reports: level 2 is cheap up to a few thousand codes; the
# refined bottom bound costs about 1 s on p4c6, a fraction of a second up to p4c5
MAX_LOOKAHEAD_CODES = 5000
MAX_REFINED_CODES = 1296
CPSAT_MAX_CODES = 27


@dataclass
class Bounds:
    """Proven lower bounds of one game."""

    crude: int
    counting: int
    worst_lookahead: int
    total: int
    cpsat_worst: int | None = None

    @property
    def worst(self) -> int:
        """Best proven lower bound on the worst case."""
        return max(self.crude, self.counting, self.worst_lookahead, self.cpsat_worst or 0)

    def to_dict(self) -> dict:
        return {
            "crude": self.crude,
            "counting": self.counting,
            "worst_lookahead": self.worst_lookahead,
            "cpsat_worst": self.cpsat_worst,
            "worst": self.worst,
            "total": self.total,
        }


def game_bounds(
    table: CodeTable,
    *,
    cpsat_time: float = 0.0,
    workers: int = 1,
    max_refined: int = MAX_REFINED_CODES,
    cancel: CancelToken | None = None,
) -> Bounds:
    """Every lower bound that is cheap for this game; CP-SAT depth refutation on tiny games.

    The refined two-level bound is used up to ``max_refined`` codes. ``cancel`` stops CP-SAT,
    and then :class:`~mastermind.core.cancel.Stopped` is raised.

    >>> from mastermind.core.game import CodeTable
    >>> from mastermind.engines.models.lower_bounds import game_bounds
    >>> from mastermind.core.game import Rules
    >>> bounds = game_bounds(CodeTable(Rules(3, 4)))
    >>> bounds.worst, bounds.total  # the optimum: worst case 4, total 206
    (4, 206)
    """
    if not isinstance(table, CodeTable):
        raise MastermindError(f"table must be a CodeTable, got {type(table).__name__}")
    rules = table.rules
    _, mu = knuth_first_guess(table)
    levels = 2 if table.n <= MAX_LOOKAHEAD_CODES else 0
    refined = table.n <= max_refined
    total = (
        lookahead_total_bound(table, levels, refined=refined)
        if levels
        else perfect_tree_total(rules, table.n)
    )
    worst_look = (
        lookahead_worst_bound(table, levels, refined=refined)
        if levels
        else counting_worst_bound(rules, table.n)
    )
    bounds = Bounds(
        crude_worst_bound(rules, mu), counting_worst_bound(rules, table.n), worst_look, max(total, 0)
    )
    # a worst case of w gives a total of at most w * n: a total bound is a worst-case bound too
    bounds.worst_lookahead = max(bounds.worst_lookahead, math.ceil(total / table.n))
    if cpsat_time > 0 and table.n <= CPSAT_MAX_CODES:
        from mastermind.engines.models.cpsat_tree import worst_case_lower_bound

        bound, _ = worst_case_lower_bound(
            table, bounds.worst, time_limit=cpsat_time, workers=workers, cancel=cancel
        )
        if cancel is not None:  # cancelled, CP-SAT returns what it has: stop here too
            cancel.check()
        bounds.cpsat_worst = bound
    return bounds
