"""One game set up for the exact search: weights, symmetry group, searches; the search from the
root in this thread; and the result a strategy tree gives.

:func:`mastermind.engines.exact.solve` makes one :class:`ExactSolver` per call; the work units
of the rounds (:mod:`mastermind.engines.exact.anytime`) and the strategy search share its set-up.

>>> from mastermind.engines.exact.solver import ExactSolver
>>> from mastermind.core.cancel import CancelToken
>>> from mastermind.core.game import CodeTable, Rules
>>> result = ExactSolver(CodeTable(Rules(3, 3))).run(CancelToken())
>>> result.total, result.worst, result.proven
(73, 4, True)
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.pools import Pool
from mastermind.core.progress import Progress
from mastermind.core.symmetry import canonical_codes, full_group, stabilizer_group
from mastermind.core.tree import Node, Stats, StrategyTree
from mastermind.engines.exact import memo_file
from mastermind.engines.exact.details import SearchDetails
from mastermind.engines.exact.options import Problem
from mastermind.engines.exact.search import DEFAULT_MEMO_BYTES, INF, UNLIMITED, Search
from mastermind.engines.result import Counters, Number, Objective, Result, Status

PROBE_SHARE = 0.5
"""The share of a time-limited depth search that its probes from above may take (see
:meth:`ExactSolver.least_depth`); what a stopped probe settled is kept for the rest."""

PROBE_SECONDS = 20.0
"""The most the probes from above take: a strategy is found in a few thousand nodes (5x8: 7
guesses in 1.4 s), so a probe still unanswered by then is refuting its depth, a question
the search from below comes to after the shallower depths, which it refutes at once (5x8:
5 guesses in 0.1 s; a run stopped then has a lower bound to give)."""


@dataclass(frozen=True)
class LeastDepth:
    """What :meth:`ExactSolver.least_depth` found: the least depth (not refuted), a strategy
    of that depth (None: none within the cap, or stopped first), the search's counters, and
    the shallowest strategy found with its depth (the least depth's once proven; None: none
    found within the cap, or stopped first)."""

    depth: int
    tree: Node | None
    counters: Counters
    shallowest: Node | None = None
    upper: int | None = None
    searched_seconds: float | None = None
    """How long every run on its memo file searched, this one included (None: no file, or
    one whose earlier runs were not timed)."""


NOT_PROVEN = "best found, not proven optimal"
"""The name of the tree of a search stopped before its proof (a proven one's is "optimal")."""


class ExactSolver:
    """The set-up shared by several searches on one game (weights, group, memo) for one
    :class:`~mastermind.engines.exact.options.Problem`, checked here (weights, candidates,
    first guess)."""

    def __init__(
        self, table: CodeTable, problem: Problem | None = None, *, memory: int | None = None
    ) -> None:
        problem = Problem() if problem is None else problem
        self.memory = memory  # bytes for the memo of each search it makes (None: the default)
        if table.scores is None:
            raise MastermindError(f"the exact solver needs the full score table of {table.rules}")
        self.table, self.rules, self.problem = table, table.rules, problem
        self.pool = problem.pool
        n = table.n
        if problem.candidates is None:
            cands = table.all_codes.copy()
        else:
            cands = np.unique(np.asarray(problem.candidates, dtype=np.int64))
            if len(cands) == 0:
                raise MastermindError("candidates is empty: give at least one secret")
            if cands[0] < 0 or cands[-1] >= n:
                raise MastermindError(f"candidates must be code indices 0..{n - 1}")
            cands = cands.astype(np.int32)
        self.original_weights: np.ndarray | None = None
        scale: int | float = 1
        uniform = True
        if problem.weights is not None:
            w = np.asarray(problem.weights)
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
        if problem.candidates is None and uniform:
            self.group = full_group(self.rules)
        else:
            values = np.full(n, -1.0)
            values[cands] = search_weights[cands]
            self.group = stabilizer_group(self.rules, table.codes, values)
        if problem.first_guess is not None:
            self.check_first_guess(problem.first_guess)
        if problem.tie_break and not self.uniform:
            raise MastermindError("tie-break works without weights only")
        self._searches: dict[tuple[int, int], Search] = {}
        self._stop: np.ndarray | None = None

    def check_first_guess(self, guess: Code) -> None:
        """Refuse a first guess that is no code of the game, or no candidate under pool
        "consistent"."""
        self.rules.check_code(guess)
        if self.pool is Pool.CONSISTENT and guess not in set(self.cands.tolist()):
            raise MastermindError(
                f"first guess {self.rules.code_text(guess)} is not a candidate, "
                f"which the consistent pool does not allow"
            )

    # ---- searches ------------------------------------------------------------------------
    def search(self, guess_cost: int = 1, penalty: int = 0, cancel: CancelToken | None = None) -> Search:
        """The search with these costs (each guess costs ``guess_cost`` per unit of weight,
        ``penalty`` more at the last level), with the memo of earlier runs; given ``cancel``,
        it (and every search of this solver) polls that token from now on."""
        key = (guess_cost, penalty)
        if key not in self._searches:
            self._searches[key] = self.new_search(guess_cost, penalty)
        search = self._searches[key]
        if cancel is not None:
            self._stop = cancel.flag
        if self._stop is not None and search.stop is not self._stop:
            search.stop = self._stop
            search.state = search.state._replace(stop=self._stop)
        return search

    def drop_searches(self) -> None:
        """Forget the searches made so far, and their memos (their work handed on: the memory
        back for what takes over)."""
        self._searches.clear()

    def new_search(
        self,
        guess_cost: int = 1,
        penalty: int = 0,
        cancel: CancelToken | None = None,
        *,
        memory: int | None = None,
        memo: object | None = None,
    ) -> Search:
        """A search polling ``cancel``, with an empty memo of its own (one per thread) of at
        most ``memory`` bytes, or the shared ``memo``."""
        return Search(
            self.table,
            self.search_weights,
            self.group,
            unit=guess_cost,
            penalty=penalty,
            consistent=self.pool is Pool.CONSISTENT,
            max_set=len(self.cands),
            stop=None if cancel is None else cancel.flag,
            memory=memory or self.memory or DEFAULT_MEMO_BYTES,
            memo=memo,
        )

    def fork(self) -> ExactSolver:
        """This solver with searches of its own, for another thread."""
        other = copy.copy(self)
        other._searches = {}
        return other

    def first_guesses(self) -> list[Code]:
        """The first guesses worth comparing: canonical under the game's symmetries."""
        canon = canonical_codes(self.table.codes, *self.group)
        if self.pool is Pool.CONSISTENT:
            canon = np.intersect1d(canon, self.cands)
        return [int(g) for g in canon]

    # ---- the search from the root, in this thread ------------------------------------------
    def run(
        self, cancel: CancelToken, progress: Progress | None = None, first_guess: Code | None = None
    ) -> Result[SearchDetails]:
        """The optimum in this thread (the compiled search from the root), with the problem's
        first guess or ``first_guess``. Once ``cancel`` is cancelled the search stops and the
        result says what is proven."""
        problem = self.problem
        first_guess = problem.first_guess if first_guess is None else first_guess
        worst = problem.objective is Objective.WORST
        start = time.perf_counter()
        limit = UNLIMITED if problem.max_guesses is None else problem.max_guesses
        only = None if first_guess is None else [first_guess]
        search = self.search(cancel=cancel)
        cands = self.cands
        if progress is not None:
            progress.start(None, "optimal: worst cases tried" if worst else "optimal: searching")
        root: Node | None = None
        shallow: Node | None = None  # (worst) a strategy of the least depth
        shallowest: Node | None = None  # (worst) the shallowest strategy found (stopped: the answer)
        depth = 0
        counters_first = Counters()
        with cancel.running():
            if worst:
                # the depth first, by a search that only asks whether a strategy exists;
                # then the best total within it (one search, not one per depth tried)
                # (its strategy is the answer if the best total within the depth is not reached)
                least = self.least_depth(cancel, only, limit, progress)
                depth, shallow, counters_first = least.depth, least.tree, least.counters
                shallowest = least.shallowest
                value = search.solve(cands, depth, INF, only=only) if shallow is not None else INF
                limit = depth
            else:
                value = search.solve(cands, limit, INF, only=only)
                if progress is not None:
                    progress.advance(1)
            refuted = search.stopped  # stopped while searching (else: while building the tree)
            counters = Counters(search.nodes, search.memo_hits) + counters_first
            if not search.stopped and value < INF:
                root_guess = search.root_guess if only is not None else None
                tree_search = search
                try:
                    if problem.tie_break:
                        tree_search, limit, root_guess = self._tie_break(
                            search, value, limit, only, root_guess
                        )
                        counters = counters + Counters(tree_search.nodes, tree_search.memo_hits)
                    root = tree_search.build(cands, limit, guess=root_guess)
                except Stopped:
                    pass  # (a search the tree needed was stopped: answered just below)
                if search.stopped or tree_search.stopped:
                    root = None
        if refuted or (root is None and value < INF):  # stopped while searching, or building the tree
            if not worst:  # (stopped at once, the search's value is below its root's own floor)
                floor = self._root_floor(search, cands, limit)
                value = max(value, floor) if floor < INF else value
            return self.result(
                shallow if shallow is not None else shallowest,
                # (worst: the best total within the depth, once the depth is proven)
                lower=value if not worst or shallow is not None else None,
                counters=counters,
                start=start,
                stopped=cancel.reason,
                opening=first_guess,
                # every smaller worst case was refuted (the least depth is proven once
                # a strategy of it is known)
                worst_lower_bound=int(depth) if worst and (refuted or shallow is not None) else None,
            )
        if root is None:  # only under max_guesses: without it every game has a strategy
            return self.result(None, counters=counters, start=start, opening=first_guess)
        return self.checked(self.result(root, counters=counters, start=start), value)

    @staticmethod
    def _root_floor(search: Search, cands: np.ndarray, limit: int) -> float:
        """The least bound of every guess at the root before any search, as the search plans
        them: what a search stopped at its start has proven, with any first guess (one
        stopped before it weighed them said 1249 for a first guess of 4x5b, where every
        strategy needs 3371). Over every guess, a fixed opening's too: planned alone, a
        guess's bound takes its own classes for the most any guess makes, which is not a
        bound (4x6 opening 1111: 7832, where 6318 is its optimum)."""
        plan = search.plan(cands, limit, INF)
        found = [*plan.bounds, plan.rest_min] + ([plan.exact_value] if plan.exact_guess >= 0 else [])
        return float(min(found))

    def with_memo(self, result: Result[SearchDetails], memo: object) -> Result[SearchDetails]:
        """``result`` carrying ``memo``, the memo of the total's search that proved it, where
        the proof pass asks that search's questions: the plain total of every code with no
        weights, cap, pool, tie-break or opening (the pass's own total search, see
        :class:`~mastermind.engines.exact.certify.Certifier`), so that it reads what the
        search proved rather than proving it again."""
        problem = self.problem
        fits = (
            problem.plain
            and problem.max_guesses is None
            and problem.candidates is None
            and self.original_weights is None
            and self.pool is Pool.ALL
        )
        if not fits or memo is None or result.details is None or not result.proven:
            return result
        return replace(result, details=replace(result.details, memo=memo))

    def fits(self, depth: int, cancel: CancelToken) -> tuple[bool | None, Counters]:
        """Whether a strategy (with the problem's first guess) solves every candidate within
        ``depth`` guesses (None: stopped first), and the search's counters. Asked of a search
        where guesses cost nothing, as :meth:`least_depth` asks, it refutes a cap far sooner
        than the total's search does (p4c7 within 5 guesses: about 1.1 s against 9 s).

        >>> from mastermind.core.cancel import CancelToken
        >>> from mastermind.engines.exact.solver import ExactSolver
        >>> from mastermind.core.game import CodeTable, Rules
        >>> solver = ExactSolver(CodeTable(Rules(4, 6)))
        >>> solver.fits(4, CancelToken())[0], solver.fits(5, CancelToken())[0]
        (False, True)
        """
        only = None if self.problem.first_guess is None else [self.problem.first_guess]
        memo = self.new_search(0).memo
        found, search = _DepthAsker(self, memo, only, None).ask(depth, cancel)
        counters = Counters(search.nodes, search.memo_hits)
        return (None if search.stopped else found), counters

    def least_depth(
        self,
        cancel: CancelToken,
        only: list[int] | None = None,
        limit: int = UNLIMITED,
        progress: Progress | None = None,
        memory: int | None = None,
        store: str | os.PathLike[str] | None = None,
    ) -> LeastDepth:
        """The fewest guesses that solve every candidate (first guess among ``only``) and a
        strategy that does; or, when no strategy fits in ``limit`` guesses or the search was
        stopped, the least depth not refuted and no strategy (but the shallowest one found).

        Each depth is asked of a search where guesses cost nothing (its memo of at most
        ``memory`` bytes is dropped afterwards): a strategy costs 0 and its absence infinity,
        so the search stops at the first strategy it finds and drops a guess at its first
        class that cannot finish, biggest classes first, instead of costing every class
        exactly as the total's search does (4x9: 7 guesses, 6 refuted in 15 s). ``store``: a
        file that keeps the memo's bigger sets between runs (:mod:`memo_file`), so that a run
        stopped goes on where it was.

        First it probes from above (:meth:`_shallowest`), where a strategy is found at once,
        then it refutes each depth from below up to the shallowest strategy found; so a run
        stopped while a depth is undecided still gives a strategy one guess deeper (5x8: 6
        guesses undecided after hours, 7 found in about a second).

        >>> from mastermind.core.cancel import CancelToken
        >>> from mastermind.engines.exact.solver import ExactSolver, max_depth
        >>> from mastermind.core.game import CodeTable, Rules
        >>> least = ExactSolver(CodeTable(Rules(4, 6))).least_depth(CancelToken())
        >>> least.depth, max_depth(least.tree), least.upper
        (5, 5, 5)
        """
        first = self.new_search(0, memory=memory)  # (the memo every ask shares)
        memo = first.memo
        made_for = memo_file.fingerprint(str(self.rules), self.pool, 0, 0)
        save: Callable[[], object] | None = None
        before: float | None = None
        start = 0.0
        if store is not None:  # what earlier runs settled (refused, before any work, if not
            # theirs or not writable; the caller holds its folder: checkpoint.hold_folder)
            memo_file.load_memo(store, memo, made_for)
            before, start = memo_file.seconds_spent(store), time.perf_counter()

            def save_all() -> object:
                seconds = None if before is None else before + time.perf_counter() - start
                return memo_file.save_memo(store, memo, made_for, seconds=seconds)

            save = save_all
        least = self._least_depth(memo, first, only, limit, save, cancel, progress)
        if before is None:  # (no file, or one of untimed runs: no total to give)
            return least
        return replace(least, searched_seconds=before + time.perf_counter() - start)

    def _least_depth(
        self,
        memo: object,
        first: Search,
        only: list[int] | None,
        limit: int,
        save: Callable[[], object] | None,
        cancel: CancelToken,
        progress: Progress | None,
    ) -> LeastDepth:
        """:meth:`least_depth` on ``memo`` (``first``: a search on it), saved by ``save``."""
        asker = _DepthAsker(self, memo, only, save)
        # (it stops by itself once cancelled: a Ctrl-C waits for its answer)
        with cancel.running():
            top = min(limit, len(self.cands))
            levels = first._levels_needed(len(self.cands))
            upper, shallowest, floor = self._shallowest(asker, levels, top, cancel, progress)
            depth, tree = self._deepen(asker, floor, top, upper, shallowest, cancel, progress)
            if save is not None:  # (after a stop too: what it settled is what the file is for)
                if cancel.cancelled:
                    cancel.wind_down()  # a Ctrl-C waits for the file (well under a second)
                save()
        return LeastDepth(depth, tree, asker.counters, shallowest, upper)

    def _shallowest(
        self, asker: _DepthAsker, floor: int, top: int, cancel: CancelToken, progress: Progress | None
    ) -> tuple[int | None, Node | None, int]:
        """Strategies from above: one within ``top`` guesses, then one within a guess fewer
        than the last found, until a depth is refuted (the least depth is then proven) or
        the probes' time (:data:`PROBE_SECONDS`, at most :data:`PROBE_SHARE` of the time
        left) is spent. A strategy found
        this way takes a fraction of the nodes that refuting a depth takes, whereas refuting
        from below may never reach it. Returns the shallowest strategy's depth and the
        strategy (None, None: none found) and the least depth not refuted by the probes
        (``floor`` if none). A probe stopped leaves what it settled in the memo, to the
        search from below."""
        upper: int | None = None
        shallowest: Node | None = None
        remaining = cancel.remaining()
        share = PROBE_SECONDS if remaining is None else min(PROBE_SECONDS, remaining * PROBE_SHARE)
        if share <= 0:  # (no time left: the search from below says what is proven)
            return upper, shallowest, floor
        with cancel.child(share) as token:
            depth = top
            while depth >= floor:
                found, search = asker.ask(depth, token)
                if search.stopped:
                    break
                if not found:  # (then every depth up to this one is refuted)
                    floor = depth + 1
                    if progress is not None:
                        progress.advance(1)
                    break
                tree = asker.strategy(search, depth, token)
                if tree is None:
                    break
                upper, shallowest = max_depth(tree), tree
                depth = upper - 1
                if progress is not None:
                    progress.advance(1)
        return upper, shallowest, floor

    def _deepen(
        self,
        asker: _DepthAsker,
        floor: int,
        top: int,
        upper: int | None,
        shallowest: Node | None,
        cancel: CancelToken,
        progress: Progress | None,
    ) -> tuple[int, Node | None]:
        """Each depth from ``floor`` (the least not refuted) up to ``top``, or up to
        ``upper``, the depth of ``shallowest``, a strategy already found (see
        :meth:`least_depth`)."""
        depth = floor
        tree = None
        while depth <= top:
            if upper is not None and depth >= upper:  # every shallower depth refuted
                return upper, shallowest
            found, search = asker.ask(depth, cancel)
            if found and not search.stopped:
                tree = asker.strategy(search, depth, cancel)
            if search.stopped or cancel.cancelled:
                tree = None
                break
            if progress is not None:
                progress.advance(1)
            if found:
                break
            depth += 1
        return depth, tree

    def _tie_break(
        self, search: Search, value: float, limit: int, only: list[int] | None, root_guess: int | None
    ) -> tuple[Search, int, int | None]:
        """Among optimal strategies: the smallest worst case, then the fewest secrets at it."""
        cands = self.cands
        probe = search.build(cands, limit, guess=root_guess)
        worst = max_depth(probe)
        depth = search._levels_needed(len(cands))
        while depth < worst:
            if search.solve(cands, depth, value + 1, only=only) == value:
                break
            depth += 1
        guess_cost = len(cands) + 1  # one guess more always outweighs every secret at the worst case
        fine = self.search(guess_cost=guess_cost, penalty=1)
        fine.solve(cands, depth, INF, only=only)
        return fine, depth, (fine.root_guess if only is not None else None)

    # ---- results ---------------------------------------------------------------------------
    def result(
        self,
        root: Node | None,
        *,
        lower: float | None = None,
        counters: Counters | None = None,
        start: float,
        stopped: str | None = None,
        opening: Code | None = None,
        worst_lower_bound: int | None = None,
        startup_seconds: float | None = None,
        checkpoint_seconds: float | None = None,
    ) -> Result[SearchDetails]:
        """The result of a search that found the strategy tree ``root`` (None: none), proven
        optimal unless it was ``stopped`` (why); then ``lower`` is its lower bound on the
        optimum, in the search's units. A search that finished without a tree proved that
        there is no strategy."""
        if root is None:
            tree, stats, total, fraction = None, None, None, None
            weight_sum: int | float = len(self.cands)
            if self.original_weights is not None:
                weight_sum = self.original_weights[self.cands].sum().item()
        else:
            tree, stats, total, weight_sum, fraction = self._measure(root)
        if stopped is None:
            lower_bound: Number | None = total
        else:
            lower_bound = _scaled(lower, self.scale)
            if total is not None and lower_bound is not None:
                lower_bound = min(lower_bound, total)
            if tree is not None and total is not None and (lower_bound is None or lower_bound < total):
                tree = replace(tree, name=NOT_PROVEN)  # (its files must not call it optimal)
        problem = self.problem
        return Result(
            rules=self.rules,
            objective=problem.objective,
            status=Status.of(proven=stopped is None, found=root is not None),
            value=total,
            lower_bound=lower_bound,
            upper_bound=total,
            tree=tree,
            stats=stats,
            counters=Counters() if counters is None else counters,
            seconds=time.perf_counter() - start,
            weight_sum=weight_sum,
            fraction=fraction,
            stopped=stopped,
            details=SearchDetails(
                max_guesses=problem.max_guesses,
                pool=self.pool,
                weighted=self.original_weights is not None,
                opening=opening,
                worst_lower_bound=worst_lower_bound,
                startup_seconds=startup_seconds,
                checkpoint_seconds=checkpoint_seconds,
            ),
        )

    def checked(self, result: Result[SearchDetails], value: float) -> Result[SearchDetails]:
        """``result``, after checking that its tree costs what the search said (``value``)
        where the two count alike (no weights, no tie-break)."""
        if self.uniform and not self.problem.tie_break and self.original_weights is None:
            if value * self.scale != result.total:
                raise AssertionError(f"search value {value} but the tree gives {result.total}")
        return result

    def _measure(self, root: Node) -> tuple[StrategyTree, Stats, Any, int | float, Fraction | None]:
        """``(tree, stats, total, weight_sum, fraction)`` of a strategy replayed against every
        secret: what is reported is read off the tree, not taken from the search."""
        tree = StrategyTree(self.rules, root, name="optimal")
        cands = np.sort(self.cands)
        depths = tree.depths(self.table, cands)
        stats = Stats.from_depths(depths)
        fraction: Fraction | None
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


class _DepthAsker:
    """Asks whether a strategy within some depth exists, of searches where guesses cost
    nothing, sharing one memo (see :meth:`ExactSolver.least_depth`). With ``save`` (the memo
    kept in a file) each ask runs in slices of :data:`memo_file.SAVE_SECONDS`, the memo
    saved after each, so that a run killed loses at most one slice: a slice stopped leaves
    what it settled in the memo, and the next goes on from there. A slice that settled
    nothing gets twice the time."""

    def __init__(
        self, solver: ExactSolver, memo: object, only: list[int] | None, save: Callable[[], object] | None
    ) -> None:
        self.solver, self.memo, self.only, self.save = solver, memo, only, save
        self.counters = Counters()

    def ask(self, depth: int, cancel: CancelToken) -> tuple[bool, Search]:
        """Whether a strategy within ``depth`` guesses exists (False too when stopped: see
        the search's ``stopped``), and the search that answered."""
        every = memo_file.SAVE_SECONDS
        while True:
            with cancel.child(every if self.save is not None else None) as token:
                search = self.solver.new_search(0, cancel=token, memo=self.memo)
                held = search.memo_entries
                found = search.solve(self.solver.cands, depth, 1, only=self.only) == 0
            self.counters += Counters(search.nodes, search.memo_hits)
            if not search.stopped or cancel.cancelled or self.save is None:
                return found, search
            self.save()  # (a slice ended: the ask goes on from what it settled)
            if search.memo_entries == held:
                every *= 2

    def strategy(self, search: Search, depth: int, cancel: CancelToken) -> Node | None:
        """The strategy within ``depth`` that ``search`` found (None: stopped first)."""
        builder = self.solver.new_search(0, cancel=cancel, memo=self.memo)
        try:
            tree = builder.build(self.solver.cands, depth, guess=search.root_guess if self.only else None)
        except Stopped:
            return None
        finally:
            self.counters += Counters(builder.nodes, builder.memo_hits)
        return None if builder.stopped else tree


def max_depth(node: Node, depth: int = 1) -> int:
    return max([depth, *(max_depth(c, depth + 1) for c in node.children.values())])


def _scaled(value: float | None, scale: int | float) -> Number | None:
    if value is None or value in (INF, -INF):
        return value
    value = value * scale
    return int(value) if isinstance(value, float) and value.is_integer() else value
