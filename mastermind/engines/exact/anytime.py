"""Bounds that grow with the time given: the root's lower bound raised round by round.

The root is a choice among its canonical first guesses (the optimum is the least of their
costs) and each first guess a sum over its classes (its cost is one guess per secret plus
the least cost of each class). The search keeps, for every class of every first guess, a
proven lower bound or its exact value; the game's lower bound is at every moment

    min over first guesses g of (secrets + sum over the classes c of g of bound(c)),

also counting the guesses the root's plan left out at their bounds. A round picks a target
T above that bound (never above the cheapest strategy known) and, for each first guess still
below T, asks its classes for what it lacks, shared out by class size: a class asked for b
is searched with budget b (one work unit: the exact search answers its exact cost below b,
or proves a bound of at least b). Every answer raises a class's bound for good, so the
game's bound only grows, and a unit found in the checkpoint is not searched again. Where a
first guess has every class exact its cost is known: a strategy (an upper bound), and the
optimum once no first guess can be cheaper.

Targets step up by an amount that adapts to how long a round takes (about
:data:`ROUND_SECONDS`), never past the cheapest strategy known: a round that asks for it
either proves it optimal or finds a cheaper one. Measured against the plain depth-first
search of the whole game, rounds search fewer nodes (p4c8: 632 k against 663 k) because every
class is first asked for little: see benchmarks/NOTES.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.pools import Pool
from mastermind.core.progress import Progress
from mastermind.core.tree import Node, StrategyTree
from mastermind.engines.exact._memo import memo_grow
from mastermind.engines.exact.backends import Backend
from mastermind.engines.exact.checkpoint import Checkpoint, Paces, RootBounds
from mastermind.engines.exact.dispatch import Dispatcher
from mastermind.engines.exact.partition import Group, guess_classes
from mastermind.engines.exact.reporting import ProgressReporter
from mastermind.engines.exact.search import INF, Search
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.units import SearchSpec
from mastermind.engines.result import Counters

SPLIT_SIZE = 1000
"""Classes of at least this many secrets are searched as the root is (each of their guesses
one unit) rather than as one work unit: in a run that may stop, a unit of thousands of
secrets can run for many minutes and proves nothing until it ends; in a proof, it keeps one
worker busy while the others wait (see Tuning.split_size and RoundSearch.refine). A class
whose unit an earlier run's stop cut short is split whatever its size (Checkpoint.mark_cut)."""

FLOOR_SECONDS = 90.0
"""The most seconds a run spends raising the guesses of split classes that earlier runs asked
to their classes' own bounds (:meth:`RoundSearch._floor_split`), while no unit runs: 6x8n's
checkpoint rose from 111229 to 111978 in 74 s of them."""

ROUND_SECONDS = 20.0
"""A round's wall time that the target's step aims at: short enough that a stop loses
little, long enough that planning rounds costs little."""


@dataclass
class ClassBound:
    """One class of a first guess: its secrets, the group fixing the guesses so far, a
    proven lower bound on its cost (its cost when ``exact``) and, when exact, its tree."""

    cands: np.ndarray
    group: Group
    answer: int
    lower: float
    exact: bool = False
    node: Node | None = None
    # a big class searched as the root is: its own guesses (each asked as a whole), the
    # least bound of the guesses its plan left out (see :meth:`RoundSearch.split`)
    inner: list[GuessBound] | None = None
    inner_rest: float = INF
    # its guesses whose bounds earlier runs' units proved (kept in the checkpoint), and those
    # raised to their classes' own bounds in this run (see RoundSearch._floor_split)
    kept: set[int] = field(default_factory=set)
    floored: set[int] = field(default_factory=set)
    left: int = 0  # the guesses left for it (a cap on the worst case, or UNLIMITED)
    whole: bool = False  # found not worth splitting: asked as one unit from then on
    # seconds its last ask took for each unit its bound rose, in this run or one kept in the
    # checkpoint (None: not asked yet)
    pace: float | None = None

    @property
    def size(self) -> int:
        return len(self.cands)

    def cheapest(self) -> tuple[float, Node] | None:
        """The cheapest strategy the rounds know for this class, with its cost: its own when
        exact, else that of its cheapest guess whose cost is known (a split class), or None."""
        if self.exact:
            assert self.node is not None
            return self.lower, self.node
        known = [g for g in self.inner or () if g.exact]
        if not known:
            return None
        g = min(known, key=lambda g: g.lower)
        return g.lower, g.tree(self.size)

    def settle(self) -> None:
        """Raise a split class's bound to what its guesses prove; exact once its cheapest
        guess is exact and no guess can be cheaper."""
        if self.inner is None or self.exact:
            return
        least = min([self.inner_rest, *(g.lower for g in self.inner)])
        self.lower = max(self.lower, least)
        best = min(self.inner, key=lambda g: (g.lower, not g.exact), default=None)
        if best is not None and best.exact and best.lower <= least:
            self.lower, self.exact, self.node = best.lower, True, best.tree(self.size)
            self.inner = None  # (its strategy is kept; its guesses are no longer needed)


