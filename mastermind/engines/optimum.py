"""The optimum as the library and every command search it (:func:`solve_optimum`, which is
``mastermind.solve``): the exact search, with a heuristic strategy played beside it, as its
fallback.

A search stopped early (time limit, Ctrl-C) reports the best strategy it found; on a big game
that may be none at all, since the first guess's subtree must be complete before a strategy
exists. A one-step heuristic plays every secret in a fraction of the search's time, so it runs
in a thread beside the search, and a stopped search without a better strategy of its own
reports the heuristic's tree and total as its upper bound (``found_by`` names it). The
heuristic never delays an answer: if it has not finished when the search stops, it is
stopped and left out.

>>> from mastermind.engines.optimum import Fallback
>>> from mastermind.core.game import CodeTable, Rules
>>> fallback = Fallback(CodeTable(Rules(2, 3)))
>>> fallback.wait(10)
>>> fallback.done()[1].total
21
"""

from __future__ import annotations

import dataclasses
import threading
from typing import TYPE_CHECKING

from mastermind.core.cancel import CancelToken, StopReason
from mastermind.core.game import CodeTable
from mastermind.core.pools import Pool
from mastermind.core.tree import Stats, StrategyTree
from mastermind.engines.result import Objective, Result, Status

if TYPE_CHECKING:
    from mastermind.engines.exact import Execution, Limits, Problem, SearchDetails, Tuning

HEURISTIC = "entropy"  # of the six, the lowest totals on the large games (p5c8: 179863)
MIN_CODES = 4000  # below, the search proves the optimum in seconds (p4c7: 2401 codes, 7 s)
SMALL_GAME_DELAY = 1.0
"""Seconds a small game's fallback waits before it plays (see :func:`fallback_delay`)."""


class Fallback:
    """Plays :data:`HEURISTIC` on every secret in a daemon thread (started at once), after
    ``delay`` seconds unless it is stopped first."""

    def __init__(self, table: CodeTable, heuristic: str = HEURISTIC, delay: float = 0.0) -> None:
        self.table, self.heuristic, self.delay = table, heuristic, delay
        self._found: tuple[StrategyTree, Stats] | None = None
        self._cancel = CancelToken()  # the heuristic's: stopped when the search ends
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._play, name="fallback", daemon=True)
        self._thread.start()

    def _play(self) -> None:
        from mastermind.engines.heuristics import play_all
        from mastermind.engines.registry import make_strategy

        if self.delay > 0 and self._stopped.wait(self.delay):
            return  # (the search ended first: nothing played)
        try:
            tree = play_all(make_strategy(self.heuristic, self.table), cancel=self._cancel)
            self._found = (tree, tree.stats(self.table))
        except Exception:  # stopped, or failed: no fallback, the search's answer stands
            self._found = None

    def wait(self, seconds: float) -> None:
        self._thread.join(seconds)

    def stop(self) -> None:
        """Stop the heuristic at its next guess, if it is still being played."""
        self._stopped.set()
        self._cancel.cancel("the search ended")

    @property
    def running(self) -> bool:
        """Whether the heuristic's thread is still waiting or playing."""
        return self._thread.is_alive()

    def done(self) -> tuple[StrategyTree, Stats] | None:
        """The heuristic's tree and statistics, or None while it is still being played."""
        return None if self._thread.is_alive() else self._found

    def _beats(self, upper) -> tuple[StrategyTree, Stats] | None:
        """The heuristic's tree and statistics when it has finished and its total is below
        ``upper`` (the search's best, None when it has none), else None."""
        found = self.done()
        if found is None or (upper is not None and upper <= found[1].total):
            return None
        return found

    def improve(self, result: Result, *, may_prove: bool = True) -> Result:
        """``result`` with the heuristic's strategy as the best found, when the search was
        stopped without a strategy at least as good and the heuristic has finished. Where
        that strategy meets the lower bound the search proved, stopped by its time limit, it
        is optimal: the result is then proven (`optimal -r p3c3 --time-limit 0.01` said
        "proven no" beside a lower bound and a best found of 73 both). ``may_prove``: False
        where the optimum asked for is more than its total (the least worst case among
        total-optimal strategies: ``--tie-break worst``)."""
        found = None if result.proven else self._beats(result.upper_bound)
        if found is None:
            return result
        tree, stats = found
        total = stats.total
        better = dataclasses.replace(
            result, status=Status.FEASIBLE, value=total, upper_bound=total, tree=tree, stats=stats
        )
        met = result.lower_bound is not None and total <= result.lower_bound
        if met and may_prove and result.stopped == StopReason.TIME_LIMIT:  # (Ctrl-C stays a stop: exit 130)
            return dataclasses.replace(better, status=Status.OPTIMAL, lower_bound=total, stopped=None)
        return dataclasses.replace(better, found_by=self.heuristic)

    def progress(self, bar):
        """``bar`` with the heuristic's total as the best upper bound on its lines, once the
        heuristic has finished and while the search has no better strategy."""
        return _Bounded(bar, self)

    def fill(self, fields: dict) -> dict:
        """Progress fields with the heuristic's total where it beats the search's best."""
        found = self._beats(fields.get("upper_bound"))
        if found is None:
            return fields
        return {**fields, "upper_bound": found[1].total, "found_by": self.heuristic}


