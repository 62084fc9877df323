"""Optimal strategies, proven: the public face of the exact search.

>>> from mastermind.core.game import CodeTable, Rules
>>> result = solve(CodeTable(Rules(3, 3)))
>>> result.total, result.worst, result.proven
(73, 4, True)
>>> solve(CodeTable(Rules(3, 3)), objective="worst").worst
4
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from mastermind.core import cancel
from mastermind.core.errors import MastermindError, NoStrategy
from mastermind.core.game import Code, CodeTable
from mastermind.core.progress import Progress
from mastermind.core.symmetry import canonical_codes, full_group, stabilizer_group
from mastermind.core.tree import Stats, StrategyTree
from mastermind.core.words import plural
from mastermind.engines.exact.search import DEFAULT_MEMO_BYTES, INF, UNLIMITED, Search
from mastermind.engines.result import Counters, Result

OBJECTIVES = ("total", "worst")
POOLS = ("all", "consistent")


class SearchInterrupted(KeyboardInterrupt):
    """A search stopped by Ctrl-C where no partial answer was asked for."""


class ExactSolver:
    """The set-up shared by several searches on one game (weights, group, memo)."""

    def __init__(
        self,
        table: CodeTable,
        *,
        pool: str = "all",
        weights: Sequence[float] | np.ndarray | None = None,
        candidates: Sequence[int] | np.ndarray | None = None,
    ) -> None:
        if table.scores is None:
            raise MastermindError(f"the exact solver needs the full score table of {table.rules}")
        if pool not in POOLS:
            raise MastermindError(f"pool must be one of {', '.join(POOLS)}, got {pool!r}")
        self.table, self.rules, self.pool = table, table.rules, pool
        n = table.n
        if candidates is None:
            cands = table.all_codes.copy()
        else:
            cands = np.unique(np.asarray(candidates, dtype=np.int64))
            if len(cands) == 0:
                raise MastermindError("candidates is empty: give at least one secret")
            if cands[0] < 0 or cands[-1] >= n:
                raise MastermindError(f"candidates must be code indices 0..{n - 1}")
            cands = cands.astype(np.int32)
        self.original_weights = None
        scale: int | float = 1
        uniform = True
        if weights is not None:
            w = np.asarray(weights)
            if w.shape != (n,):
                raise MastermindError(f"weights must have one entry per code ({n}), got shape {w.shape}")
            if w.dtype.kind not in "iuf" or not np.all(np.isfinite(w)) or np.any(w < 0):
                raise MastermindError("weights must be finite non-negative numbers")
            self.original_weights = w
            sub = w[cands]
            uniform = bool(np.all(sub == sub[0]))
            if uniform:
                scale = sub[0].item()
            else:
                w = w.astype(np.int64) if w.dtype.kind in "iu" else w.astype(np.float64)
        self.uniform = uniform
        self.scale = scale
        if uniform:
            search_weights = np.ones(n, dtype=np.int64)
        else:
            search_weights = w
            # heaviest first (ties by index) so that the bound kernels see classes in order
            cands = cands[np.lexsort((cands, -search_weights[cands]))]
        self.cands = cands
        self.search_weights = search_weights
        if candidates is None and uniform:
            self.group = full_group(self.rules)
        else:
            values = np.full(n, -1.0)
            values[cands] = search_weights[cands]
            self.group = stabilizer_group(self.rules, table.codes, values)
        self._searches: dict[tuple, Search] = {}
        self._stop: np.ndarray | None = None

    def search(self, unit: int = 1, penalty: int = 0, stop: np.ndarray | None = None) -> Search:
        """The search of this cost unit and penalty, with the memo of earlier runs (and,
        given ``stop``, that stop flag from now on)."""
        key = (unit, penalty)
        if key not in self._searches:
            self._searches[key] = self.new_search(unit, penalty)
        search = self._searches[key]
        if stop is not None:
            self._stop = stop
        if self._stop is not None and search.stop is not self._stop:
            search.stop = self._stop
            search.state = search.state._replace(stop=self._stop)
        return search

    def new_search(
        self, unit: int = 1, penalty: int = 0, stop: np.ndarray | None = None, memory: int | None = None
    ) -> Search:
        """A search with an empty memo of its own (one per thread); ``stop``: its stop flag;
        ``memory``: the memo's budget in bytes (the default's when None)."""
        return Search(
            self.table,
            self.search_weights,
            self.group,
            unit=unit,
            penalty=penalty,
            consistent=self.pool == "consistent",
            max_set=len(self.cands),
            stop=stop,
            memory=DEFAULT_MEMO_BYTES if memory is None else memory,
        )

    def fork(self) -> ExactSolver:
        """This solver with searches of its own, for another thread."""
        other = copy.copy(self)
        other._searches = {}
        return other

    def first_guesses(self) -> list[Code]:
        """The first guesses worth comparing: canonical under the game's symmetries."""
        canon = canonical_codes(self.table.codes, *self.group)
        if self.pool == "consistent":
            canon = np.intersect1d(canon, self.cands)
        return [int(g) for g in canon]

    def run(
        self,
        *,
        objective: str = "total",
        max_guesses: int | None = None,
        first_guess: Code | None = None,
        tie_break: bool = False,
        progress: Progress | None = None,
        stop: np.ndarray | None = None,
    ) -> Result:
        """The optimum in this thread (the compiled search from the root). ``stop``: a flag
        that ends the search early; the result is then not proven (or, without a flag of the
        caller's, :class:`SearchInterrupted` is raised)."""
        self._check(objective, max_guesses, first_guess, tie_break)
        start = time.perf_counter()
        limit = UNLIMITED if max_guesses is None else max_guesses
        only = None if first_guess is None else [first_guess]
        flag = cancel.new_flag() if stop is None else stop
        search = self.search(stop=flag)
        cands = self.cands
        if progress is not None:
            progress.start(
                None, "optimal: worst cases tried" if objective == "worst" else "optimal: searching"
            )
        with cancel.running(flag):
            if objective == "worst":
                depth = search._levels_needed(len(cands))
                value = INF
                while depth <= min(limit, len(cands)) and not search.stopped:
                    value = search.solve(cands, depth, INF, only=only)
                    if progress is not None:
                        progress.advance(1)
                    if value < INF:
                        break
                    depth += 1
                limit = depth
            else:
                value = search.solve(cands, limit, INF, only=only)
                if progress is not None:
                    progress.advance(1)
            if search.stopped:
                if stop is None:
                    raise SearchInterrupted()
                counters = Counters(search.nodes, search.memo_hits)
                result = self.unproven(
                    value if objective == "total" else None,  # (the worst case's: below)
                    None,
                    objective=objective,
                    max_guesses=max_guesses,
                    counters=counters,
                    start=start,
                    reason="stopped",
                )
                if objective == "worst":  # every smaller worst case was refuted
                    result.worst_lower_bound = int(depth)
                result.opening = first_guess
                return result
            if value == INF:  # only under --max-guesses: without it every game has a strategy
                within = "any number of guesses" if max_guesses is None else plural(max_guesses, "guess")
                raise NoStrategy(
                    f"no strategy solves every secret of {self.rules} within {within}"
                    + ("" if first_guess is None else f" starting with {self.rules.code_text(first_guess)}")
                )
            root_guess = search.root_guess if only is not None else None
            nodes, hits = search.nodes, search.memo_hits
            tree_search = search
            try:
                if tie_break:
                    tree_search, limit, root_guess = self._tie_break(search, value, limit, only, root_guess)
                    nodes += tree_search.nodes
                    hits += tree_search.memo_hits
                root = tree_search.build(cands, limit, guess=root_guess)
            except cancel.Stopped:
                pass  # answered just below
            if search.stopped or tree_search.stopped:  # stopped while the tree was built
                if stop is None:
                    raise SearchInterrupted()
                result = self.unproven(
                    value if objective == "total" else None,
                    None,
                    objective=objective,
                    max_guesses=max_guesses,
                    counters=Counters(nodes, hits),
                    start=start,
                    reason="stopped",
                )
                result.opening = first_guess
                return result
        result = self.result(
            root, objective=objective, max_guesses=max_guesses, counters=Counters(nodes, hits), start=start
        )
        if self.uniform and not tie_break and value * self.scale != result.total and not result.weighted:
            raise AssertionError(f"search value {value} but the tree gives {result.total}")
        return result

    def _check(self, objective, max_guesses, first_guess, tie_break) -> None:
        if objective not in OBJECTIVES:
            raise MastermindError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
        if max_guesses is not None and max_guesses < 1:
            raise MastermindError(f"max guesses must be at least 1, got {max_guesses}")
        if first_guess is not None:
            self.rules.check_code(first_guess)
            if self.pool == "consistent" and first_guess not in set(self.cands.tolist()):
                raise MastermindError(
                    f"first guess {self.rules.code_text(first_guess)} is not a candidate, "
                    f"which --pool consistent does not allow"
                )
        if tie_break and not self.uniform:
            raise MastermindError("tie-break works without weights only")

    def _measure(self, root):
        """``(tree, stats, total, weight_sum, fraction)`` of a strategy replayed against every
        secret: what is reported is read off the tree, not taken from the search."""
        tree = StrategyTree(self.rules, root, name="optimal")
        cands = np.sort(self.cands)
        depths = tree.depths(self.table, cands)
        stats = Stats.from_depths(depths)
        if self.original_weights is not None:
            w = self.original_weights[cands]
            total = (w * depths).sum().item()
            weight_sum = w.sum().item()
            if w.dtype.kind in "iu":
                fraction = Fraction(int(total), int(weight_sum)) if weight_sum else None
            else:
                exact_total = sum(
                    (Fraction(x) * int(d) for x, d in zip(w.tolist(), depths.tolist())), Fraction(0)
                )
                exact_sum = sum((Fraction(x) for x in w.tolist()), Fraction(0))
                fraction = exact_total / exact_sum if exact_sum else None
        else:
            total, weight_sum = stats.total, stats.secrets
            fraction = Fraction(total, weight_sum)
        return tree, stats, total, weight_sum, fraction

    def result(
        self,
        root,
        *,
        objective: str,
        max_guesses: int | None,
        counters: Counters | None = None,
        start: float,
    ) -> Result:
        """The proven result of a search that found the optimal strategy tree ``root``."""
        return self._result(
            root, None, objective=objective, max_guesses=max_guesses, counters=counters, start=start
        )

    def unproven(
        self,
        lower,
        root,
        *,
        objective: str,
        max_guesses: int | None,
        counters: Counters,
        start: float,
        reason: str,
    ) -> Result:
        """The result of a stopped search: a lower bound on the optimum (in the units of the
        total) and the best strategy found so far, if any."""
        return self._result(
            root,
            _scaled(lower, self.scale),
            objective=objective,
            max_guesses=max_guesses,
            counters=counters,
            start=start,
            reason=reason,
        )

    def _result(
        self,
        root,
        lower,
        *,
        objective: str,
        max_guesses: int | None,
        counters: Counters | None,
        start: float,
        reason: str | None = None,
    ) -> Result:
        """Proven (no ``reason`` to stop) or not: the strategy ``root`` measured, the bounds."""
        if root is None:
            tree, stats, total, fraction = None, None, None, None
            weight_sum = len(self.cands)
            if self.original_weights is not None:
                weight_sum = self.original_weights[self.cands].sum().item()
        else:
            tree, stats, total, weight_sum, fraction = self._measure(root)
            lower = total if reason is None else min(lower, total)
        return Result(
            rules=self.rules,
            objective=objective,
            value=total,
            proven=reason is None,
            lower_bound=lower,
            upper_bound=total,
            tree=tree,
            stats=stats,
            counters=Counters() if counters is None else counters,
            seconds=time.perf_counter() - start,
            weight_sum=weight_sum,
            fraction=fraction,
            max_guesses=max_guesses,
            pool=self.pool,
            weighted=self.original_weights is not None,
            stopped=reason,
        )

    def _tie_break(self, search: Search, value, limit: int, only, root_guess):
        """Among optimal strategies: the smallest worst case, then the fewest secrets at it."""
        cands = self.cands
        probe = search.build(cands, limit, guess=root_guess)
        worst = max_depth(probe)
        depth = search._levels_needed(len(cands))
        while depth < worst:
            if search.solve(cands, depth, value + 1, only=only) == value:
                break
            depth += 1
        unit = len(cands) + 1  # one guess more always outweighs every secret at the worst case
        fine = self.search(unit=unit, penalty=1)
        fine.solve(cands, depth, INF, only=only)
        return fine, depth, (fine.root_guess if only is not None else None)


