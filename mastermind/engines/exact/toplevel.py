"""The top of the exact search, cut into work units for threads, processes or a Dask cluster.

The same branch and bound as the compiled search (:func:`mastermind.engines.exact._dfs.dfs`),
whose node planning (``Search.plan``: guesses in bound order, one per partition) it shares;
only the top levels run here, in Python, so that their work can be handed out:

* the first guess of an expanded node is explored class by class, the classes at once ("and"
  split): class c gets the budget the node has left once every other class is counted at its
  bound, so each class value is exact or proves that the guess cannot beat the budget;
* every other guess is then one unit with the best cost found so far as its budget ("or"
  split), dispatched as a worker frees up; at a root of at least ``spread_size`` secrets
  every other guess is explored class by class as well, in bound order, so that no unit
  runs for long (idle workers at the end, work lost when a run is killed).

At the root, each guess is bounded with two levels of lookahead (each class at the least
bound of the guesses its own plan weighs) and the guesses are taken in that order; deeper
sets use the one-level bounds of the compiled search.

Sets of at least ``split_size`` secrets, down to ``split_depth`` levels, are expanded; smaller
ones are one unit each. Finished units go to the checkpoint, if any, and a unit found there is
not run again. A stop (Ctrl-C, time limit) ends the run with what is proven: a lower bound on
the optimum (every guess is counted at the least of its bounds) and the best strategy found.
"""

from __future__ import annotations

from collections.abc import Collection
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.progress import Progress
from mastermind.core.tree import Node
from mastermind.engines.exact.backends import Backend
from mastermind.engines.exact.checkpoint import Checkpoint, RootBounds
from mastermind.engines.exact.dispatch import Dispatcher, Pending
from mastermind.engines.exact.options import Tuning
from mastermind.engines.exact.partition import Class, Group, guess_classes
from mastermind.engines.exact.reporting import ProgressReporter
from mastermind.engines.exact.search import INF, NodePlan, Search
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.units import SearchSpec, UnitResult
from mastermind.engines.result import Counters

__all__ = ["SubtreeResult", "TopSearch"]

TINY = 2  # classes this small are solved on the spot, not sent out


@dataclass(frozen=True)
class SubtreeResult:
    """What the top-level search knows about a set. ``proven``: ``value`` is exact below the
    budget (``tree`` an optimal strategy), else a lower bound at least the budget (``tree``
    None). Not proven (stopped): ``value`` is a lower bound; ``tree`` the best strategy found
    (cost ``upper``), or None."""

    value: float
    proven: bool
    tree: Node | None = None
    upper: float = INF


