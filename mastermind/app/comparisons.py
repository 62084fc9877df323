"""The data behind ``mastermind table`` and ``mastermind compare``: heuristics, bounds, optimum.

The exact solver runs in a child process under a time limit; what it cannot finish is left
as ``None`` and the reports show the best proven bounds in its place.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mastermind.core.errors import MastermindError
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, CodeTable, Rules
from mastermind.core.words import quoted
from mastermind.engines.models.bounds import knuth_first_guess
from mastermind.engines.models.lower_bounds import MAX_REFINED_CODES, Bounds, game_bounds
from mastermind.engines.models.timed import TimedWorker


def _exact_job(rules: Rules, objective: str, memory_limit: int) -> dict:
    from mastermind.engines.exact import Problem, solve

    result = solve(CodeTable(rules, memory_limit=memory_limit), Problem(objective=objective))
    return {
        "total": int(result.stats.total),
        "worst": int(result.worst),
        "proven": bool(result.proven),
        "seconds": round(result.seconds, 3),
    }


def exact_with_limit(
    worker: TimedWorker,
    rules: Rules,
    objective: str,
    time_limit: float,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
) -> dict | None:
    """The exact optimum (``total``, ``worst``, ``proven``) or None past ``time_limit`` seconds."""
    return _proven(worker.run(_exact_job, (rules, objective, memory_limit), time_limit))


def _proven(result: dict | None) -> dict | None:
    return result if result is not None and result["proven"] else None


@dataclass
class TableRow:
    rules: Rules
    answers: int
    knuth_first_guess: str
    knuth_max_error: int
    knuth_worst: int
    knuth_total: int
    bounds: Bounds
    optimal_worst: int | None
    optimal_total: int | None
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        r = self.rules
        return {
            "pegs": r.pegs,
            "colors": r.colors,
            "repeat": r.repeat,
            "codes": r.n_codes,
            "answers": self.answers,
            "knuth_first_guess": self.knuth_first_guess,
            "knuth_max_error": self.knuth_max_error,
            "knuth_worst": self.knuth_worst,
            "knuth_total": self.knuth_total,
            "crude_lower_bound": self.bounds.crude,
            "worst_lower_bound": self.bounds.worst,
            "optimal_worst": self.optimal_worst,
            "optimal_total": self.optimal_total,
            "optimal_average": (
                round(self.optimal_total / r.n_codes, 6) if self.optimal_total is not None else None
            ),
            "total_lower_bound": self.bounds.total,
            "seconds": round(self.seconds, 3),
        }


def knuth_table_row(
    rules: Rules,
    worker: TimedWorker,
    *,
    time_limit: float,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    cpsat_time: float = 2.0,
    workers: int = 1,
    max_refined: int = MAX_REFINED_CODES,
) -> TableRow:
    """One row of the table of Knuth's algorithm, with bounds and (time permitting) the optimum.

    ``time_limit`` applies to each of the two exact runs (least total, least worst case).
    """
    from mastermind.app.interrupts import command_token, unwind_on_interrupt
    from mastermind.engines.registry import strategy_tree

    start = time.perf_counter()
    table = CodeTable(rules, memory_limit=memory_limit)
    # the exact solver works in the child while the bounds are computed here
    worker.submit(_exact_job, (rules, "total", memory_limit), time_limit)
    try:
        first, mu = knuth_first_guess(table)
        knuth = strategy_tree("minimax", table).stats(table)
        with unwind_on_interrupt():  # Ctrl-C stopped CP-SAT (which returns): stop here too
            bounds = game_bounds(
                table, cpsat_time=cpsat_time, workers=workers, max_refined=max_refined, cancel=command_token()
            )
    except BaseException:
        worker.close(kill=True)
        raise
    total = _proven(worker.result())
    worst = exact_with_limit(worker, rules, "worst", time_limit, memory_limit)
    return TableRow(
        rules,
        len(rules.answers),
        rules.code_text(first),
        mu,
        knuth.worst,
        knuth.total,
        bounds,
        None if worst is None else worst["worst"],
        None if total is None else total["total"],
        time.perf_counter() - start,
    )


def parse_range(text: str, what: str, low: int, high: int) -> list[int]:
    """``2-4``, ``3`` or ``2,4,6`` as a list of ints within ``low..high``.

    >>> parse_range("2-4", "pegs", 1, 20), parse_range("2,5", "colors", 1, 35)
    ([2, 3, 4], [2, 5])
    """

    def number(digits: str) -> int:
        # int() also reads "1_0", "+2" and other scripts' digits ("٢"): only ASCII digits here
        digits = digits.strip()
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(digits)
        return int(digits)

    values: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            a, dash, b = part.partition("-")
            lo, hi = number(a), number(b) if dash else number(a)  # ("2-" has no end: refused)
            if lo > hi:
                raise ValueError
        except ValueError:
            raise MastermindError(
                f"cannot read {what} {quoted(text)}: use a number, a range like 2-4, or a list like 2,4,6"
            ) from None
        for end in (lo, hi):  # before the range is made: 1-1000000000 is refused, not listed
            if not low <= end <= high:
                raise MastermindError(f"{what} {end} (in {quoted(part)}) out of range {low}..{high}")
        values.extend(range(lo, hi + 1))
    return sorted(set(values))


@dataclass
class CompareRow:
    name: str
    total: int
    worst: int
    histogram: list[int]
    secrets: int
    optimal_total: int | None
    total_lower_bound: int | None  # None: stopped before the bounds were computed

    @property
    def average(self) -> float:
        return self.total / self.secrets

    @property
    def gap(self) -> int | None:
        return None if self.optimal_total is None else self.total - self.optimal_total

    @property
    def gap_percent(self) -> float | None:
        if self.optimal_total is None:
            return None
        return 100.0 * (self.total - self.optimal_total) / self.optimal_total

    @property
    def gap_to_bound(self) -> int | None:
        return None if self.total_lower_bound is None else self.total - self.total_lower_bound

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.name,
            "total": self.total,
            "average": round(self.average, 6),
            "worst": self.worst,
            "histogram": self.histogram,
            "gap": self.gap,
            "gap_percent": None if self.gap_percent is None else round(self.gap_percent, 4),
            "gap_to_lower_bound": self.gap_to_bound,
        }


@dataclass
class Comparison:
    rules: Rules
    rows: list[CompareRow]
    optimal: dict | None
    bounds: Bounds | None  # None: stopped (Ctrl-C) before they were computed
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    best_found: dict | None = None  # the exact search stopped by its time limit: its best strategy
    stopped: str | None = None  # "interrupted": the rows are the strategies finished

    def to_dict(self) -> dict[str, Any]:
        opt = self.optimal
        return {
            "rules": str(self.rules),
            "codes": self.rules.n_codes,
            "optimal": None
            if opt is None
            else {
                "total": opt["total"],
                "average": round(opt["total"] / self.rules.n_codes, 6),
                "worst": opt["worst"],
                "histogram": opt.get("histogram"),
                "proven": opt["proven"],
            },
            "lower_bounds": None
            if self.bounds is None
            else {"total": self.bounds.total, "worst": self.bounds.worst},
            **({"best_found": _found_dict(self.best_found)} if self.best_found else {}),
            "strategies": [r.to_dict() for r in self.rows],
            "seconds": round(self.seconds, 3),
            **({"stopped": self.stopped} if self.stopped else {}),
        }


def _found_dict(found: dict) -> dict:
    return {key: found[key] for key in ("total", "worst", "histogram")} | {"proven": False}


OPTIMAL_GRACE = 30.0  # after the exact search's own time limit: its tree built and sent


def _optimal_job(rules: Rules, memory_limit: int, time_limit: float | None = None) -> dict:
    """The exact optimum, or (stopped after ``time_limit`` seconds) its proven lower bound and
    the best strategy found so far, if any."""
    from mastermind.engines.exact import Limits, solve

    result = solve(CodeTable(rules, memory_limit=memory_limit), limits=Limits(time_limit=time_limit))
    data: dict = {
        "proven": bool(result.proven),
        "lower_bound": None if result.lower_bound is None else int(result.lower_bound),
    }
    if result.stats is not None:
        data.update(
            total=int(result.stats.total),
            worst=int(result.stats.worst),
            histogram=list(result.stats.histogram),
        )
    return data


def compare(
    rules: Rules,
    *,
    strategies: Sequence[str] | None = None,
    time_limit: float = 300.0,
    seed: int = 0,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    progress=None,
    max_refined: int = MAX_REFINED_CODES,
) -> Comparison:
    """Every heuristic against the optimum (if found within ``time_limit``) and the lower bounds.

    The refined bound (about 1 s on p4c6) runs while the child searches the optimum.
    """
    from mastermind.engines.registry import HEURISTIC_NAMES, check_names, strategy_tree

    start = time.perf_counter()
    names = list(HEURISTIC_NAMES if strategies is None else strategies)
    check_names(names)
    table = CodeTable(rules, memory_limit=memory_limit)
    if progress is not None:
        progress.start(len(names) + 2, f"compare {rules}")
    stats = {}
    bounds: Bounds | None = None
    found, stopped = None, None
    try:
        with TimedWorker() as worker:
            # the exact optimum is searched in the child while heuristics and bounds run here
            worker.submit(_optimal_job, (rules, memory_limit, time_limit), time_limit + OPTIMAL_GRACE)
            for name in names:
                stats[name] = strategy_tree(name, table, seed=seed).stats(table)
                if progress is not None:
                    progress.advance(1)
            bounds = game_bounds(table, max_refined=max_refined)
            if progress is not None:
                progress.advance(1)
            found = worker.result()
    except KeyboardInterrupt:
        if not stats:
            raise  # nothing finished: the command line says "interrupted"
        stopped = "interrupted"  # Ctrl-C: the heuristics played so far are the answer
    if progress is not None:
        progress.advance(1)
    optimal = _proven(found)
    best_found = None
    if found is not None and optimal is None:
        if bounds is not None and (found["lower_bound"] or 0) > bounds.total:  # the search proved more
            bounds = replace(bounds, total=found["lower_bound"])
        best_found = found if "total" in found else None
    opt_total = None if optimal is None else optimal["total"]
    low = None if bounds is None else bounds.total
    rows = [
        CompareRow(name, s.total, s.worst, list(s.histogram), s.secrets, opt_total, low)
        for name, s in stats.items()
    ]
    seconds = time.perf_counter() - start
    return Comparison(rules, rows, optimal, bounds, seconds, best_found=best_found, stopped=stopped)