@dataclass
class GuessBound:
    """A guess with its classes (a first guess), or asked as a whole (a guess of a split
    class: ``floor`` its proven bound, ``node`` its tree once its cost is known)."""

    guess: int
    own: float
    classes: list[ClassBound] = field(default_factory=list)
    floor: float = -INF
    node: Node | None = None

    @property
    def lower(self) -> float:
        return max(self.floor, self.own + sum(c.lower for c in self.classes))

    @property
    def exact(self) -> bool:
        return self.node is not None or (bool(self.classes) and all(c.exact for c in self.classes))

    def tree(self, n: int) -> Node:
        if self.node is not None:
            return self.node
        node = Node(int(self.guess), n)
        for c in self.classes:
            assert c.node is not None
            node.children[c.answer] = c.node
        return node


Price = Callable[[Node, "ClassBound"], float]
"""What a strategy (a subtree) costs over the secrets of a class."""


@dataclass
class RootState:
    """What is known about the root: every first guess planned, the least bound of those
    left out, and the cheapest strategy known. ``price``: what a subtree costs over a
    class, to mend the strategies offered (see :meth:`mend`; None: they are kept as
    offered)."""

    n: int
    guesses: list[GuessBound]
    rest: float = INF  # least bound of the first guesses the plan left out
    upper: float = INF
    tree: Node | None = None
    floor: float = -INF  # a bound proven otherwise (by earlier runs)
    price: Price | None = None

    @property
    def lower(self) -> float:
        return max(self.floor, self.derived)

    @property
    def derived(self) -> float:
        """The bound its first guesses give (without the earlier runs' floor)."""
        return min([self.rest, *(g.lower for g in self.guesses)])

    def offer_exact(self) -> None:
        """Keep the strategy of every first guess whose classes are all exact, if cheaper."""
        for g in self.guesses:
            if g.exact:
                self.offer(g.lower, g.tree(self.n))

    def offer(self, total: float, tree: Node | None) -> bool:
        """Keep a strategy if it is cheaper than the one known, once mended (:meth:`mend`);
        True if kept."""
        if tree is not None:
            total, tree = self.mend(total, tree)
        if tree is not None and total < self.upper:
            self.upper, self.tree = total, tree
            return True
        return False

    def mend(self, total: float, tree: Node) -> tuple[float, Node]:
        """A strategy costing ``total`` with every class of its first guess that the rounds
        know a cheaper strategy for played by that one instead, and its cost. The strategy
        search and the rounds each found the cheaper part of some classes: the 6x8n
        strategy of 118477 played a class of 1260 secrets in 5410 guesses that the rounds
        had solved in 5403, and 6x5's two classes in 9 more than their optimum."""
        first = next((g for g in self.guesses if g.guess == tree.guess), None)
        if self.price is None or first is None:
            return total, tree
        children = dict(tree.children)
        mended = False
        for c in first.classes:
            better = c.cheapest()
            kid = children.get(c.answer)
            if better is None or kid is None or kid is better[1]:
                continue
            cost, node = better
            have = self.price(kid, c)
            if cost < have:
                children[c.answer] = node
                total -= have - cost
                mended = True
        if not mended:
            return total, tree
        return total, Node(tree.guess, tree.candidates, children)

    def mend_kept(self) -> None:
        """Mend the cheapest strategy known (classes may have become exact since)."""
        if self.tree is not None:
            total, tree = self.mend(self.upper, self.tree)
            if total < self.upper:
                self.upper, self.tree = total, tree

    @property
    def proven(self) -> bool:
        """Whether the cheapest strategy known is optimal."""
        return self.tree is not None and self.lower >= self.upper


