"""Every cheap lower bound of one game at once (:func:`game_bounds`): what ``mastermind table``,
``compare`` and ``results`` show where the optimum is not known, and ``mastermind.game_bounds``;
and every bound level after level of lookahead (:func:`level_bounds`): ``mastermind bounds``.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from mastermind.core.cancel import CancelToken, Stopped, StopReason
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable, Rules
from mastermind.core.rounding import floor_float
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


@dataclass
class LevelBounds:
    """What :func:`level_bounds` proves of one game, level after level of lookahead: every
    bound on the worst case and on the total by name ("crude", "counting", "perfect_tree",
    "lookahead_K", "refined_K"), the total bound by first guess of the deepest level
    finished, and why it stopped (None: every level asked for finished)."""

    rules: Rules
    codes: int
    knuth_first_guess: Code
    knuth_largest_class: int
    levels: int
    refined: bool
    worst: dict[str, int]
    total: dict[str, int]
    by_first_guess: dict[Code, int] = field(default_factory=dict)
    by_first_guess_bound: str | None = None  # the key in ``total`` of the bound it refines
    stopped: StopReason | str | None = None
    seconds: float = 0.0

    @property
    def worst_lower_bound(self) -> int:
        return max(self.worst.values())

    @property
    def total_lower_bound(self) -> int:
        return max(self.total.values())

    @property
    def levels_finished(self) -> int:
        return sum(1 for key in self.total if key.startswith("lookahead_"))

    def status_text(self) -> str:
        return f"bounds so far: worst case >= {self.worst_lower_bound}, total >= {self.total_lower_bound}"

    def to_dict(self) -> dict:
        """The JSON of ``mastermind bounds`` (schemas/bounds.schema.json)."""
        rules, best_total = self.rules, self.total_lower_bound
        return {
            "rules": str(rules),
            "codes": self.codes,
            "answers": len(rules.answers),
            "knuth_first_guess": rules.code_text(self.knuth_first_guess),
            "knuth_largest_class": self.knuth_largest_class,
            "levels": self.levels,
            "refined": self.refined,
            # the bounds asked for all finished (each number is a proven bound either way)
            "proven": self.stopped is None,
            "worst_lower_bound": self.worst_lower_bound,
            "total_lower_bound": best_total,
            "average_lower_bound": floor_float(Fraction(best_total, self.codes)),
            "worst_lower_bounds": self.worst,
            "total_lower_bounds": self.total,
            # (one entry per first guess, as optimal --by-first-guess and the results rows give them)
            "by_first_guess": [
                {"first_guess": rules.code_text(g), "total_lower_bound": v}
                for g, v in self.by_first_guess.items()
            ],
            "by_first_guess_bound": self.by_first_guess_bound,  # a key of total_lower_bounds
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
        }


def check_levels(levels: int, refined: bool) -> None:
    """Refuse a refined bound without a level of lookahead above it."""
    if refined and levels == 0:  # (the bottom class is then the game, at its own branching)
        raise MastermindError("--refined bounds the classes below the lookahead: give --levels 1 or more")


def level_bounds(
    table: CodeTable,
    levels: int = 2,
    refined: bool = False,
    *,
    cancel: CancelToken | None = None,
    advance: Callable[[], None] | None = None,
) -> LevelBounds:
    """The cheap bounds of the game, then those of 1 to ``levels`` levels of lookahead and,
    if ``refined``, the refined bound at ``levels``. A level is kept only once its three
    bounds (worst case, total, total by first guess) are in: stopped by ``cancel``, the
    result has the levels finished and no part of the next, with ``stopped`` its reason.
    ``advance`` is called twice per level (``2 * levels``, plus 2 if ``refined``, in all).

    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.engines.models import level_bounds
    >>> found = level_bounds(CodeTable(Rules(3, 4)), 2)
    >>> found.worst_lower_bound, found.total_lower_bound, found.by_first_guess_bound
    (4, 206, 'lookahead_2')
    """
    from mastermind.engines.models import bounds  # (its names looked up here, at each call)

    check_levels(levels, refined)
    start = time.perf_counter()
    rules, step = table.rules, advance or (lambda: None)
    first, mu = bounds.knuth_first_guess(table)
    found = LevelBounds(
        rules,
        table.n,
        first,
        mu,
        levels,
        refined,
        worst={
            "crude": bounds.crude_worst_bound(rules, mu),
            "counting": bounds.counting_worst_bound(rules, table.n),
        },
        total={"perfect_tree": bounds.perfect_tree_total(rules, table.n)},
    )

    def level(key: str, k: int, refine: bool) -> None:
        level_worst = bounds.lookahead_worst_bound(table, k, refined=refine, cancel=cancel)
        step()
        level_total = bounds.lookahead_total_bound(table, k, refined=refine, cancel=cancel)
        values = (
            bounds.lookahead_totals_by_first_guess(table, k, refined=refine, cancel=cancel) if k else None
        )
        found.worst[key], found.total[key] = level_worst, level_total
        if values is not None:
            found.by_first_guess, found.by_first_guess_bound = dict(values), key
        step()

    with cancel.running(found.status_text) if cancel is not None else contextlib.nullcontext():
        try:
            for k in range(1, levels + 1):
                level(f"lookahead_{k}", k, False)
            if refined:
                level(f"refined_{levels}", levels, True)
        except Stopped:
            found.stopped = (cancel.reason if cancel is not None else None) or StopReason.INTERRUPTED
    found.seconds = time.perf_counter() - start
    return found