def max_depth(node, depth: int = 1) -> int:
    return max([depth, *(max_depth(c, depth + 1) for c in node.children.values())])


def _scaled(value, scale):
    if value is None or value in (INF, -INF):
        return value
    value = value * scale
    return int(value) if isinstance(value, float) and value.is_integer() else value


def solve(
    table: CodeTable,
    *,
    objective: str = "total",
    max_guesses: int | None = None,
    pool: str = "all",
    first_guess: Code | None = None,
    weights=None,
    candidates=None,
    tie_break: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
    backend: str = "threads",
    scheduler: str | None = None,
    checkpoint: str | None = None,
    time_limit: float | None = None,
    anytime: bool = False,
    stop: np.ndarray | None = None,
    split_size: int = 400,
    split_depth: int = 2,
    spread_size: int = 3000,
) -> Result:
    """An optimal strategy for the game (or for ``candidates`` with ``weights``).

    ``objective``: "total" (sum over secrets of weight x guesses) or "worst" (fewest guesses
    in the worst case, then the best total). ``max_guesses`` caps the worst case; ``pool``
    "consistent" only guesses codes still possible; ``first_guess`` fixes the opening;
    ``tie_break`` prefers, among optimal strategies, the smaller worst case and then fewer
    secrets at it.

    Work units (plain total): ``jobs`` workers (0 or -1: every core) of ``backend``
    ("threads", "processes" or "dask"; ``scheduler``: the address of a running Dask
    cluster); ``checkpoint``: a folder keeping every finished unit, reused by the next run.
    ``time_limit`` (seconds) or Ctrl-C stop the search: with ``anytime`` (implied by a time
    limit) the result then says what is proven (``proven`` False, ``lower_bound``, the best
    strategy found); without, Ctrl-C raises :class:`SearchInterrupted`. ``stop``: a flag of
    the caller's (see :mod:`mastermind.core.cancel`) that, once set, stops the search the same way.
    """
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise MastermindError(f"time limit must be a positive number of seconds, got {time_limit}")
    from mastermind.engines.exact.backends import check_backend

    check_backend(backend)
    solver = ExactSolver(table, pool=pool, weights=weights, candidates=candidates)
    anytime = anytime or time_limit is not None or stop is not None
    units = (
        jobs != 1
        or progress is not None
        or checkpoint is not None
        or time_limit is not None
        or backend != "threads"
        or scheduler is not None
    )
    with cancel.deadline_flag(time_limit, stop) as (flag, timer):
        if units and objective == "total" and not tie_break and first_guess is None:
            return _solve_units(
                solver,
                max_guesses=max_guesses,
                jobs=jobs,
                progress=progress,
                backend=backend,
                scheduler=scheduler,
                checkpoint=checkpoint,
                flag=flag,
                deadline=timer,
                anytime=anytime,
                split_size=split_size,
                split_depth=split_depth,
                spread_size=spread_size,
            )
        result = solver.run(
            objective=objective,
            max_guesses=max_guesses,
            first_guess=first_guess,
            tie_break=tie_break,
            progress=progress,
            stop=flag if anytime else None,
        )
        if not result.proven:
            result.stopped = (
                "time limit" if timer is not None and time.monotonic() >= timer else "interrupted"
            )
        return result