def shares(need: float, classes: list[ClassBound]) -> list[tuple[ClassBound, float]]:
    """What each class not yet exact is asked for, so that the classes together rise by at
    least ``need``: shared out by class size, at least one each (costs are whole numbers
    without weights).

    >>> import numpy as np
    >>> from mastermind.engines.exact.anytime import ClassBound, shares
    >>> group = (np.zeros((1, 4), np.int8), np.zeros((1, 6), np.int8))
    >>> cs = [ClassBound(np.arange(m, dtype=np.int32), group, a, 10.0) for a, m in enumerate((3, 1, 6))]
    >>> [(c.size, b) for c, b in shares(5, cs)]
    [(3, 12.0), (1, 11.0), (6, 13.0)]
    """
    open_ = [c for c in classes if not c.exact]
    total = sum(c.size for c in open_)
    out = []
    for c in open_:
        out.append((c, c.lower + max(1.0, float(math.ceil(need * c.size / total)))))
    return out


PACE_FLOOR = 0.01
"""Seconds: the least pace counted for a class (answers found in the checkpoint take none)."""


def paced_shares(
    need: float, classes: list[ClassBound], prior: float | None
) -> list[tuple[ClassBound, float]]:
    """What each class not yet exact is asked for, so that the classes together rise by at
    least ``need``, in a run that may stop: any class that rises raises its first guess, so
    the rise goes where it is cheapest, one at a time to the class whose next one costs
    least (its pace times the rises it is already asked for: a class's cost grows with each
    rise). A class not asked yet (in this run or those its checkpoint recorded) is paced by
    :func:`guessed_pace` from ``prior``, the seconds per secret that the classes asked so
    far took; before any class was asked (``prior`` None), as :func:`shares`. Asked for 1
    more each, the classes of a first guess near their bounds took minutes for one class
    and seconds for others (5x8: 563 units, 78 done in 240 s), where 1 more of one class
    was enough.

    >>> import numpy as np
    >>> from mastermind.engines.exact.anytime import ClassBound, paced_shares
    >>> group = (np.zeros((1, 4), np.int8), np.zeros((1, 6), np.int8))
    >>> cs = [ClassBound(np.arange(m, dtype=np.int32), group, a, 10.0) for a, m in enumerate((3, 1, 6))]
    >>> for c, pace in zip(cs, (2.0, 30.0, None)):
    ...     c.pace = pace
    >>> [(c.size, b) for c, b in paced_shares(1, cs, 5.0)], [(c.size, b) for c, b in paced_shares(4, cs, 0.5)]
    ([(3, 11.0)], [(3, 12.0), (6, 12.0)])
    >>> len(paced_shares(1, cs, None))  # nothing asked yet: one more of every class
    3
    """
    open_ = [c for c in classes if not c.exact]
    if prior is None:
        return shares(need, classes)
    pace = {id(c): max(guessed_pace(c, prior) if c.pace is None else c.pace, PACE_FLOOR) for c in open_}
    more = {id(c): 0 for c in open_}
    for _ in range(int(math.ceil(need))):
        c = min(open_, key=lambda c: (pace[id(c)] * (more[id(c)] + 1), -c.size))
        more[id(c)] += 1
    return [(c, c.lower + more[id(c)]) for c in open_ if more[id(c)]]


def guessed_pace(c: ClassBound, prior: float) -> float:
    """The pace of a class not asked yet: ``prior`` seconds per secret of each
    unit that 1 more needs (a split class: each of its guesses at its bound, each a search
    of the whole class)."""
    units = 1 if c.inner is None else max(1, sum(1 for g in c.inner if g.lower < c.lower + 1 and not g.exact))
    return c.size * prior * units


@dataclass
class RoundPlan:
    """The work units of a round: (class, budget), before big classes are split (see
    :meth:`RoundSearch.refine`) and the asks sorted, big classes first."""

    target: float
    asks: list[tuple[ClassBound, float]]
    guesses: list[GuessBound] = field(default_factory=list)  # the first guesses asked


Ask = tuple[ClassBound, float, "GuessBound | None"]
"""A work unit to send: a class, its budget, and the guess to make first in it (a guess of
a split class) or None."""