class _Bounded:
    """A progress object whose bounds the fallback completes (see :meth:`Fallback.progress`)."""

    def __init__(self, bar, fallback: Fallback) -> None:
        self._bar, self._fallback = bar, fallback

    def start(self, total: int | None, description: str = "") -> None:
        self._bar.start(total, description)

    def advance(self, n: int = 1) -> None:
        self._bar.advance(n)

    def report(self, fields: dict) -> None:
        inner = getattr(self._bar, "report", None)
        if inner is None:
            self._bar.advance(1)
        else:
            inner(self._fallback.fill(fields))

    def finish(self, fields: dict) -> None:
        inner = getattr(self._bar, "finish", None)
        if inner is not None:
            inner(self._fallback.fill(fields))


def wanted(problem: Problem) -> bool:
    """Whether a search for ``problem`` is plain enough for a fallback: the total over every
    secret, unweighted, with every code as a guess and no cap or fixed opening (what a
    heuristic's tree and its total are a strategy and a cost of: weighted, its unweighted
    total was offered as the upper bound, and met a weighted lower bound as "optimal")."""
    return (
        problem.objective is Objective.TOTAL
        and problem.max_guesses is None
        and problem.pool is Pool.ALL
        and problem.first_guess is None
        and problem.weights is None
        and problem.candidates is None
    )


def fallback_delay(table: CodeTable, limited: bool = False) -> float:
    """Seconds the fallback of a search on ``table`` waits before it plays: none for a big
    game, or one ``limited`` in time (`optimal -r p4c6 --time-limit 2` stopped before the
    search's first strategy had no upper bound, where `results` reported a heuristic's);
    :data:`SMALL_GAME_DELAY` for the others, which the search mostly proves sooner (every
    game of fewer than 1300 codes within 0.3 s of one core, but the black-peg ones), so that
    their heuristic is never played; a longer search, stopped by Ctrl-C, still reports a
    strategy (`optimal -r p4c5b` searches for minutes: Ctrl-C said "best found none yet").

    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.engines.optimum import fallback_delay
    >>> fallback_delay(CodeTable(Rules(4, 6))), fallback_delay(CodeTable(Rules(4, 6)), limited=True)
    (1.0, 0.0)
    """
    return 0.0 if table.n >= MIN_CODES or limited else SMALL_GAME_DELAY


def solve_optimum(
    table: CodeTable,
    problem: Problem | None = None,
    *,
    limits: Limits | None = None,
    execution: Execution | None = None,
    tuning: Tuning | None = None,
    cancel: CancelToken | None = None,
    progress=None,
) -> Result[SearchDetails]:
    """An optimal strategy for ``problem`` on the game of ``table``, as
    :func:`mastermind.engines.exact.solve` finds it (the same arguments, the same result),
    with a :class:`Fallback` beside the search where :func:`wanted`: a search stopped early
    reports the heuristic's strategy where it has no better one, and, stopped by its time
    limit with a lower bound the heuristic's total meets, the optimum, proven. Every command
    that searches an optimum (``optimal``, ``export -s optimal``) calls this: the library
    and the commands report the same answer for the same search.

    >>> import mastermind as mm
    >>> table = mm.CodeTable(mm.Rules.parse("p3c3"))
    >>> mm.solve(table).total
    73
    >>> found = mm.solve(table, limits=mm.Limits(time_limit=60))
    >>> found.status, found.total
    (<Status.OPTIMAL: 'optimal'>, 73)
    """
    from mastermind.engines.exact import Problem, solve

    problem = Problem() if problem is None else problem
    # a deadline, asked for here (solve makes it its token's) or on the caller's token already
    limited = (limits is not None and limits.time_limit is not None) or (
        isinstance(cancel, CancelToken) and cancel.deadline is not None
    )
    fallback = Fallback(table, delay=fallback_delay(table, limited)) if wanted(problem) else None
    try:
        result = solve(
            table,
            problem,
            limits=limits,
            execution=execution,
            tuning=tuning,
            cancel=cancel,
            progress=progress if fallback is None or progress is None else fallback.progress(progress),
        )
        if fallback is not None:
            result = fallback.improve(result, may_prove=not problem.tie_break)
    finally:
        if fallback is not None:
            fallback.stop()
    return result
