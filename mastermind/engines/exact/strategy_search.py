"""Strategies for games beyond proof: a search that builds the cheapest strategy it can find,
widening pass after pass, for upper bounds on the optimal total.

A pass plays every secret: at each set of candidates it tries a few guesses (the ones with
the lowest perfect-tree lower bound, as the exact search orders them, and the ones whose
answers have the highest entropy) and keeps the cheapest strategy; sets of at most
``exact_size`` secrets are solved exactly by the exact search. Guesses are tried in the
order of their lower bounds and each is given a budget (the cheapest strategy found so far at
that set, less what its other classes are known to cost at least), so that most are refuted
after a few classes. Each set keeps the cheapest strategy any pass found for it, so a pass
never does worse than the one before; later passes try more guesses and solve larger sets
exactly (see :data:`SCHEDULE`); past the schedule, passes polish the strategy found so far
(its top levels kept) while that pays, and widen when it does not (see :class:`Plan`).

Guesses are canonical under the symmetries that fix the guesses so far, as in the exact
search, and the pool may be restricted to codes still possible ("hard mode").

>>> from mastermind.engines.exact.strategy_search import StrategySearch
>>> from mastermind.core.game import CodeTable, Rules
>>> search = StrategySearch(CodeTable(Rules(3, 4)))
>>> search.run(passes=1).total
208
>>> search.run(passes=1).total  # the optimum is 206
206
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np

from mastermind.core.cancel import INTERRUPTED, CancelToken, Stopped
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.pools import Pool
from mastermind.core.priority import lower_thread_priority
from mastermind.core.tree import Node, StrategyTree
from mastermind.engines.exact._dfs import node_guesses, set_key
from mastermind.engines.exact._kernels import split_classes
from mastermind.engines.exact._ranking import rank_guesses
from mastermind.engines.exact.checkpoint import SetRow
from mastermind.engines.exact.options import Problem, StartError
from mastermind.engines.exact.search import INF, UNLIMITED, Search
from mastermind.engines.exact.solver import ExactSolver

PLAN_SIZE = 2000
"""Sets up to this size are planned as the exact search plans them (refined bounds, one
guess per partition); larger ones are ranked by the plain bounds alone (the refinement needs
a table of every pair of candidates)."""


FINISHED = "finished"
"""Why the strategy search is stopped when the run beside it ended (its optimum proven, or
its time up: the first reason given stays); a run that finished builds no tree of the pass
cut short."""


@contextmanager
def _flag_at(flag: np.ndarray, until: float | None, expired: threading.Event) -> Iterator[None]:
    """``flag[0]`` written at ``until`` (a :func:`time.monotonic` moment; None: never) while
    the block runs, ``expired`` set just before: the compiled search polls the flag, and
    stops."""
    if until is None:
        yield
        return

    def expire() -> None:
        expired.set()
        flag[0] = 1

    timer = threading.Timer(max(0.0, until - time.monotonic()), expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # (not written after the block: the caller sets the flag as it ends)


@dataclass(frozen=True)
class Effort:
    """How hard one pass looks: sets of at most ``exact_size`` secrets are solved exactly;
    at depth d (0 at the root) the ``by_bound[d]`` guesses of least lower bound and the
    ``by_entropy[d]`` guesses of highest entropy are tried (0: every guess; the last entry
    stands for the deeper levels). ``kept_levels``: at depths below it, a set that has a
    strategy kept from earlier passes tries only that strategy's guess (a pass that
    searches the strategy found so far more deeply, not the guesses beside it)."""

    exact_size: int
    by_bound: tuple[int, ...]
    by_entropy: tuple[int, ...]
    kept_levels: int = 0

    def width(self, depth: int) -> tuple[int, int]:
        def at(seq: tuple[int, ...]) -> int:
            return seq[min(depth, len(seq) - 1)]

        return at(self.by_bound), at(self.by_entropy)


SCHEDULE: tuple[Effort, ...] = (
    Effort(2, (1,), (0,)),
    Effort(6, (2, 1), (1, 0)),
    Effort(12, (0, 2, 1), (1,)),
    Effort(20, (0, 3, 2, 1), (1,)),
    Effort(30, (0, 4, 2, 1), (2, 1)),
    Effort(45, (0, 6, 3, 2, 1), (2, 1)),
    Effort(60, (0, 8, 4, 2, 1), (3, 2, 1)),
    Effort(80, (0, 12, 6, 3, 2, 1), (3, 2, 1)),
)
"""The passes in order; past the last, see :class:`Plan`."""

POLISH_LEVELS = 2
"""The levels a polishing pass keeps as the strategy found so far has them (see
:class:`Plan`)."""


def _widened(level: int) -> Effort:
    """The last pass of the schedule with its widths doubled ``level`` times and sets a
    quarter larger solved exactly each time."""
    last = SCHEDULE[-1]
    # (capped: 1.25**k overflows a float past k = 3180, and sets of 80 * 1.25**64 secrets,
    # about 125 billion, are beyond any game's codes)
    k = min(level, 64)
    return Effort(
        int(last.exact_size * 1.25**k),
        tuple(0 if w == 0 else w << k for w in last.by_bound),
        tuple(w << k for w in last.by_entropy),
    )


def _polished(level: int, widened: int = 0) -> Effort:
    """A polishing pass: the top :data:`POLISH_LEVELS` levels kept, the widths of the last
    pass of the schedule times ``level + 1`` below them, and sets 10 secrets larger per
    level solved exactly (level 1: the first widening's widths, the schedule's exact size),
    and at least as large as the last of ``widened`` widening passes did (sets it solved
    exactly keep no strategy of their own: searched with widths, they would cost more than
    the tree the search holds prices them, and the polish seem to lose)."""
    last = SCHEDULE[-1]
    k = min(level, 1 << 20)  # (beyond any game's codes, and no overflow)
    return Effort(
        max(last.exact_size + 10 * (k - 1), _widened(widened).exact_size),
        tuple(w * (k + 1) for w in last.by_bound),
        tuple(w * (k + 1) for w in last.by_entropy),
        POLISH_LEVELS,
    )


@dataclass(frozen=True)
class Plan:
    """Where the passes past the :data:`SCHEDULE` stand. A polishing pass searches the
    strategy found so far more deeply (its top levels kept); while polishes improve it, each
    next one looks a little harder; a polish that finds nothing cheaper is followed by a
    widening pass (every level searched wider), then polishing again. Alternating the two
    (the plan before) left 6x8n in a widening pass for hours (exact solves of 90-100-secret
    sets, 2-52 s each, deep in guesses that did not pay), after polishing had found -80.

    >>> from mastermind.engines.exact.strategy_search import Plan
    >>> plan = Plan()
    >>> plan.after(improved=True).effort().exact_size, plan.after(improved=False).effort().kept_levels
    (90, 0)
    """

    polish_level: int = 1
    widen_level: int = 1
    widening: bool = False
    total: int = -1
    """The total when the pass under way began (-1: not begun, or no strategy then), kept
    across runs: a run that continues a pass starts from the strategy the pass had found so
    far. (That run also starts from the strategy its checkpoint keeps, which the rounds may
    have mended since: the pass is credited with that too, a reason to go on polishing.)"""

    def effort(self) -> Effort:
        if self.widening:
            return _widened(self.widen_level)
        return _polished(self.polish_level, self.widen_level - 1)

    def begun(self, total: int) -> Plan:
        """This plan, its pass begun at ``total`` (if not begun before)."""
        return self if self.total >= 0 else replace(self, total=total)

    def after(self, improved: bool) -> Plan:
        """The plan for the pass after one of this plan that ``improved`` the total or not."""
        if self.widening:
            return Plan(self.polish_level, self.widen_level + 1, False)
        if improved:
            return Plan(self.polish_level + 1, self.widen_level, False)
        return Plan(self.polish_level, self.widen_level, True)

    def encode(self) -> list[int]:
        return [self.polish_level, self.widen_level, int(self.widening), self.total]

    @classmethod
    def decode(cls, kept: list[int]) -> Plan:
        polish, widen, widening, total = (int(x) for x in kept)
        if polish < 1 or widen < 1 or total < -1:
            raise ValueError(f"plan {kept}")
        return cls(polish, widen, bool(widening), total)

    @classmethod
    def of_alternation(cls, passes: int) -> Plan:
        """The plan that follows ``passes`` passes made when polishing and widening took
        turns (a checkpoint that kept no plan): each done a level further."""
        k = max(0, passes - len(SCHEDULE))
        return cls(1 + (k + 1) // 2, 1 + k // 2, False)


def effort(pass_no: int, plan: Plan = Plan()) -> Effort:
    """The effort of a pass (0 first): the :data:`SCHEDULE`'s, then that of ``plan``.

    >>> from mastermind.engines.exact.strategy_search import Plan, SCHEDULE, effort
    >>> effort(0)
    Effort(exact_size=2, by_bound=(1,), by_entropy=(0,), kept_levels=0)
    >>> polish = effort(len(SCHEDULE))
    >>> widen = effort(len(SCHEDULE), Plan(widening=True))
    >>> polish.kept_levels, polish.exact_size, widen.kept_levels, widen.exact_size
    (2, 80, 0, 100)
    >>> polish.by_bound == widen.by_bound
    True
    >>> effort(99, Plan(5000, 5000, True)).exact_size == effort(99, Plan(1, 200, True)).exact_size
    True
    """
    if pass_no < len(SCHEDULE):
        return SCHEDULE[pass_no]
    return plan.effort()


@dataclass(frozen=True)
class Found:
    """The best strategy after some passes: its tree and total (weights all one)."""

    tree: StrategyTree
    total: int
    passes: int
    seconds: float


class StrategySearch:
    """The strategy search of one game: its exact search (with the exact sets' memo) and the
    cheapest strategy found for every larger set, kept across passes. ``niceness``: how far
    the thread that runs it lowers its priority once it holds a strategy
    (:func:`~mastermind.core.priority.lower_thread_priority`; give it only in a thread of its
    own): beside the rounds' units it then takes what they leave of a core. Until then it
    runs at the usual priority: the first upper bound is what the rounds need most."""

    def __init__(
        self,
        table: CodeTable,
        *,
        pool: str = "all",
        cancel: CancelToken | None = None,
        memory: int | None = None,
        memo: object | None = None,
        niceness: int = 0,
    ) -> None:
        self.table = table
        self.solver = ExactSolver(table, Problem(pool=pool))  # type: ignore[arg-type]
        if not self.solver.uniform:
            raise MastermindError("the strategy search works without weights only")
        self.token = CancelToken() if cancel is None else cancel
        self.stop = self.token.flag
        self.search: Search = self.solver.new_search(cancel=self.token, memory=memory, memo=memo)
        s = self.search
        self._rank_tables, self._size_tables = s.node_tables(UNLIMITED)
        n = table.n
        self._xlogx = np.zeros(n + 1)
        k = np.arange(1, n + 1, dtype=np.float64)
        self._xlogx[1:] = k * np.log(k)
        # set key -> (total of the cheapest strategy found, its first guess)
        self.best: dict[tuple[int, int], tuple[int, int]] = {}
        self._done: dict[tuple[int, int], int] = {}  # set key -> last pass that searched it
        # sets whose kept strategy no pass found (a tree to start from): tried in their order
        self._unled: set[tuple[int, int]] = set()
        self.passes = 0
        self.plan = Plan()  # of the passes past the schedule (see effort)
        self.exact_size = 2  # sets this small are built by the exact search
        self.sets_searched = 0
        # how far the search's thread lowers its priority once it holds a strategy
        self.niceness = niceness
        self.lowered = False
        self._root = self._key(self.solver.cands)
        # seconds a tree may take to build once the search is stopped by its time limit
        # (None: any): a pass cut short is built only if the last build took no longer, and
        # a build still running that long after the stop is given up, the last pass finished
        # being the answer (a 4x7 build of 0.5-1.6 s after a 2 s limit kept `compare
        # --time-limit 2` running past 3 s; a 6x7n build from a resumed pass, 17 s of CPU at
        # nice 10, kept a 240 s results row running to 343 s: benchmarks/NOTES.md, issue 63)
        self.build_allowance: float | None = None
        self.last_build = 0.0  # seconds the last tree took to build

    # ---- one set --------------------------------------------------------------------------
    def _key(self, cands: np.ndarray) -> tuple[int, int]:
        k1, k2 = set_key(cands, UNLIMITED)
        return int(k1), int(k2)

    def _lower_priority(self) -> None:
        # (until the first strategy the search runs at the usual priority: one of its own, a
        # tree to start from does not count, or a weak one held it back the whole run)
        found = (self._root in self.best and self._root not in self._unled) or self.passes > 0
        if self.niceness > 0 and not self.lowered and found:
            self.lowered = True
            lower_thread_priority(self.niceness)

    def _exact(self, cands: np.ndarray, group, budget: float) -> float:
        value = self.search.solve(cands, UNLIMITED, budget, group)
        if self.search.stopped:
            raise Stopped()
        return float(value)

    def _classes(self, cands: np.ndarray, guess: int, group, most: int):
        s = self.search
        table = self._rank_tables[min(most, s.branching)]
        out, _, starts, sizes, answers, bounds = split_classes(
            s.scores, guess, cands, s.weights[cands], table, s.n_slots, s.win, s.unit, True
        )
        classes = [out[int(a) : int(a) + int(m)] for a, m in zip(starts, sizes)]
        return classes, [float(b) for b in bounds], answers

    def _candidates(self, cands: np.ndarray, group, work: Effort, depth: int):
        """The guesses to try, least bound first, with their bounds (own cost excluded), and
        the most classes a guess makes here (for the classes' bounds)."""
        s = self.search
        by_bound, by_entropy = work.width(depth)
        n = len(cands)
        if n <= PLAN_SIZE:
            plan = s.plan(cands, UNLIMITED, INF, group)
            guesses = np.asarray(plan.guesses, dtype=np.int64)
            bounds = np.asarray(plan.bounds, dtype=np.float64) - n
            most = plan.most
            picked = list(range(len(guesses) if by_bound == 0 else min(by_bound, len(guesses))))
            extra = [(plan.exact_guess, float(plan.exact_value) - n)] if plan.exact_guess >= 0 else []
        else:
            every = node_guesses(
                s.codes, s.colour_bits, s.table.all_codes, cands, group[0], group[1], s.consistent, s.masks
            )
            every_all = every.shape[0] == s.table.all_codes.shape[0] and not s.consistent
            bound, ok, _, spread, useful = self._rank(cands, every, every_all)
            keep = np.flatnonzero(useful & ok)
            order = keep[np.lexsort((spread[keep], bound[keep]))]
            guesses = every[order].astype(np.int64)
            bounds = bound[order].astype(np.float64)
            most = 1  # the classes' bounds use the most classes of every guess, below
            picked = list(range(len(guesses) if by_bound == 0 else min(by_bound, len(guesses))))
            extra = []
        if by_entropy and len(guesses):
            ent = self._entropy_keys(cands, guesses)
            for i in np.argsort(ent, kind="stable")[:by_entropy]:
                if int(i) not in picked:
                    picked.append(int(i))
        picked.sort()
        out = extra + [(int(guesses[i]), float(bounds[i])) for i in picked]
        if n > PLAN_SIZE:
            most = s.branching
        return out, most

    def _entropy_keys(self, cands: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        return self._rank(cands, guesses.astype(np.int32), False)[2]

    def _rank(self, cands: np.ndarray, guesses: np.ndarray, every_all: bool) -> tuple:
        """The ranking kernel's keys of ``guesses`` on ``cands`` (``every_all``: they are every
        code): bound, fits, sum n ln n, spread, useful."""
        s = self.search
        return rank_guesses(
            s.scores,
            guesses,
            every_all,
            cands,
            s.weights[cands],
            self._rank_tables,
            self._size_tables,
            self._xlogx,
            s.slots,
        )

    def _cost(self, cands: np.ndarray, group, depth: int, budget: float, work: Effort) -> float:
        """The cheapest strategy this pass finds for ``cands`` if it costs less than
        ``budget`` (kept in :attr:`best`), else a number at least ``budget``."""
        n = len(cands)
        if n <= max(2, work.exact_size):
            return self._exact(cands, group, budget)
        self._lower_priority()
        if self.token.cancelled:
            raise Stopped()
        key = self._key(cands)
        known = self.best.get(key)
        best = float(known[0]) if known is not None else INF
        if self._done.get(key) == self.passes:  # searched already in this pass
            return best if best < budget else max(best, budget)
        self.sets_searched += 1
        if known is not None and depth < work.kept_levels:
            # (the most classes of every guess for the classes' bounds: valid, if weaker)
            candidates, most = [(known[1], 0.0)], self.search.branching
        else:
            candidates, most = self._candidates(cands, group, work, depth)
        if known is not None and key not in self._unled:
            # the strategy kept from an earlier pass first: its classes may have improved since
            mine = [c for c in candidates if c[0] == known[1]] or [(known[1], 0.0)]
            candidates = mine + [c for c in candidates if c[0] != known[1]]
        limit = min(best, budget)
        for guess, bound in candidates:
            if n + bound >= limit:
                continue
            value = self._guess_cost(cands, group, guess, depth, limit, work, most)
            if value < limit:
                best = limit = value
                self.best[key] = (int(value), int(guess))
                self._unled.discard(key)  # (a pass's own strategy now)
        self._done[key] = self.passes
        return best if best < budget else max(best, budget)

    def _guess_cost(
        self, cands, group, guess: int, depth: int, limit: float, work: Effort, most: int
    ) -> float:
        """What ``guess`` costs on ``cands`` with the best strategies below it, if below ``limit``
        (else at least ``limit``)."""
        s = self.search
        classes, bounds, _ = self._classes(cands, guess, group, most)
        child = s.child_group(group, guess)
        acc = len(cands) + sum(bounds)
        if acc >= limit:
            return acc
        for c in sorted(range(len(classes)), key=lambda c: len(classes[c])):
            value = self._cost(classes[c], child, depth + 1, limit - (acc - bounds[c]), work)
            acc += value - bounds[c]
            if acc >= limit:
                return acc
        return acc

    def seed(self, root: Node, passes: int = 0) -> int:
        """Start from a strategy found earlier (e.g. by a run stopped before): every set of
        its tree keeps that strategy's cost until a pass finds cheaper; the next pass is
        ``passes`` (the passes that strategy had behind it). Returns its total.

        A strategy no pass found (``passes`` 0: a tree given to start from) bounds the
        search but does not lead it: a pass tried its guesses first, so that `--start-from`
        a weak tree (4x7, "simple", 15548) spent a short run improving that tree's first
        guess and ended at 15289, where the search alone finds 11361."""
        s = self.search
        led = passes > 0
        consistent = self.solver.pool is Pool.CONSISTENT

        def walk(node: Node, cands: np.ndarray, group) -> int:
            n = len(cands)
            if consistent and not np.any(cands == node.guess):
                raise StartError(
                    "the strategy to start from guesses a code no longer possible, "
                    "which the consistent pool forbids"
                )
            classes, _, answers = self._classes(cands, node.guess, group, s.branching)
            child = s.child_group(group, node.guess)
            total = n
            for sub, answer in zip(classes, answers):
                kid = node.children.get(int(answer))
                if kid is None:
                    raise MastermindError("the strategy to start from does not solve every secret")
                total += walk(kid, sub, child)
            if n > 2:
                key = self._key(cands)
                kept = self.best.get(key)
                if kept is None or total < kept[0]:
                    self.best[key] = (total, int(node.guess))
                    if led:
                        self._unled.discard(key)
                    else:
                        self._unled.add(key)
            return total

        total = walk(root, self.solver.cands, self.solver.group)
        self.passes = max(self.passes, passes)
        return total

    # ---- a pass kept between runs ----------------------------------------------------------
    def pass_state(self) -> list[SetRow]:
        """Where this search stands, for :meth:`resume` in a later run (a checkpoint keeps it):
        every set it knows a strategy for or searched in the pass under way, with that
        strategy's total and first guess (-1 and -1: none) and whether that pass searched it."""
        rows: list[SetRow] = []
        for key in self.best.keys() | self._done.keys():
            total, guess = self.best.get(key, (-1, -1))
            rows.append((key[0], key[1], total, guess, self._done.get(key) == self.passes))
        return rows

    def resume(self, rows: list[SetRow], passes: int, plan: Plan | None = None) -> None:
        """Go on from where a run stopped in the pass ``passes`` (its :meth:`pass_state`) of
        ``plan`` (its :attr:`plan`; None: kept by a version without plans, whose passes past
        the schedule took turns, see :meth:`Plan.of_alternation`): keep the strategies it
        found for its sets, where cheaper, and, if this search is at that pass, do not
        search again the sets that pass searched (they answer with what it found, as they
        would later in the same pass). Without it, each continued run started its pass
        again, and the pass of a big game, longer than a run, never ended."""
        same = passes == self.passes
        # (a plan kept for another pass, or none: as the alternation would stand)
        self.plan = plan if same and plan is not None else Plan.of_alternation(self.passes)
        same = same and (plan is not None or passes < len(SCHEDULE))  # (the alternation's pass
        # under way is not the plan's)
        for k1, k2, total, guess, done in rows:
            key = (k1, k2)
            if total >= 0:
                kept = self.best.get(key)
                if kept is None or total < kept[0]:
                    self.best[key] = (total, guess)
            if done and same:
                self._done[key] = passes

    def kept_cheaper(self, total: float) -> Found | None:
        """The strategy the kept sets hold (:meth:`seed`, :meth:`resume`) if it costs less
        than ``total``, built as the pass they were kept in builds it (its small sets solved
        exactly), or None. A strategy a run found but never built (stopped by Ctrl-C, or its
        build cut short) is there: 5x8 hard mode kept 179957 behind a published 179960."""
        kept = self.best.get(self._root)
        if kept is None or kept[0] >= total:
            return None
        self.exact_size = max(self.exact_size, effort(self.passes, self.plan).exact_size)
        # (within the run's time limit and the allowance of a build past it: the build holds
        # the stop flag back, and the rounds wait for it)
        deadline = self.token.deadline
        until = None if deadline is None else deadline + (self.build_allowance or 0.0)
        found = self._found(time.perf_counter(), until)
        return found if found.total < total else None

    # ---- passes and the tree ----------------------------------------------------------------
    def run(
        self,
        *,
        passes: int | None = None,
        on_found: Callable[[Found], None] | None = None,
    ) -> Found:
        """Run passes (``passes`` more, or until the cancel token is cancelled: a time limit,
        Ctrl-C, or until a pass solved the whole game exactly, when no later pass can find a
        cheaper strategy); the cheapest strategy found, with what a pass cut short found too. Raises
        :class:`~mastermind.core.cancel.Stopped` if cancelled before any strategy, or
        interrupted (the strategies of the passes finished were handed to ``on_found``)."""
        start = time.perf_counter()
        cands = self.solver.cands
        root = self._root
        left = passes
        while left is None or left > 0:
            work = effort(self.passes, self.plan)
            if self.passes >= len(SCHEDULE) and root in self.best:
                self.plan = self.plan.begun(self.best[root][0])
            # the tree is built as the pass under way costs it, even if it stops: its small
            # sets solved exactly (they keep no strategy of their own), not by the strategy an
            # older pass kept for them, which may cost more
            self.exact_size = max(self.exact_size, work.exact_size)
            try:
                self._cost(cands, self.solver.group, 0, INF, work)
            except Stopped:
                # Ctrl-C: no tree of the pass cut short (5x8: its build kept the command
                # 3 s past the stop); what the pass found stays in pass_state, which a
                # checkpoint keeps for its next run (without one, it is lost with the run)
                # (a run that finished has proven its optimum: no strategy of ours beats it)
                if root not in self.best or self.token.reason in (INTERRUPTED, FINISHED):
                    raise
                allowance = self.build_allowance
                if allowance is not None and self.last_build > allowance:
                    raise  # (the strategies of the passes finished went to on_found)
                until = None if allowance is None else time.monotonic() + allowance
                return self._found(start, until)
            if self.passes >= len(SCHEDULE):
                now, begun = self.best.get(root), self.plan.total
                # (a first strategy counts as an improvement)
                self.plan = self.plan.after(improved=now is not None and (begun < 0 or now[0] < begun))
            self.passes += 1
            if on_found is not None:
                on_found(self._found(start))
            if left is not None:
                left -= 1
            if len(cands) <= max(2, work.exact_size):
                # the pass was the exact search of the whole game: its strategy is optimal
                # (without this, a tiny game ran thousands of passes until its time limit)
                break
        return self._found(start)

    def _found(self, start: float, until: float | None = None) -> Found:
        """The cheapest strategy found, built (see :meth:`tree`) by ``until`` (a
        :func:`time.monotonic` moment, as a token's deadline; None: however long it takes), else
        :class:`~mastermind.core.cancel.Stopped`, as on Ctrl-C."""
        # the exact sets of the tree are built by the exact search, which a stop would cut
        # short: the flag is held back while the tree is built (from the memo, mostly). A
        # cancel that comes meanwhile writes the flag again (the run's end: StrategyThread.
        # finish cancels the token the time limit had already cancelled) and would stop the
        # build: the build goes on, from what the memo holds by then, unless it is Ctrl-C
        # or ``until`` has passed (the flag is written then too: the build's own deadline).
        # (Once, a stop's build of 5x8 hard mode's 179957, found in that run, was cut this
        # way, and the run reported the 179960 it started from.)
        held = int(self.stop[0])
        began = time.perf_counter()
        expired = threading.Event()
        try:
            with _flag_at(self.stop, until, expired):
                while True:
                    if expired.is_set() or (until is not None and time.monotonic() >= until):
                        raise Stopped()
                    self.stop[0] = 0
                    try:
                        root = self.tree()
                        break
                    except Stopped:
                        if expired.is_set():
                            raise
                        held = 1
                        if self.token.reason == INTERRUPTED:
                            raise
            tree = StrategyTree(self.table.rules, root, name="strategy search")
        finally:
            # as it was, or as a cancel meanwhile left it (not as the build's deadline did)
            now = int(self.token.cancel_requested) if expired.is_set() else int(self.stop[0])
            self.stop[0] = max(now, held)
            self.last_build = time.perf_counter() - began
        total = int(tree.stats(self.table).total)
        return Found(tree, total, self.passes, time.perf_counter() - start)

    def tree(self) -> Node:
        """The cheapest strategy found, as a tree (exact sets from the exact search)."""
        return self._node(self.solver.cands, self.solver.group)

    def _node(self, cands: np.ndarray, group) -> Node:
        kept = self.best.get(self._key(cands)) if len(cands) > max(2, self.exact_size) else None
        s = self.search
        if kept is None:
            return s.build(cands, UNLIMITED, group)
        guess = kept[1]
        node = Node(int(guess), len(cands))
        classes, _, answers = self._classes(cands, guess, group, s.branching)
        child = s.child_group(group, guess)
        for sub, answer in zip(classes, answers):
            node.children[int(answer)] = self._node(sub, child)
        return node