def inner_asks(c: ClassBound, budget: float, eldest: int | None = None) -> list[Ask]:
    """What a split class asked for ``budget`` asks of its guesses: each guess below the
    budget and not yet exact, as one unit with that guess first and the same budget, or
    the cost of its cheapest guess known when lower (a guess need not be proven dearer).

    ``eldest`` (a proof, which needs the class's exact cost in the end): young brothers
    wait. While no guess is exact, only the ``eldest`` most promising ones are asked, each
    for its exact cost; then every other guess for that cost at once (the depth-first
    search's order, its first guesses side by side), rather than round by round: asked
    for a share at a time, every guess of a big class is searched again each round."""
    assert c.inner is not None
    known = [g.lower for g in c.inner if g.exact]
    if eldest is not None and not known:
        return [(c, INF, g) for g in sorted(c.inner, key=lambda g: g.lower)[:eldest]]
    budget = min(known) if eldest is not None else min([budget, *known])
    return [(c, budget, g) for g in c.inner if g.lower < budget and not g.exact]


def plan_round(
    state: RootState, step: float, paced: bool = False, prior: float | None = None
) -> RoundPlan | None:
    """The next round's target and asks (None when nothing is left to do: proven, or no
    strategy at all, or every guess below the target is exact); ``paced``: a run that may
    stop asks its classes by their pace (:func:`paced_shares`, ``prior`` its seconds per
    secret so far), a proof, which needs the optimal first guess's classes exact in the
    end, by their size."""
    # the target steps up from the first guesses' own bound: a run continued below the floor
    # of earlier runs climbs back by small asks (each stored as it rises), not one huge ask
    lower = state.derived
    if state.proven or lower == INF:
        return None
    if state.upper < INF:
        step = min(step, max(1.0, (state.upper - lower) / 4))
    target = state.upper if lower + step >= state.upper else lower + math.ceil(step)
    asks: list[tuple[ClassBound, float]] = []
    asked = []
    for g in sorted(state.guesses, key=lambda g: g.lower):
        if g.lower >= target or g.exact:
            continue
        need = target - g.lower
        asks.extend(paced_shares(need, g.classes, prior) if paced else shares(need, g.classes))
        asked.append(g)
    if not asks:
        return None
    return RoundPlan(target, asks, asked)  # (the round sends them once refined: RoundSearch.run)


def next_step(step: float, seconds: float, aim: float = ROUND_SECONDS) -> float:
    """The target's next step: half as large again after a quick round, halved after a slow
    one (a round's cost grows much faster than its step).

    >>> from mastermind.engines.exact.anytime import next_step
    >>> next_step(10, 1.0), next_step(10, 100.0), next_step(10, 15.0), next_step(1, 100.0)
    (15.0, 5.0, 10, 1.0)
    """
    if seconds < aim / 4:
        return step * 1.5
    if seconds > aim * 2:
        return max(1.0, step / 2)
    return step


Report = Callable[[RootState], None]


Fresh = Callable[[], "tuple[float, Node] | None"]