def _solve_units(
    solver: ExactSolver,
    *,
    max_guesses,
    jobs,
    progress,
    backend,
    scheduler,
    checkpoint,
    flag,
    deadline,
    anytime,
    split_size,
    split_depth,
    spread_size,
) -> Result:
    """The plain-total optimum as work units over a backend (see :mod:`.parallel`)."""
    from mastermind.engines.exact.backends import make_backend, worker_count
    from mastermind.engines.exact.parallel import Driver

    r = UNLIMITED if max_guesses is None else max_guesses
    store = None
    if checkpoint is not None:
        from mastermind.engines.exact.checkpoint import Checkpoint

        store = Checkpoint(
            checkpoint,
            {
                "rules": str(solver.rules),
                "pool": solver.pool,
                "objective": "total",
                "max_guesses": max_guesses,
                "problem": _problem_key(solver),
            },
        )
    pool = None
    checkpoint_seconds = None
    try:
        began = time.perf_counter()
        pool = make_backend(backend, worker_count(jobs), scheduler)
        pool.warm(str(solver.rules))
        from mastermind.engines.exact.warmup import load_kernels

        load_kernels()  # the driver's own, and the units' where threads run them
        start = time.perf_counter()  # the search's clock: the workers' start-up is timed apart
        if store is not None:
            store.restart_clock()
        startup = None if pool.shares_memory else start - began  # threads share this process
        driver = Driver(
            solver,
            pool,
            progress=progress,
            checkpoint=store,
            stop=flag,
            deadline=deadline,
            split_size=split_size,
            split_depth=split_depth,
            spread_size=spread_size,
        )
        answer = driver.run(solver.cands, r, INF, solver.group)
    finally:
        if pool is not None:
            pool.close(kill=bool(flag[0]))
        if store is not None:
            checkpoint_seconds = store.close()
    counters = driver.counters
    if not answer.proven:
        if not anytime:
            raise SearchInterrupted()
        result = solver.unproven(
            answer.value,
            answer.node,
            objective="total",
            max_guesses=max_guesses,
            counters=counters,
            start=start,
            reason=driver.reason or "interrupted",
        )
        result.startup_seconds = startup
        result.checkpoint_seconds = checkpoint_seconds
        return result
    if answer.node is None:
        raise NoStrategy(
            f"no strategy solves every secret of {solver.rules} within {plural(max_guesses, 'guess')}"
        )
    result = solver.result(
        answer.node, objective="total", max_guesses=max_guesses, counters=counters, start=start
    )
    if solver.uniform and answer.value * solver.scale != result.total and not result.weighted:
        raise AssertionError(f"search value {answer.value} but the tree gives {result.total}")
    result.startup_seconds = startup
    result.checkpoint_seconds = checkpoint_seconds
    return result