class TopSearch:
    """The expanded top of the tree over a backend, for one game (``solver``'s set-up): the
    node plans, the guesses tried in bound order, and the root's bounds. Its units go out
    through a :class:`~mastermind.engines.exact.dispatch.Dispatcher` (``self.units``), its
    progress through a :class:`~mastermind.engines.exact.reporting.ProgressReporter`
    (``self.reporter``). Costs: each guess costs ``guess_cost`` per unit of weight, plus
    ``penalty`` at the last level (the tie-break's costs)."""

    def __init__(
        self,
        solver: ExactSolver,
        backend: Backend,
        *,
        guess_cost: int = 1,
        penalty: int = 0,
        tuning: Tuning | None = None,
        progress: Progress | None = None,
        checkpoint: Checkpoint | None = None,
        cancel: CancelToken | None = None,
    ) -> None:
        tuning = Tuning() if tuning is None else tuning
        self.solver = solver
        self.backend = backend
        self.split_size = tuning.split_size
        self.split_depth = tuning.split_depth
        self.spread_size = tuning.spread_size
        self.checkpoint = checkpoint
        self.token = CancelToken() if cancel is None else cancel
        self.planner: Search = solver.new_search(guess_cost, penalty, cancel=self.token)
        spec = SearchSpec(
            str(solver.rules),
            solver.pool == "consistent",
            guess_cost,
            penalty,
            len(solver.cands),
            None if solver.uniform else solver.search_weights,
        )
        self.reporter = ProgressReporter(progress)
        self.units = Dispatcher(backend, spec, self.token, self.reporter, checkpoint)
        self.expanded = 0  # nodes expanded here (the units count their own)
        self._plans: dict[tuple[bytes, int], NodePlan] = {}

    @property
    def counters(self) -> Counters:
        """The work of the run: the nodes expanded here and the units' work."""
        return self.units.counters + Counters(nodes=self.expanded)

    def stopping(self) -> bool:
        return self.units.stopping()

    # ---- the root ------------------------------------------------------------------------------
    def run(
        self, cands: np.ndarray, r: int, budget: float = INF, group: Group | None = None
    ) -> SubtreeResult:
        """Solve the root ``cands`` with ``r`` guesses left under ``budget`` (INF: the optimum;
        finite: the exact cost if below it, else a proof that it is at least that); the
        progress total is counted first."""
        group = self.solver.group if group is None else group
        reporter = self.reporter
        # what earlier runs proved about the whole game counts from the start: a run stopped
        # before it reaches the units it would reuse still reports it
        known = self.checkpoint.bounds() if self.checkpoint is not None and budget == INF else None
        if known is not None:
            reporter.improve(lower=known.lower, upper=known.upper)
        reporter.start(None, "optimal: planning")
        self.units.start_run(self.solver.table)
        try:
            with self.token.running(reporter.status):
                reporter.total = self.count_units(cands, r, group)
                reporter.start(reporter.total, "optimal: work units")
                w = self.planner.weights[cands]
                # every secret needs a guess, all but the one guessed first a second one
                floor = self.planner.unit * (2 * w.sum().item() - w.max().item())
                try:
                    answer = self.solve(cands, r, budget, group, floor=floor)
                except Stopped:  # the planner's own search (building a subtree) was stopped
                    self.stopping()  # (the run winds down)
                    answer = SubtreeResult(max(reporter.lower, floor), False)
        finally:
            self.units.end_run()
            self._plans.clear()
        if self.checkpoint is not None and budget == INF:
            answer = self._keep_bounds(self.checkpoint, answer)
        reporter.settle(answer.value, answer.proven, answer.tree is not None, answer.upper)
        reporter.finish(answer.proven)
        return answer

    @staticmethod
    def _keep_bounds(checkpoint: Checkpoint, answer: SubtreeResult) -> SubtreeResult:
        """The answer with the bounds kept in the checkpoint, which keeps this one's too."""
        if answer.proven:
            if answer.tree is not None:  # (None: no strategy within the guesses allowed)
                checkpoint.keep_bounds(RootBounds(answer.value, answer.value, answer.tree))
            return answer
        best = checkpoint.keep_bounds(RootBounds(answer.value, answer.upper, answer.tree))
        if best.tree is not None and best.lower >= best.upper:  # a strategy at a proven bound
            return SubtreeResult(best.upper, True, best.tree)
        return SubtreeResult(best.lower, False, best.tree, best.upper)

    # ---- what is expanded, and how many units a run has ------------------------------------------
    def expands(self, n: int, r: int, depth: int) -> bool:
        return n >= self.split_size and depth < self.split_depth and r > 1

    def spreads(self, n: int, depth: int) -> bool:
        """Whether every guess of the root is expanded into its classes, not only the first:
        a big root's other guesses would be units of minutes to hours, which leave workers
        idle at the end and lose the most work when a run is killed."""
        return depth == 0 and n >= self.spread_size

    def count_units(self, cands: np.ndarray, r: int, group: Group, depth: int = 0) -> int:
        """How many units a run sends out when nothing is cut (the progress total)."""
        if not self.expands(len(cands), r, depth):
            return 1
        if self.stopping():
            return 1
        plan = self._plan(cands, r, group)
        if not plan.guesses:
            return 0
        guesses = [g for g, _ in self.ordered_guesses(cands, r, group, plan, depth)]
        spread = guesses if self.spreads(len(cands), depth) else guesses[:1]
        n = len(guesses) - len(spread)
        for guess in spread:
            n += self._planned_below(cands, r, group, guess, plan.most, depth)
        return n

    def _planned_below(
        self, cands: np.ndarray, r: int, group: Group, guess: int, most: int, depth: int
    ) -> int:
        return sum(
            self.count_units(sub, r - 1, child, depth + 1)
            for sub, _, child in guess_classes(self.planner, cands, r, group, guess, most)[0]
            if len(sub) > TINY
        )

    def _plan(self, cands: np.ndarray, r: int, group: Group) -> NodePlan:
        """The node plan (guesses in bound order), made once for counting and solving."""
        key = self._plan_key(cands, r)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self.planner.plan(cands, r, INF, group)
        return plan

    @staticmethod
    def _plan_key(cands: np.ndarray, r: int) -> tuple[bytes, int]:
        return np.asarray(cands, dtype=np.int32).tobytes(), min(r, len(cands) + 1)

    # ---- the search ----------------------------------------------------------------------------
    def solve(
        self, cands: np.ndarray, r: int, budget: float, group: Group, depth: int = 0, floor: float = 0.0
    ) -> SubtreeResult:
        """The answer for ``cands`` with ``r`` guesses left under ``budget`` (``floor``: a
        lower bound known beforehand)."""
        if len(cands) > TINY and self.stopping():  # (its units are not done: not counted)
            plan = self._plans.get(self._plan_key(cands, r))  # (no planning once stopped)
            known = -INF if plan is None else self._floor(plan, cands, r, group, depth)
            return SubtreeResult(max(floor, known), False)
        if len(cands) <= TINY or not self.expands(len(cands), r, depth):
            if len(cands) <= TINY:
                return self._tiny(cands, r, budget, group)
            result = self.units.collect(self.units.submit(cands, r, budget, group, None, floor))
            return _subtree(result, budget)
        self.expanded += 1
        plan = self._plan(cands, r, group)
        best, best_node, lower = budget, None, plan.rest_min
        if plan.exact_guess >= 0:
            if plan.exact_value < best:
                best = plan.exact_value
                best_node = self.planner.build(cands, r, group, guess=plan.exact_guess)
            else:
                lower = min(lower, plan.exact_value)
        if not plan.guesses:
            if best_node is not None:
                return SubtreeResult(best, True, best_node)
            return SubtreeResult(max(lower, budget), True)
        fallback: SubtreeResult | None = None  # an unproven exploration (stop): its bound and strategy
        unfinished = INF  # least lower bound of the guesses left unproven
        if depth == 0 and best_node is not None:
            self.reporter.improve(upper=best)
        rest = self.ordered_guesses(cands, r, group, plan, depth)
        # expanded class by class: the best guess, or every guess at a spread root; the others
        # go out whole, one unit each, below
        explored = len(rest) if self.spreads(len(cands), depth) else 1
        while explored and rest:
            explored -= 1
            if depth == 0:
                self._root_bound(best, lower, unfinished, rest, [])
            if self.stopping():  # the units of the guesses left are not done: not counted
                break
            g, bound = rest.pop(0)
            if bound >= best:
                lower = min(lower, bound)
                self.reporter.skip(self._planned_below(cands, r, group, g, plan.most, depth))
                continue
            got = self.explore(cands, r, best, group, g, plan.most, depth)
            if not got.proven:
                unfinished = min(unfinished, got.value)
                if fallback is None:
                    fallback = got
            elif got.value < best:
                best, best_node = got.value, got.tree
                if depth == 0:
                    self.reporter.improve(upper=best)
            else:
                lower = min(lower, got.value)
        running: dict[Future, tuple[Pending, int]] = {}
        while rest or running:
            # a worker that frees up takes the next guess, with the best cost found so far
            while rest and len(running) < self.backend.slots and not self.stopping():
                g, bound = rest.pop(0)
                if bound >= best:
                    lower = min(lower, bound)
                    self.reporter.skip()
                    continue
                pending = self.units.submit(cands, r, best, group, g, bound)
                running[pending.future] = (pending, g)
            if not running:
                break
            if depth == 0:
                self._root_bound(best, lower, unfinished, rest, running.values())
            for future in self.units.wait(set(running)):
                pending, g = running.pop(future)
                result = self.units.collect(pending)
                if not result.proven:
                    unfinished = min(unfinished, result.value)
                elif result.value < best:
                    best, best_node = result.value, result.tree
                    if depth == 0:
                        self.reporter.improve(upper=best)
                else:
                    lower = min(lower, result.value)
            if self.stopping() and not running:
                break
        if self.stopping() and (rest or fallback is not None or unfinished < INF):
            # every guess is counted at the least of its bounds: refuted, found, unfinished, not reached
            bound = min([lower, best, unfinished] + [b for _, b in rest])
            if (
                fallback is not None
                and fallback.tree is not None
                and (best_node is None or fallback.upper < best)
            ):
                return SubtreeResult(bound, False, fallback.tree, fallback.upper)
            return SubtreeResult(bound, False, best_node, best if best_node is not None else INF)
        if best_node is not None:
            return SubtreeResult(best, True, best_node)
        return SubtreeResult(max(lower, budget), True)

    def _root_bound(
        self,
        best: float,
        lower: float,
        unfinished: float,
        rest: list[tuple[int, float]],
        running: Collection[tuple[Pending, int]],
    ) -> None:
        """The proven lower bound on the root while its guesses run (for the progress line)."""
        self.reporter.improve(
            lower=min([best, lower, unfinished] + [b for _, b in rest] + [p.floor for p, _ in running])
        )

    def _tiny(self, cands: np.ndarray, r: int, budget: float, group: Group) -> SubtreeResult:
        value = self.planner.small_cost(cands, r)
        if value >= budget:
            return SubtreeResult(max(value, budget), True)
        order = np.argsort(-self.planner.weights[cands], kind="stable")
        return SubtreeResult(value, True, self.planner.build(np.asarray(cands)[order], r, group))

    # ---- bounds of guesses and classes ---------------------------------------------------------
    def ordered_guesses(
        self, cands: np.ndarray, r: int, group: Group, plan: NodePlan, depth: int
    ) -> list[tuple[int, float]]:
        """The guesses to try on an expanded set, in order, with their lower bounds: the
        plan's, and at the root each guess's two-level bound, in that order (ties in plan
        order), a better guide to the best guess than one level (benchmarks/NOTES.md)."""
        if depth > 0:
            return list(zip(plan.guesses, plan.bounds))
        floors = [
            (g, self._guess_floor(cands, r, group, g, plan.most, b))
            for g, b in zip(plan.guesses, plan.bounds)
        ]
        return sorted(floors, key=lambda guess_floor: guess_floor[1])

    def _class_floors(self, classes: list[Class], bounds: list[float], r: int, depth: int) -> list[float]:
        """The classes' lower bounds: at the root, the least bound of the guesses each class's
        plan tries (a second level of lookahead, planned once per run), else the bound of the
        class alone. On big games the second level is what a stopped run can prove for the
        guesses it did not reach (benchmarks/NOTES.md)."""
        if depth > 0:
            return bounds
        return [
            max(b, self._floor(self._plan(sub, r - 1, child), sub, r - 1, child, depth + 1))
            if len(sub) > TINY
            else b
            for (sub, _, child), b in zip(classes, bounds)
        ]

    def _floor(self, plan: NodePlan, cands: np.ndarray, r: int, group: Group, depth: int) -> float:
        """A lower bound on a set's cost: the least bound of every guess its plan weighed."""
        first = [b for _, b in self.ordered_guesses(cands, r, group, plan, depth)[:1]]
        exact = [plan.exact_value] if plan.exact_guess >= 0 else []
        return min([*first, *exact, plan.rest_min])

    def _guess_floor(
        self, cands: np.ndarray, r: int, group: Group, guess: int, most: int, bound: float
    ) -> float:
        """A root guess's lower bound: its cost and its classes' floors (at least ``bound``)."""
        classes, bounds, own = guess_classes(self.planner, cands, r, group, guess, most)
        return max(bound, own + sum(self._class_floors(classes, bounds, r, 0)))

    def _send_ahead(self, cands: np.ndarray, r: int, budget: float, group: Group, depth: int) -> None:
        """Send out now the units that solving this expanded set starts with (the classes of
        its first guess, as :meth:`solve` and :meth:`explore` will ask for them), so that the
        workers have them while the search still waits on the sets before it; the
        dispatcher then hands these back instead of sending them again. The work is the
        same: class budgets do not depend on the other sets' results."""
        if self.stopping():  # (depth is at least 1: a set sent ahead is never a spread root)
            return
        plan = self._plan(cands, r, group)
        if not plan.guesses:
            return
        best = plan.exact_value if 0 <= plan.exact_guess and plan.exact_value < budget else budget
        guess, bound = plan.guesses[0], plan.bounds[0]
        if bound >= best:
            return
        classes, bounds, own = guess_classes(self.planner, cands, r, group, guess, plan.most)
        acc = own + sum(bounds)
        if acc >= best:
            return
        for c, (sub, _, child) in enumerate(classes):
            if len(sub) > TINY and not self.expands(len(sub), r - 1, depth + 1):
                self.units.send_ahead(sub, r - 1, best - (acc - bounds[c]), child, bounds[c])

    def explore(
        self, cands: np.ndarray, r: int, budget: float, group: Group, guess: int, most: int, depth: int
    ) -> SubtreeResult:
        """The answer for one guess at an expanded node, its classes solved at once."""
        classes, bounds, own = guess_classes(self.planner, cands, r, group, guess, most)
        bounds = self._class_floors(classes, bounds, r, depth)
        acc = own + sum(bounds)
        if acc >= budget:
            self.reporter.skip(self._planned_below(cands, r, group, guess, most, depth))
            return SubtreeResult(acc, True)
        order = sorted(range(len(classes)), key=lambda c: -len(classes[c][0]))
        pending: dict[int, Pending] = {}
        answers: dict[int, SubtreeResult] = {}
        # small classes first, as units, so that they run while the big ones are expanded
        for c in order:
            sub, _, child = classes[c]
            class_budget = budget - (acc - bounds[c])
            if len(sub) <= TINY:
                answers[c] = self._tiny(sub, r - 1, class_budget, child)
            elif not self.expands(len(sub), r - 1, depth + 1):
                pending[c] = self.units.submit(sub, r - 1, class_budget, child, None, bounds[c])
        later = [c for c in order if c not in pending and c not in answers]
        for c in later[1:]:
            sub, _, child = classes[c]
            self._send_ahead(sub, r - 1, budget - (acc - bounds[c]), child, depth + 1)
        for c in later:
            sub, _, child = classes[c]
            answers[c] = self.solve(sub, r - 1, budget - (acc - bounds[c]), child, depth + 1, bounds[c])
        for c, p in pending.items():
            answers[c] = _subtree(self.units.collect(p), p.budget)
        # every class value is exact or a lower bound, so the sum bounds the guess from below
        total = own + sum(a.value for a in answers.values())
        if total >= budget:
            return SubtreeResult(total, True)
        # proven: every class has its tree; stopped: a strategy when every class has one
        children: dict[int, Node] = {}
        upper = own
        for c, (_, answer, _) in enumerate(classes):
            a = answers[c]
            if a.tree is None:
                return SubtreeResult(total, False, None, INF)
            children[answer] = a.tree
            upper += a.value if a.proven else a.upper
        root = Node(int(guess), len(cands))
        root.children.update(children)
        if all(a.proven for a in answers.values()):
            return SubtreeResult(total, True, root)
        return SubtreeResult(total, False, root, upper)


def _subtree(result: UnitResult, budget: float) -> SubtreeResult:
    if result.proven:
        return SubtreeResult(result.value, True, result.tree if result.value < budget else None)
    return SubtreeResult(result.value, False)
