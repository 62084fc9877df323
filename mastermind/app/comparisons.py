"""The data behind ``mastermind table`` and ``mastermind compare``: strategies, bounds, optimum.

The exact solver runs in a child process under a time limit; what it cannot finish is left
as ``None`` and the reports show the best proven bounds in its place.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from mastermind.core.cancel import INTERRUPTED, TIME_LIMIT, CancelToken, Stopped, StopReason
from mastermind.core.fileio import input_name
from mastermind.core.game import DEFAULT_MEMORY_LIMIT, CodeTable, Rules
from mastermind.core.pools import Pool
from mastermind.engines.models import (
    CPSAT_MAX_CODES,
    MAX_REFINED_CODES,
    Bounds,
    game_bounds,
    knuth_first_guess,
)
from mastermind.engines.result import EXACT_SEARCH, Objective
from mastermind.engines.workers import TimedWorker, wait_for

CPSAT_SECONDS = 2.0  # CP-SAT depth refutation of a tiny game's row (within the row's time)
MIN_SECONDS = 0.05  # a piece of work given less time than this is not started


def _submit_exact(
    worker: TimedWorker,
    rules: Rules,
    objective: str,
    time_limit: float | None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    jobs: int = 1,
    pool: str = "all",
) -> bool:
    """Start the exact search of ``objective`` with guesses from ``pool`` in ``worker``'s
    child (see :func:`_optimal_job`), to stop within ``time_limit`` seconds (None: no limit)
    and answer with what it proved; False, and nothing started, when that is less than
    :data:`MIN_SECONDS`. The child has ``memory_limit`` less what this process holds (an
    interpreter, the score table of the strategies it plays meanwhile)."""
    from mastermind.engines.exact import child_memory, parent_bytes

    if time_limit is not None and time_limit < MIN_SECONDS:
        return False
    memory_limit = child_memory(memory_limit, parent_bytes(rules))
    ends_at = None if time_limit is None else time.time() + time_limit
    wait = wait_for(time_limit) + (0.0 if time_limit is None else optimal_grace(time_limit))
    worker.submit(_optimal_job, (rules, memory_limit, ends_at, jobs, pool, objective), wait)
    return True


def _proven(result: dict | None) -> dict | None:
    return result if result is not None and result["proven"] else None


@dataclass
class TableRow:
    rules: Rules
    answers: int
    knuth_first_guess: str
    knuth_largest_class: int
    knuth_worst: int
    knuth_total: int
    bounds: Bounds
    optimal_worst: int | None
    optimal_total: int | None
    seconds: float = 0.0
    searched_worst: int | None = None  # (the least worst case a stopped search proved)

    @property
    def proven(self) -> bool:
        return self.optimal_worst is not None and self.optimal_total is not None

    def to_dict(self) -> dict[str, Any]:
        r = self.rules
        return {
            "rules": str(r),
            "pegs": r.pegs,
            "colours": r.colors,
            "repetition": r.repeat,
            "variant": r.variant.name,  # (as info gives it; the markdown's column)
            "codes": r.n_codes,
            "answers": self.answers,
            "knuth_first_guess": self.knuth_first_guess,
            "knuth_largest_class": self.knuth_largest_class,
            "knuth_worst": self.knuth_worst,
            "knuth_total": self.knuth_total,
            "crude_worst_lower_bound": self.bounds.crude,
            "worst_lower_bound": max(self.bounds.worst, self.optimal_worst or 0, self.searched_worst or 0),
            "total_lower_bound": max(self.bounds.total, self.optimal_total or 0),
            "optimal_worst": self.optimal_worst,
            "optimal_total": self.optimal_total,
            "optimal_average": (
                round(self.optimal_total / r.n_codes, 6) if self.optimal_total is not None else None
            ),
            "proven": self.proven,
            "seconds": round(self.seconds, 3),
        }


def knuth_table_row(
    rules: Rules,
    worker: TimedWorker,
    *,
    token: CancelToken,
    run: CancelToken | None = None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    jobs: int = 1,
    max_refined: int = MAX_REFINED_CODES,
) -> TableRow:
    """One row of the table of Knuth's algorithm, with bounds and (time permitting) the optimum.

    ``token``: the row's, whose deadline is the whole row's (the least total, then the least
    worst case); Knuth's tree stops with ``run`` (the run's time limit, Ctrl-C: Stopped, the
    row unfinished); the bounds stop only for Ctrl-C (the command's token).
    """
    from mastermind.app.interrupts import command_token, unwind_on_interrupt
    from mastermind.engines.registry import make_strategy, player_tree

    start = time.perf_counter()
    table = CodeTable(rules, memory_limit=memory_limit)
    # the exact solver works in the child while the bounds are computed here, until the row's
    # end: stopped there, it answers with the lower bound it proved (killed, it said nothing)
    searching = _submit_exact(worker, rules, "total", token.remaining(), memory_limit, jobs)
    try:
        first, mu = knuth_first_guess(table)
        # (p5c8's took 28 s, past a --time-limit of 5: it stops with the run now)
        knuth = player_tree(make_strategy("minimax", table, cancel=run), "minimax", run).stats(table)
        cpsat = (
            min(CPSAT_SECONDS, token.remaining(1e-3) or CPSAT_SECONDS) if table.n <= CPSAT_MAX_CODES else 0.0
        )
        with unwind_on_interrupt():  # Ctrl-C stopped CP-SAT (which returns): stop here too
            bounds = game_bounds(
                table, cpsat_time=cpsat, workers=max(1, jobs), max_refined=max_refined, cancel=command_token()
            )
    except BaseException:
        worker.close(kill=True)
        raise
    found = worker.result() if searching else None
    total = _proven(found)
    searched = None if found is None or total is not None else found.get("total_lower_bound")
    if searched is not None and searched > bounds.total:  # (the search proved more)
        bounds = replace(bounds, total=searched)
    left = token.remaining()
    # (None: not started, too little time left, or its child did not answer in time)
    searching = _submit_exact(worker, rules, "worst", left, memory_limit, jobs)
    found = cast("dict | None", worker.result()) if searching else None
    worst = _proven(found)
    # (stopped: every smaller worst case it refuted)
    refuted = None if found is None or worst is not None else found.get("worst_lower_bound")
    return TableRow(
        rules,
        len(rules.answers),
        rules.code_text(first),
        mu,
        knuth.worst,
        knuth.total,
        bounds,
        met(None if worst is None else worst["worst"], max(bounds.worst, refuted or 0), knuth.worst),
        met(None if total is None else total["total"], bounds.total, knuth.total),
        time.perf_counter() - start,
        refuted,
    )


def met(exact: int | None, lower: int, strategy: int) -> int | None:
    """The optimum: the exact search's, else a strategy's value where it meets the lower
    bound (Knuth's worst case of 5 on 4x5 against a bound of 5 is the optimal worst case).

    >>> from mastermind.app.comparisons import met
    >>> met(None, 5, 5), met(None, 4, 5), met(5, 4, 5)
    (5, None, 5)
    """
    if exact is not None:
        return exact
    return strategy if strategy == lower else None


@dataclass
class CompareRow:
    name: str
    total: int
    worst: int
    histogram: list[int]
    secrets: int
    optimal_total: int | None
    total_lower_bound: int | None  # None: stopped before the bounds were computed
    first_guess: str | None = None  # (as heuristics gives a strategy's row: its first guess...
    worst_secrets: list[str] = field(default_factory=list)  # ...and the secrets of its worst case)

    @property
    def label(self) -> str:
        """The strategy as tables and plots name it (a file read from ``-``: standard input;
        the JSON keeps the name as given)."""
        return input_name(self.name)

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
            "secrets": self.secrets,
            "average": round(self.average, 6),
            "worst": self.worst,
            "histogram": self.histogram,
            "first_guess": self.first_guess,
            "worst_secrets": self.worst_secrets,
            "gap": self.gap,
            "gap_percent": None if self.gap_percent is None else round(self.gap_percent, 4),
            "gap_to_lower_bound": self.gap_to_bound,
        }


@dataclass
class Comparison:
    rules: Rules
    rows: list[CompareRow]
    optimal: dict | None
    bounds: Bounds | None  # None: stopped before they were computed
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    best_found: dict | None = None  # the optimum not proven: the best strategy found, and by what
    stopped: StopReason | str | None = None  # (time limit, Ctrl-C): the rows are the strategies finished
    unfinished: list[str] = field(default_factory=list)  # the strategies not played

    @property
    def total_upper_bound(self) -> int | None:
        if self.optimal is not None:
            return self.optimal["total"]
        return None if self.best_found is None else self.best_found["total"]

    def to_dict(self) -> dict[str, Any]:
        n = self.rules.n_codes
        opt = self.optimal
        return {
            "rules": str(self.rules),
            "codes": n,
            "proven": opt is not None,
            "optimal": None if opt is None else _strategy_dict(opt, n),
            "best_found": None if self.best_found is None else _strategy_dict(self.best_found, n, found=True),
            "total_lower_bound": None if self.bounds is None else self.bounds.total,
            "total_upper_bound": self.total_upper_bound,
            "worst_lower_bound": None if self.bounds is None else self.bounds.worst,
            "strategies": [r.to_dict() for r in self.rows],
            "unfinished": list(self.unfinished),
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
        }


def _strategy_dict(strategy: dict, codes: int, found: bool = False) -> dict:
    data = {
        "total": strategy["total"],
        "secrets": codes,
        "average": round(strategy["total"] / codes, 6),
        "worst": strategy["worst"],
        "histogram": list(strategy.get("histogram") or []),
    }
    if found:  # the best strategy found (not proven): by the search, or a strategy played
        data["found_by"] = strategy.get("found_by", EXACT_SEARCH)
    return data


OPTIMAL_GRACE = 30.0  # after the exact search's own time limit: its tree built and sent...
GRACE_SHARE = 0.05  # ...at most this share of the time it had, or...
MIN_GRACE = 0.1  # ...this many seconds: with a short limit, the child is often still starting
# (a process, the kernels loaded) when it passes, and waiting for it took 1-2 s past a 1.5 s limit


def optimal_grace(seconds: float) -> float:
    """How long a comparison waits for its exact search after the ``seconds`` it had.

    >>> from mastermind.app.comparisons import optimal_grace
    >>> optimal_grace(1.5), optimal_grace(100.0), optimal_grace(3600.0)
    (0.1, 5.0, 30.0)
    """
    return min(OPTIMAL_GRACE, max(MIN_GRACE, GRACE_SHARE * seconds))


def _optimal_job(
    rules: Rules,
    memory_limit: int,
    ends_at: float | None = None,
    jobs: int = 1,
    pool: str = "all",
    objective: str = "total",
) -> dict:
    """The exact optimum of ``objective`` with guesses from ``pool`` (the strategies compared
    play from the same), or (stopped at ``ends_at``, a ``time.time()``) its proven lower bounds
    (the total's, ``total_lower_bound``, of the objective total only: a search of the least
    worst case bounds the best total within it, no bound of every strategy's; the worst
    case's, every smaller one refuted: ``worst_lower_bound``) and the best strategy found so
    far, if any (as ``optimal`` reports it).

    The end is a moment, not a number of seconds: the child's start (a process, the kernels
    loaded, the score table) came out of the command's time, which overran by as much."""
    from mastermind.engines.exact import Execution, Limits, Problem, solve

    table = CodeTable(rules, memory_limit=memory_limit)
    time_limit = None if ends_at is None else max(ends_at - time.time(), MIN_SECONDS)
    # (the library's choice: work units with a time limit, so that a stopped search reports
    # its bounds and best strategy; a small game without one is one search)
    result = solve(
        table,
        problem=Problem(pool=cast(Pool, pool), objective=Objective(objective)),
        limits=Limits(time_limit=time_limit),
        execution=Execution(jobs=jobs),
    )
    data: dict = {
        "proven": bool(result.proven),
        "total_lower_bound": (
            None if result.lower_bound is None or objective != "total" else int(result.lower_bound)
        ),
        "worst_lower_bound": None if result.details is None else result.details.worst_lower_bound,
    }
    if result.stats is not None:
        data.update(
            total=int(result.stats.total),
            worst=int(result.stats.worst),
            histogram=list(result.stats.histogram),
            found_by=EXACT_SEARCH,
        )
    return data


def best_found(found: dict | None, rows: Sequence[CompareRow]) -> dict | None:
    """The best strategy known when the optimum is not proven: the stopped search's, or the
    best strategy played (with every secret, a strategy that exists), whichever is cheaper;
    ``optimal`` reports the same (its entropy heuristic beside the search).

    >>> from mastermind.app.comparisons import CompareRow, best_found
    >>> row = CompareRow("entropy", 5722, 6, [1, 2], 1296, None, None)
    >>> best_found({"proven": False, "total_lower_bound": 5600}, [row])["found_by"]
    'entropy'
    >>> best_found({"proven": False, "total": 5700, "worst": 6, "found_by": "x"}, [row])["total"]
    5700
    """
    best = found if found is not None and "total" in found else None
    for row in rows:
        if best is None or row.total < best["total"]:
            best = {
                "total": row.total,
                "worst": row.worst,
                "histogram": list(row.histogram),
                "found_by": row.name,
            }
    return best


def compare(
    rules: Rules,
    *,
    strategies: Sequence[str] | None = None,
    pool: str = "all",
    tie_break: str = "default",
    seed: int | None = None,
    time_limit: float | None = None,
    memory_limit: int = DEFAULT_MEMORY_LIMIT,
    jobs: int = 1,
    progress=None,
    max_refined: int = MAX_REFINED_CODES,
) -> Comparison:
    """Every strategy (default: every heuristic) against the optimum (if proven within
    ``time_limit`` seconds, the whole comparison's: in a command, from its start) and the
    lower bounds.

    The refined bound (about 1 s on p4c6) runs while the child searches the optimum.
    """
    from mastermind.app.interrupts import command_work
    from mastermind.engines.exact import MemoryBudget, parent_bytes
    from mastermind.engines.registry import HEURISTIC_NAMES

    start = time.perf_counter()
    # the optimum is the comparison's own headline (searched in the child), not a row
    names = [
        n for n in dict.fromkeys(HEURISTIC_NAMES if strategies is None else strategies) if n != "optimal"
    ]
    table = CodeTable(rules, memory_limit=memory_limit)
    # (the child's search beside this process, refused before any work)
    MemoryBudget.check(rules, memory_limit, jobs, parent=parent_bytes(rules))
    if progress is not None:
        progress.start(len(names) + 2, f"compare {rules}")
    played = _Played(table, names, dict(pool=pool, tie_break=tie_break, seed=seed), progress)
    try:
        with TimedWorker() as worker, command_work(time_limit) as token:
            # the exact optimum is searched in the child while strategies and bounds run here
            # (the game's lower bounds hold in hard mode too: it only forbids strategies)
            searching = _submit_exact(worker, rules, "total", token.remaining(), memory_limit, jobs, pool)
            played.play(token, max_refined)
            played.found = worker.result() if searching else None
            # (its answer is in: ended at once, not after the second its graceful exit takes)
            worker.close(kill=True)
    except KeyboardInterrupt:  # Ctrl-C: the strategies played so far (perhaps none) are the answer
        played.stopped = INTERRUPTED
    if progress is not None:
        progress.advance(1)
    return played.comparison(time.perf_counter() - start)


class _Played:
    """What a comparison has done so far: the strategies played, the bounds, the exact
    search's answer, and why it stopped."""

    def __init__(self, table: CodeTable, names: list[str], options: dict, progress) -> None:
        self.table, self.names, self.options, self.progress = table, names, options, progress
        self.stats: dict = {}
        self.firsts: dict[str, str] = {}
        self.bounds: Bounds | None = None
        self.found: dict | None = None
        self.stopped: StopReason | str | None = None

    def play(self, token: CancelToken, max_refined: int) -> None:
        """Every strategy, then the bounds, until ``token`` is cancelled (Ctrl-C raises
        ``KeyboardInterrupt``)."""
        from mastermind.app.players import tree_of

        rules = self.table.rules
        try:
            with token.running():  # a strategy stops at its next guess: those played are the answer
                for name in self.names:
                    tree = tree_of(name, self.table, **self.options, cancel=token)
                    self.stats[name] = tree.stats(self.table)
                    self.firsts[name] = rules.code_text(tree.root.guess)
                    if self.progress is not None:
                        self.progress.advance(1)
        except Stopped:
            self.stopped = token.reason or INTERRUPTED
        if not token.cancelled:
            with token.running():  # (Ctrl-C: given up at once, the bounds that cost nothing said)
                self.bounds = _bounds_within(self.table, max_refined, token)
        if token.interrupted:
            raise KeyboardInterrupt
        if self.progress is not None:
            self.progress.advance(1)

    def comparison(self, seconds: float) -> Comparison:
        rules, found, bounds = self.table.rules, self.found, self.bounds
        optimal = _proven(found)
        stopped = self.stopped
        if optimal is None and stopped is None:
            stopped = TIME_LIMIT  # (the search stopped at the limit: compare stopped with no marker)
        searched = None if found is None or optimal is not None else found.get("total_lower_bound")
        if bounds is None:  # stopped before the bounds: those that cost nothing, and the search's
            bounds = _search_bounds(self.table, searched)
        elif searched is not None and searched > bounds.total:  # the search proved more
            bounds = replace(bounds, total=searched)
        if optimal is not None:  # proven: the bound is the optimum itself
            bounds = replace(bounds, total=max(bounds.total, optimal["total"]))
        opt_total = None if optimal is None else optimal["total"]
        rows = [
            CompareRow(
                name,
                s.total,
                s.worst,
                list(s.histogram),
                s.secrets,
                opt_total,
                bounds.total,
                self.firsts[name],
                [rules.code_text(c) for c in s.worst_secrets],
            )
            for name, s in self.stats.items()
        ]
        heuristic_rows = [r for r in rows if r.secrets == rules.n_codes]
        return Comparison(
            rules,
            rows,
            optimal,
            bounds,
            seconds,
            best_found=None if optimal is not None else best_found(found, heuristic_rows),
            stopped=stopped,
            unfinished=[n for n in self.names if n not in self.stats],
        )


def _bounds_within(table: CodeTable, max_refined: int, cancel: CancelToken) -> Bounds | None:
    """The game's lower bounds, or None if ``cancel`` is cancelled first (Ctrl-C, or its
    deadline: the time left is the token's).

    They cannot be stopped (4x8: about 1 s), and a comparison past its time limit waited for
    them, as Ctrl-C did (past the second it is given, ending with "interrupted" alone): they
    run in a thread of their own, left to finish unheeded."""
    from mastermind.app.interrupts import unless_cancelled

    return unless_cancelled(lambda: game_bounds(table, max_refined=max_refined), cancel, "lower bounds")


def _search_bounds(table: CodeTable, total: int | None) -> Bounds:
    """The bounds that cost nothing (counting, crude, perfect tree), with the stopped search's
    lower bound on the total where it has one: what a comparison stopped before its bounds
    were computed still proves."""
    from mastermind.engines.models import counting_worst_bound, crude_worst_bound, perfect_tree_total

    rules = table.rules
    _, mu = knuth_first_guess(table)
    least = perfect_tree_total(rules, table.n)
    return Bounds(
        crude_worst_bound(rules, mu), counting_worst_bound(rules, table.n), 0, max(least, total or 0)
    )