def _problem_key(solver: ExactSolver) -> str:
    from mastermind.engines.exact.units import Problem

    return Problem(
        str(solver.rules),
        solver.pool == "consistent",
        1,
        0,
        len(solver.cands),
        None if solver.uniform else solver.search_weights,
    ).key


def solve_by_first_guess(
    table: CodeTable,
    *,
    objective: str = "total",
    max_guesses: int | None = None,
    pool: str = "all",
    weights=None,
    candidates=None,
    tie_break: bool = False,
    jobs: int = 1,
    progress: Progress | None = None,
    first_guesses: Sequence[Code] | None = None,
    time_limit: float | None = None,
    anytime: bool = False,
) -> list[Result]:
    """The optimum for each canonical first guess (or the given ones), best first guesses
    not favoured: every result is exact. First guesses that cannot finish within
    ``max_guesses`` are left out. ``jobs`` > 1: one thread per first guess (joblib).

    ``time_limit`` (seconds) or Ctrl-C stop the searches: with ``anytime`` (implied by a time
    limit) the first guesses not finished are then results not proven, with their lower
    bounds; without, Ctrl-C raises :class:`SearchInterrupted`."""
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise MastermindError(f"time limit must be a positive number of seconds, got {time_limit}")
    solver = ExactSolver(table, pool=pool, weights=weights, candidates=candidates)
    firsts = solver.first_guesses() if first_guesses is None else list(first_guesses)
    if progress is not None:
        progress.start(len(firsts), "optimal: first guesses")

    def one(guess):
        try:
            result = solver.fork().run(
                objective=objective,
                max_guesses=max_guesses,
                first_guess=guess,
                tie_break=tie_break,
                stop=flag,
            )
        except NoStrategy:
            result = None
        if progress is not None:
            progress.advance(1)
        return result

    with cancel.deadline_flag(time_limit) as (flag, deadline), cancel.running(flag):
        if jobs is not None and jobs != 1 and len(firsts) > 1:
            from joblib import Parallel, delayed

            from mastermind.engines.exact.backends import worker_count

            results = Parallel(n_jobs=worker_count(jobs), backend="threading")(
                delayed(one)(g) for g in firsts
            )
        else:
            results = [one(g) for g in firsts]
    found = [r for r in results if r is not None]
    if flag[0] or any(not r.proven for r in found):
        if not (anytime or time_limit is not None):
            raise SearchInterrupted()
        for r in found:
            if not r.proven:
                r.stopped = cancel.reason(deadline)
    return found