class RoundSearch:
    """The root of one game raised round by round over a backend (``solver``'s set-up): its
    units go out through a :class:`~mastermind.engines.exact.dispatch.Dispatcher`, its
    progress through a :class:`~mastermind.engines.exact.reporting.ProgressReporter`. The
    threads of a backend that shares memory share ``memo`` (see
    :mod:`~mastermind.engines.exact._memo`), which grows between rounds; searches of their
    own get ``memory`` bytes each."""

    def __init__(
        self,
        solver: ExactSolver,
        backend: Backend,
        *,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
        cancel: CancelToken | None = None,
        memo: object | None = None,
        memory: int | None = None,
        round_seconds: float = ROUND_SECONDS,
        split_size: int | None = None,
        eldest: int | None = None,
    ) -> None:
        self.solver = solver
        self.checkpoint = checkpoint
        self.token = CancelToken() if cancel is None else cancel
        self.memo = memo
        self.round_seconds = round_seconds
        self.split_size = split_size
        self.eldest = eldest  # a proof's split classes: see inner_asks
        self.planner: Search = solver.new_search(cancel=self.token, memo=memo, memory=memory)
        spec = SearchSpec(
            str(solver.rules),
            solver.pool is Pool.CONSISTENT,
            1,
            0,
            len(solver.cands),
            None if solver.uniform else solver.search_weights,
            memory=memory,
        )
        self.reporter = ProgressReporter(progress)
        self.units = Dispatcher(backend, spec, self.token, self.reporter, checkpoint, memo=memo)
        self.rounds = 0
        self.splits = 0  # classes split so far
        self._floor_seconds = 0.0  # spent in _floor_split this run
        self._paced = [0.0, 0.0]  # seconds the classes asked took, and their secrets times their rises

    @property
    def counters(self) -> Counters:
        return self.units.counters

    @property
    def prior(self) -> float | None:
        """Seconds per secret and rise that the classes asked in this run took (None before
        any): the pace of a class not asked yet."""
        seconds, work = self._paced
        return seconds / work if work > 0 else None

    def root(self, cands: np.ndarray, r: int, group: Group) -> RootState:
        """Every first guess of the root's plan with its classes at their one-level bounds
        (sets of at most two secrets exact at once)."""
        planner = self.planner
        plan = planner.plan(cands, r, INF, group)
        n = len(cands)
        state = RootState(n, [], rest=float(plan.rest_min), price=self.price)
        if plan.exact_guess >= 0:
            state.offer(float(plan.exact_value), planner.build(cands, r, group, guess=plan.exact_guess))
            state.rest = min(state.rest, float(plan.exact_value))
        for guess in plan.guesses:
            state.guesses.append(self._guess(cands, r, group, guess, plan.most))
        return state

    def _guess(self, cands: np.ndarray, r: int, group: Group, guess: int, most: int) -> GuessBound:
        """``guess`` on ``cands`` (``r`` guesses left) with its classes at their bounds one
        level deeper, the checkpoint's answers where it has them, sets of at most two
        secrets exact at once."""
        planner = self.planner
        classes, bounds, own = guess_classes(planner, cands, r, group, guess, most)
        g = GuessBound(int(guess), float(own))
        for (sub, answer, child), bound in zip(classes, bounds):
            c = ClassBound(np.ascontiguousarray(sub, dtype=np.int32), child, answer, float(bound), left=r - 1)
            if len(sub) <= 2:
                c.lower = float(planner.small_cost(sub, r - 1))
                order = np.argsort(-planner.weights[sub], kind="stable")
                if c.lower < INF:
                    c.exact, c.node = True, planner.build(np.asarray(sub)[order], r - 1, child)
            else:
                c.lower = max(c.lower, self._class_floor(c, r - 1))
                # what earlier runs proved of this class, kept in the checkpoint: a run
                # continued starts from there rather than re-asking for it round by round
                kept = self.units.known(c.cands, r - 1, c.group)
                if kept is not None:
                    self.units.restored(c.size, kept[0], kept[1])
                if kept is not None and kept[1] is not None:
                    c.lower, c.exact, c.node = kept[0], True, kept[1]
                elif kept is not None:
                    c.lower = max(c.lower, kept[0])
            g.classes.append(c)
        return g

    def split(self, c: ClassBound) -> bool:
        """Search the class ``c`` as the root is searched from now on: its own guesses, each
        at its plan's bound (or the checkpoint's answer for it) and asked as a whole, so that
        a round asks many small units of it instead of one that may run for minutes, and
        every answer raises its bound. False (left whole for good) where its plan knows a
        guess's cost exactly at once, or no guess is left after this one."""
        if c.left <= 1 or c.exact:
            c.whole = True
            return False
        cands = c.cands.astype(self.solver.cands.dtype, copy=False)
        plan = self.planner.plan(cands, c.left, INF, c.group)
        if plan.exact_guess >= 0:
            c.whole = True
            return False
        c.inner = []
        for guess, bound in zip(plan.guesses, plan.bounds):
            g = GuessBound(int(guess), 0.0, floor=float(bound))
            kept = self.units.known(c.cands, c.left, c.group, guess=g.guess)
            if kept is not None:
                self.units.restored(c.size, kept[0], kept[1])
                g.floor = max(g.floor, kept[0])
                g.node = kept[1]
                c.kept.add(g.guess)
            c.inner.append(g)
        c.inner_rest = float(plan.rest_min)
        c.settle()
        self.splits += 1
        return True

    def refine(self, asks: list[tuple[ClassBound, float]], lead: GuessBound | None = None) -> list[Ask]:
        """A round's asks with every class of at least :attr:`split_size` secrets asked
        through its guesses (split when first asked). In a proof (:attr:`eldest`), only the
        classes of ``lead``, the one first guess asked, are split, and a split class is
        asked eldest guesses first from then on: the optimal first guess needs its classes'
        exact costs, the others only a bound, which one unit per class proves with fewer
        nodes (p4c9: 147 s against 100 s when the classes of the first guess of least bound
        were split)."""
        leading = set() if lead is None else {id(c) for c in lead.classes}
        out: list[Ask] = []
        for c, budget in asks:
            if (
                (self.eldest is None or id(c) in leading)
                and c.inner is None
                and not c.whole
                and self.split_size is not None
                # (or cut short by the stop of an earlier run: see Checkpoint.mark_cut)
                and (c.size >= self.split_size or self.units.was_cut(c.cands, c.left, c.group))
            ):
                self.split(c)
            if c.exact or c.lower >= budget:
                continue
            out.extend([(c, budget, None)] if c.inner is None else inner_asks(c, budget, self.eldest))
        return out

    def _class_floor(self, c: ClassBound, r: int) -> float:
        """A class's bound one level deeper: the least of the bounds of the guesses its own
        plan weighs (their classes at their counting bounds) and of those it leaves out.
        Cheap (one plan per class) and far above the counting bound at the top of a big game:
        6x5 starts at 70868 where the counting bounds give 68037."""
        if self.token.cancelled:  # a stop while planning: the counting bound stands
            return c.lower
        return self._set_floor(c.cands, r, c.group)

    def _set_floor(self, cands: np.ndarray, r: int, group: Group) -> float:
        """The bound one level deeper of a set of more than two secrets (see
        :meth:`_class_floor`), or what the memo proved of it when that is more."""
        # (in the dtype the search's own plans use: one compiled signature of each kernel)
        cands = cands.astype(self.solver.cands.dtype, copy=False)
        plan = self.planner.plan(cands, r, INF, group)
        least = min([float(plan.rest_min), *(float(b) for b in plan.bounds)])
        if plan.exact_guess >= 0:
            least = min(least, float(plan.exact_value))
        return max(least, self.planner.memo_bound(cands, r))

    def _guess_floor(self, c: ClassBound, guess: int) -> float:
        """What ``guess`` costs at least on the split class ``c``: its own cost and each of
        its classes at its bound one level deeper (:meth:`_set_floor`). A unit asked for a
        share of a guess stops at its budget, leaving the classes it did not reach at their
        counting bounds: 6x8n's class of 5430 secrets stood at 25058 after hours of rounds,
        where every one of its guesses is at least 25369 by its classes' own plans (0.1-2 s
        a guess)."""
        planner = self.planner
        cands = c.cands.astype(self.solver.cands.dtype, copy=False)
        classes, bounds, own = guess_classes(planner, cands, c.left, c.group, guess, planner.branching)
        total = own
        for (sub, _, child), bound in zip(classes, bounds):
            if self.token.cancelled:
                return -INF  # (what was summed so far is no bound of the guess)
            total += bound if len(sub) <= 2 else max(bound, self._set_floor(sub, c.left - 1, child))
        return total

    def _floor_split(self, c: ClassBound) -> bool:
        """Raise the guesses of a split class that hold its bound to :meth:`_guess_floor`,
        least first, until the least is one already raised or one no earlier run asked
        (a guess asked in this run, or to be asked, gets as much from its unit, which
        searches its every class for its own bound first: see ``_dfs.dfs``), within
        :data:`FLOOR_SECONDS` a run: only those guesses, of the dozens or hundreds a big
        class has, on which its bound rests, weighed here while no unit runs (5x6: 0.3-0.4 s
        each, 377-524 guesses a class). Whether any guess was raised."""
        raised = False
        while c.inner is not None and not c.exact and not self.token.cancelled:
            open_ = [g for g in c.inner if not g.exact]
            if not open_:
                break
            g = min(open_, key=lambda g: g.lower)
            if g.guess in c.floored or g.guess not in c.kept or self._floor_seconds >= FLOOR_SECONDS:
                break
            began = time.perf_counter()
            floor = self._guess_floor(c, g.guess)
            self._floor_seconds += time.perf_counter() - began
            if self.token.cancelled:
                break
            g.floor = max(g.floor, floor)
            c.floored.add(g.guess)
            c.settle()
            raised = True
        return raised

    def _floor_splits(self, state: RootState) -> None:
        """:meth:`_floor_split` for every split class of a run that may stop (a proof asks
        the eldest guesses of a split class for their exact costs: no bound needed)."""
        if self.eldest is not None:
            return
        raised = False
        for g in state.guesses:
            for c in g.classes:
                if c.inner is not None:
                    raised = self._floor_split(c) or raised
        if raised:  # (settling mends the strategy known: not each round for nothing)
            self._settle(state)

    def run(
        self,
        cands: np.ndarray,
        r: int,
        group: Group,
        *,
        fresh: Fresh | None = None,
        on_round: Report | None = None,
    ) -> RootState:
        """Raise the root's bound round by round until it meets the cheapest strategy known,
        or no strategy is left (none within ``r`` guesses), or the run is cancelled; what is
        known then. ``fresh``: called before each round, a cheaper strategy found meanwhile
        (its total and tree), or None."""
        reporter = self.reporter
        known = self.checkpoint.bounds() if self.checkpoint is not None else None
        if known is not None:  # what earlier runs proved counts from the start
            reporter.improve(lower=known.lower, upper=known.upper)
        reporter.start(None, "optimal: planning")
        self.units.start_run(self.solver.table)
        # (a stop before the root is planned proves nothing beyond the checkpoint's bounds)
        state = RootState(len(cands), [], rest=0.0, price=self.price)
        try:
            with self.token.running(reporter.status):
                state = self.root(cands, r, group)
                self._restore_paces(state)
                if known is not None:
                    self._split_kept(state)
                state.offer_exact()  # (classes a checkpoint knew exactly)
                if known is not None:
                    state.floor = known.lower
                    state.offer(known.upper, known.tree)
                # a run continued starts its classes where the checkpoint left them, close to
                # what they can prove soon: small steps first, or its first round may outlast it
                step = 1.0 if known is not None else max(1.0, state.lower * 0.0005)
                while not self.units.stopping():
                    found = None if fresh is None else fresh()
                    if found is not None:
                        state.offer(*found)
                    if state.proven or state.lower == INF:
                        break  # (decided: raising split classes' floors would be for nothing)
                    self._floor_splits(state)
                    reporter.improve(lower=state.lower, upper=state.upper)
                    plan = plan_round(state, step, self.eldest is None, self.prior)
                    if plan is None:
                        break
                    before = (state.derived, state.upper)
                    # (a proof splits the classes of a first guess once it is the only one
                    # asked: until then its classes may not need their exact costs)
                    splits = self.splits
                    asks = self.refine(plan.asks, plan.guesses[0] if len(plan.guesses) == 1 else None)
                    if self.splits > splits:
                        # a class split starts at what its guesses prove, in a continued run
                        # far above its plan's bound (5x8: its first guesses at 168213-169342
                        # below a checkpoint of 169698): planned again from there, rather than
                        # asking every class of a guess already proven for the target, some
                        # of them for minutes (a 652-secret class took 182 s to rise by 1)
                        self._settle(state)
                        continue
                    if not asks:  # the classes split met their asks on their own
                        self._settle(state)
                        if state.derived > before[0] or state.upper < before[1]:
                            continue
                        break
                    # big classes first: they take longest, and the small ones fill in the gaps
                    asks.sort(key=lambda ask: -ask[0].size)
                    began = time.perf_counter()
                    self._round(state, asks, fresh)
                    self._keep_paces(state)
                    self.rounds += 1
                    if on_round is not None:
                        on_round(state)
                    if self.memo is not None:
                        memo_grow(self.memo)  # no unit runs between rounds
                    step = next_step(step, time.perf_counter() - began, self.round_seconds)
        except Stopped:  # the planner's own search (planning, building a subtree) was stopped
            self.units.stopping()
        finally:
            self.units.end_run()
        if self.checkpoint is not None:
            kept = self.checkpoint.keep_bounds(RootBounds(state.lower, state.upper, state.tree))
            state.offer(kept.upper, kept.tree)
            state.floor = max(state.floor, kept.lower)
        reporter.settle(state.lower, state.proven, state.tree is not None, state.upper)
        reporter.finish(state.proven or state.lower == INF)  # (INF: proven that no strategy exists)
        return state

    def _round(self, state: RootState, asks: list[Ask], fresh: Fresh | None = None) -> None:
        """Send ``asks`` as units and raise the classes by their answers, as each comes; once
        the root is decided (proven, or no strategy at all), the units still out are dropped."""
        reporter = self.reporter
        reporter.total += len(asks)
        reporter.start(reporter.total, "optimal: work units")
        sent = []
        for c, budget, g in asks:
            guess, floor = (None, c.lower) if g is None else (g.guess, g.lower)
            sent.append((c, budget, g, self.units.submit(c.cands, c.left, budget, c.group, guess, floor)))
        began = {id(c): c.lower for c, _, _ in asks}
        spent: dict[int, float] = {}
        for i, (c, budget, g, pending) in enumerate(sent):
            result = self.units.collect(pending)
            spent[id(c)] = spent.get(id(c), 0.0) + result.seconds
            exact = result.proven and result.value < budget and result.tree is not None
            was_exact = c.exact
            if g is not None:
                g.floor = max(g.floor, float(result.value))
                if exact:
                    g.floor, g.node = float(result.value), result.tree
            elif exact:
                c.lower, c.exact, c.node = float(result.value), True, result.tree
            else:
                c.lower = max(c.lower, float(result.value))
            if self._decided(state, c, was_exact, fresh):
                self.units.drop([p for *_, p in sent[i + 1 :]])  # (they cannot change it)
                break
        self._settle(state)
        for c, _, _ in asks:
            if id(c) in spent:
                rise = max(1.0, c.lower - began[id(c)])
                seconds = spent.pop(id(c))
                c.pace = seconds / rise
                self._paced[0] += seconds
                self._paced[1] += c.size * rise
        reporter.improve(lower=state.lower, upper=state.upper)

    @staticmethod
    def _decided(state: RootState, c: ClassBound, was_exact: bool, fresh: Fresh | None) -> bool:
        """Whether the root is decided now that class ``c`` has its answer (or a cheaper
        strategy came from ``fresh``): ``c`` settled, and the strategy known mended when
        ``c`` became exact (a full :meth:`_settle` after every unit would price trees again
        and again)."""
        c.settle()
        if c.exact and not was_exact:
            state.offer_exact()
            state.mend_kept()
        found = None if fresh is None else fresh()
        if found is not None:
            state.offer(*found)
        return state.proven or state.lower == INF

    def _split_kept(self, state: RootState) -> None:
        """In a continued run that may stop, split every class that earlier runs asked
        through its guesses (its size at least :attr:`split_size`, or cut short) at once: its
        guesses' answers are in the checkpoint, but whole it starts at its plan's bound far
        below them, and a paced round may never ask it (6x8n: 107308 whole against 109936
        proven; split, 110420 at once, where 6300 s of rounds climbing back left 109936)."""
        if self.eldest is not None or self.split_size is None:
            return
        for g in state.guesses:
            for c in g.classes:
                if c.exact or c.inner is not None or c.whole:
                    continue
                if c.size >= self.split_size or self.units.was_cut(c.cands, c.left, c.group):
                    self.split(c)
        self._settle(state)

    def _restore_paces(self, state: RootState) -> None:
        """Start from the paces the checkpoint kept: a continued run's first round paced as
        the last run's rounds were, rather than asking every open class (5x8: hundreds of
        units, most of a row's hour, before any pace was known again)."""
        kept = self.checkpoint.paces() if self.checkpoint is not None else None
        if kept is None:
            return
        self._paced = [kept.seconds, kept.work]
        for g in state.guesses:
            for c in g.classes:
                c.pace = kept.classes.get(Paces.key(g.guess, c.answer), c.pace)

    def _keep_paces(self, state: RootState) -> None:
        if self.checkpoint is None:
            return
        kept = self.checkpoint.paces()
        classes = {} if kept is None else dict(kept.classes)
        for g in state.guesses:
            for c in g.classes:
                if c.pace is not None:
                    classes[Paces.key(g.guess, c.answer)] = c.pace
        self.checkpoint.keep_paces(Paces(self._paced[0], self._paced[1], classes))

    @staticmethod
    def _settle(state: RootState) -> None:
        """Raise every split class to what its guesses prove, keep the strategy of each
        first guess now exact, and mend the cheapest strategy known by the classes now
        known cheaper."""
        for g in state.guesses:
            for c in g.classes:
                c.settle()
        state.offer_exact()
        state.mend_kept()

    def price(self, node: Node, c: ClassBound) -> float:
        """What ``node``'s strategy costs over the secrets of ``c`` (with their weights)."""
        solver, planner = self.solver, self.planner
        depths = StrategyTree(solver.rules, node).depths(solver.table, c.cands)
        return float(planner.unit * np.dot(planner.weights[c.cands], depths))
