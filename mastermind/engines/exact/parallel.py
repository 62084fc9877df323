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

import time
import uuid
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from mastermind.core import cancel
from mastermind.core.errors import MastermindError
from mastermind.core.tree import Node
from mastermind.engines.exact._kernels import split_classes
from mastermind.engines.exact.backends import Backend, ThreadBackend, worker_count
from mastermind.engines.exact.search import INF, Search
from mastermind.engines.exact.units import (
    Outcome,
    Problem,
    Unit,
    forget_run,
    run_unit,
    set_run_flag,
    share_table,
)
from mastermind.engines.result import Counters

__all__ = ["Answer", "Driver", "worker_count"]

TINY = 2  # classes this small are solved on the spot, not sent out


@dataclass
class Answer:
    """What the driver knows about a set. ``proven``: ``value`` is exact below the budget
    (``node`` an optimal tree), else a lower bound at least the budget (``node`` None). Not
    proven (stopped): ``value`` is a lower bound; ``node`` the best strategy found (cost
    ``upper``), or None."""

    value: float
    proven: bool
    node: Node | None = None
    upper: float = INF


@dataclass
class _Pending:
    future: Future
    key: str
    budget: float
    floor: float  # a lower bound known before the unit runs (its plan or class bound)
    size: int
    reported: bool = False  # counted on the progress line (when it finished, or when collected)


class Driver:
    """One run over a backend: the expanded top of the tree, the counters, the stop."""

    def __init__(
        self,
        solver,
        backend: Backend,
        *,
        unit: int = 1,
        penalty: int = 0,
        split_size: int = 400,
        split_depth: int = 2,
        spread_size: int = 3000,
        progress=None,
        checkpoint=None,
        stop: np.ndarray | None = None,
        deadline: float | None = None,
    ) -> None:
        self.solver = solver
        self.backend = backend
        self.split_size = split_size
        self.split_depth = split_depth
        self.spread_size = spread_size
        self.progress = progress
        self.checkpoint = checkpoint
        self.flag = cancel.new_flag() if stop is None else stop
        self.deadline = deadline
        self.reason: str | None = None
        self.planner: Search = solver.new_search(unit, penalty, stop=self.flag)
        self.problem = Problem(
            str(solver.rules),
            solver.pool == "consistent",
            unit,
            penalty,
            len(solver.cands),
            None if solver.uniform else solver.search_weights,
        )
        self.run_id = uuid.uuid4().hex
        self.counters = Counters()
        self.done = 0
        self.total = 0
        self.lower: float = -INF  # proven lower bound on the root, for the progress line
        self.upper: float = INF
        self.start = time.perf_counter()
        self._plans: dict = {}
        self._finished: deque = deque()  # units whose future is done, to checkpoint and count
        self._stored: set[str] = set()
        self._ahead: dict[tuple[str, float], _Pending] = {}  # units sent out before they are asked for
        if backend.shares_memory:
            share_table(solver.table)
            set_run_flag(self.run_id, self.flag)

    # ---- stopping ---------------------------------------------------------------------------
    def stopping(self) -> bool:
        if not self.flag[0] and self.deadline is not None and time.monotonic() >= self.deadline:
            self.reason = self.reason or "time limit"
            self.flag[0] = 1
        if self.flag[0] and self.reason is None:
            timed_out = self.deadline is not None and time.monotonic() >= self.deadline
            self.reason = "time limit" if timed_out and not cancel.interrupted.is_set() else "interrupted"
            cancel.winding_down.set()
        return bool(self.flag[0])

    def _wait(self, futures) -> set:
        """Wait for at least one future (or a stop), polling so that Ctrl-C and the deadline
        are seen within a fraction of a second."""
        while True:
            self._take_finished()
            try:
                done, _ = wait(futures, timeout=0.1, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:
                cancel.interrupt()
                self.flag[0] = 1
                self.reason = "interrupted"
                done = set()
            if done:
                return done
            if self.stopping():
                if not self.backend.shares_memory:  # other processes do not see the flag
                    self.backend.stop_run(self.run_id)
                    self.backend.close(kill=True)
                done, _ = wait(futures, timeout=1.0)
                return set(futures) if not done else done

    # ---- units -----------------------------------------------------------------------------
    def submit(self, cands, r: int, budget, group, guess: int | None, floor) -> _Pending:
        unit = Unit(
            np.ascontiguousarray(cands, dtype=np.int32),
            int(r),
            float(budget),
            group[0],
            group[1],
            None if guess is None else int(guess),
        )
        key = unit.key()
        early = self._ahead.pop((key, float(budget)), None)
        if early is not None:
            return early
        stored = self.checkpoint.get(key) if self.checkpoint is not None else None
        future: Future = Future()
        ran = False
        if stored is not None:
            value, exact, tree = stored
            if exact and value < budget and tree is not None:
                future.set_result(Outcome(value, True, tree, reused=True))
            elif value >= budget:  # an exact value or a bound, at least this budget either way
                future.set_result(Outcome(value, True, None, reused=True))
            else:
                stored = None  # a bound below this budget: run it again
        if stored is None:
            if self.stopping():
                future.set_result(Outcome(float(floor), False, None))
            else:
                future = self.backend.submit(run_unit, self.problem, self.run_id, unit)
                ran = True
        pending = _Pending(future, key, float(budget), float(floor), len(cands))
        if ran:
            # checkpointed and counted as soon as it finishes, not when the search gets to it
            # (units finish in any order): a kill then loses only the units still running,
            # and the progress line moves while the driver waits for a long unit
            future.add_done_callback(partial(self._queue_finished, pending))
        return pending

    def _queue_finished(self, pending: _Pending, future: Future) -> None:
        self._finished.append(pending)  # any thread; the driver's thread takes it

    def _store(self, key: str, budget: float, outcome: Outcome) -> None:
        if key in self._stored or not outcome.proven or outcome.reused:
            return
        exact = outcome.value < budget
        if exact and outcome.tree is None:
            return
        self._stored.add(key)
        self.checkpoint.put(key, outcome.value, exact, outcome.tree)

    def _take_finished(self) -> None:
        """Checkpoint and count the units finished since the last call (their callbacks
        queue them)."""
        while self._finished:
            pending = self._finished.popleft()
            future = pending.future
            if future.cancelled() or future.exception() is not None:
                continue
            outcome = self._settled(pending, future.result())
            if self.checkpoint is not None:
                self._store(pending.key, pending.budget, outcome)
            if not pending.reported and (pending.key, pending.budget) not in self._ahead:
                # (a unit sent ahead counts once the search asks for it: a stop may skip it)
                pending.reported = True
                self._advance(pending, outcome)

    @staticmethod
    def _settled(pending: _Pending, outcome: Outcome) -> Outcome:
        """The outcome as the driver uses it: an exact value without its tree (a stopped
        build) is only a lower bound; a lower bound is at least what was known before."""
        if outcome.proven and outcome.value < pending.budget and outcome.tree is None:
            return replace(outcome, value=max(outcome.value, pending.floor), proven=False)
        if not outcome.proven and outcome.value < pending.floor:
            return replace(outcome, value=pending.floor, tree=None)
        return outcome

    def collect(self, pending: _Pending) -> Outcome:
        future = pending.future
        if not future.done():
            self._wait({future})
        try:
            outcome = future.result(timeout=0) if future.done() else None
        except Exception as exc:
            if not self.stopping():
                raise MastermindError(f"a work unit failed: {type(exc).__name__}: {exc}") from exc
            outcome = None
        if outcome is None:
            outcome = Outcome(pending.floor, False, None)
        self._take_finished()  # this one too, if it ran: lines come in the order units finish
        outcome = self._settled(pending, outcome)
        self.counters.add(outcome.nodes, outcome.memo_hits, 1, int(outcome.reused))
        if self.checkpoint is not None:
            self._store(pending.key, pending.budget, outcome)
        if not pending.reported:
            pending.reported = True
            self._advance(pending, outcome)
        return outcome

    def _advance(self, pending: _Pending | None, outcome: Outcome | None) -> None:
        self.done += 1
        if self.progress is None:
            return
        report = getattr(self.progress, "report", None)
        if report is None:
            self.progress.advance(1)
        else:  # a report counts the unit too
            fields = self._state()
            if pending is not None and outcome is not None:
                fields["unit"] = {
                    "size": pending.size,
                    "value": _num(outcome.value),
                    "exact": bool(outcome.proven and outcome.value < pending.budget),
                    "proven": outcome.proven,
                    "nodes": outcome.nodes,
                    "seconds": round(outcome.seconds, 3),
                    "reused": outcome.reused,
                }
            report(fields)

    def _state(self) -> dict:
        """Units done and the bounds so far, as the progress lines report them."""
        return {
            "done": self.done,
            "total": self.total,
            "lower_bound": _num(self.lower),
            "upper_bound": _num(self.upper),
            "seconds": round(time.perf_counter() - self.start, 3),
        }

    def skip(self, n: int = 1) -> None:
        """Units planned but not needed (their bound reached the budget): settled, so done.
        (Units a stopped search did not reach are not done: the progress and the report of a
        stopped run count the same units.)"""
        for _ in range(n):
            self._advance(None, None)

    # ---- the expanded top ------------------------------------------------------------------
    def expands(self, n: int, r: int, depth: int) -> bool:
        return n >= self.split_size and depth < self.split_depth and r > 1

    def spreads(self, n: int, depth: int) -> bool:
        """Whether every guess of the root is expanded into its classes, not only the first:
        a big root's other guesses would be units of minutes to hours, which leave workers
        idle at the end and lose the most work when a run is killed."""
        return depth == 0 and n >= self.spread_size

    def count_units(self, cands, r: int, group, depth: int = 0) -> int:
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

    def run(self, cands, r: int, budget=INF, group=None) -> Answer:
        """Solve the root; the progress total is counted first."""
        group = self.solver.group if group is None else group
        # what earlier runs proved about the whole game counts from the start: a run stopped
        # before it reaches the units it would reuse still reports it
        known = self.checkpoint.bounds() if self.checkpoint is not None and budget == INF else None
        if known is not None:
            self.lower, self.upper = max(self.lower, known.lower), min(self.upper, known.upper)
        if self.progress is not None:
            self.progress.start(None, "optimal: planning")
        try:
            with cancel.running(self.flag, self.status):
                self.total = self.count_units(cands, r, group)
                if self.progress is not None:
                    self.progress.start(self.total, "optimal: work units")
                w = self.planner.weights[cands]
                # every secret needs a guess, all but the one guessed first a second one
                floor = self.planner.unit * (2 * w.sum().item() - w.max().item())
                try:
                    answer = self.solve(cands, r, budget, group, floor=floor)
                except cancel.Stopped:  # the planner's own search (building a subtree) was stopped
                    self.stopping()  # names the reason: time limit or interrupted
                    answer = Answer(max(self.lower, floor), False)
        finally:
            self._take_finished()
            forget_run(self.run_id)
            self._plans.clear()
            self._ahead.clear()
        if self.checkpoint is not None and budget == INF:
            answer = self._keep_bounds(answer)
        if answer.proven:
            self.lower = answer.value
            self.upper = answer.value if answer.node is not None else INF
        else:
            self.lower = max(self.lower, answer.value)
            self.upper = answer.upper
        finish = getattr(self.progress, "finish", None)
        if finish is not None:  # the last unit's line may predate the final bounds
            finish({**self._state(), "proven": answer.proven})
        return answer

    def _keep_bounds(self, answer: Answer) -> Answer:
        """The answer with the bounds kept in the checkpoint, which keeps this one's too."""
        from mastermind.engines.exact.checkpoint import RootBounds

        if answer.proven:
            if answer.node is not None:  # (None: no strategy within the guesses allowed)
                self.checkpoint.keep_bounds(RootBounds(answer.value, answer.value, answer.node))
            return answer
        best = self.checkpoint.keep_bounds(RootBounds(answer.value, answer.upper, answer.node))
        if best.tree is not None and best.lower >= best.upper:  # a strategy at a proven bound
            return Answer(best.upper, True, best.tree)
        return Answer(best.lower, False, best.tree, best.upper)

    def status(self) -> str:
        return (
            f"stopped, not proven: lower bound {_text(self.lower)}, best strategy found "
            f"{_text(self.upper)} ({self.done} of {self.total} work units done)"
        )

    def _plan(self, cands, r, group):
        """The node plan (guesses in bound order), made once for counting and solving."""
        key = self._plan_key(cands, r)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self.planner.plan(cands, r, INF, group)
        return plan

    @staticmethod
    def _plan_key(cands, r: int) -> tuple[bytes, int]:
        return np.asarray(cands, dtype=np.int32).tobytes(), min(r, len(cands) + 1)

    def solve(self, cands, r: int, budget, group, depth: int = 0, floor: float = 0.0) -> Answer:
        """The answer for ``cands`` with ``r`` guesses left under ``budget`` (``floor``: a
        lower bound known beforehand)."""
        if len(cands) > TINY and self.stopping():  # (its units are not done: not counted)
            plan = self._plans.get(self._plan_key(cands, r))  # (no planning once stopped)
            known = -INF if plan is None else self._floor(plan, cands, r, group, depth)
            return Answer(max(floor, known), False)
        if len(cands) <= TINY or not self.expands(len(cands), r, depth):
            if len(cands) <= TINY:
                return self._tiny(cands, r, budget, group)
            outcome = self.collect(self.submit(cands, r, budget, group, None, floor))
            return _answer(outcome, budget)
        self.counters.add(nodes=1)
        plan = self._plan(cands, r, group)
        best, best_node, lower = budget, None, plan.rest_min
        if plan.exact_guess >= 0:
            if plan.exact_value < best:
                best = plan.exact_value
                best_node = self.planner.build(cands, r, group, guess=plan.exact_guess)
            else:
                lower = min(lower, plan.exact_value)
        if not plan.guesses:
            return (
                Answer(best, True, best_node) if best_node is not None else Answer(max(lower, budget), True)
            )
        fallback: Answer | None = None  # an unproven exploration (stop): its bound and strategy
        unfinished = INF  # least lower bound of the guesses left unproven
        if depth == 0 and best_node is not None:
            self.upper = min(self.upper, best)
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
                self.skip(self._planned_below(cands, r, group, g, plan.most, depth))
                continue
            got = self.explore(cands, r, best, group, g, plan.most, depth)
            if not got.proven:
                unfinished = min(unfinished, got.value)
                if fallback is None:
                    fallback = got
            elif got.value < best:
                best, best_node = got.value, got.node
                if depth == 0:
                    self.upper = min(self.upper, best)
            else:
                lower = min(lower, got.value)
        running: dict[Future, tuple[_Pending, int]] = {}
        while rest or running:
            # a worker that frees up takes the next guess, with the best cost found so far
            while rest and len(running) < self.backend.slots and not self.stopping():
                g, bound = rest.pop(0)
                if bound >= best:
                    lower = min(lower, bound)
                    self.skip()
                    continue
                pending = self.submit(cands, r, best, group, g, bound)
                running[pending.future] = (pending, g)
            if not running:
                break
            if depth == 0:
                self._root_bound(best, lower, unfinished, rest, running.values())
            for future in self._wait(set(running)):
                pending, g = running.pop(future)
                outcome = self.collect(pending)
                if not outcome.proven:
                    unfinished = min(unfinished, outcome.value)
                elif outcome.value < best:
                    best, best_node = outcome.value, outcome.tree
                    if depth == 0:
                        self.upper = min(self.upper, best)
                else:
                    lower = min(lower, outcome.value)
            if self.stopping() and not running:
                break
        if self.stopping() and (rest or fallback is not None or unfinished < INF):
            # every guess is counted at the least of its bounds: refuted, found, unfinished, not reached
            bound = min([lower, best, unfinished] + [b for _, b in rest])
            if (
                fallback is not None
                and fallback.node is not None
                and (best_node is None or fallback.upper < best)
            ):
                return Answer(bound, False, fallback.node, fallback.upper)
            return Answer(bound, False, best_node, best if best_node is not None else INF)
        if best_node is not None:
            return Answer(best, True, best_node)
        return Answer(max(lower, budget), True)

    def _root_bound(self, best, lower, unfinished, rest, running) -> None:
        """The proven lower bound on the root while its guesses run (for the progress line)."""
        self.lower = max(
            self.lower, min([best, lower, unfinished] + [b for _, b in rest] + [p.floor for p, _ in running])
        )

    def _tiny(self, cands, r, budget, group) -> Answer:
        value = self.planner.small_cost(cands, r)
        if value >= budget:
            return Answer(max(value, budget), True)
        order = np.argsort(-self.planner.weights[cands], kind="stable")
        return Answer(value, True, self.planner.build(np.asarray(cands)[order], r, group))

    def _classes(self, cands, r, group, guess, most):
        search = self.planner
        w = search.weights[cands]
        table = search.node_tables(r - 1)[0][min(most, search.branching)]
        out, _, starts, sizes, answers, bounds = split_classes(
            search.scores, guess, cands, w, table, search.n_slots, search.win, search.unit, r - 1 >= 3
        )
        child = search.child_group(group, guess)
        classes = [(out[int(s) : int(s) + int(m)], int(a), child) for s, m, a in zip(starts, sizes, answers)]
        return classes, [search._as_cost(b) for b in bounds.tolist()], search.unit * w.sum().item()

    def ordered_guesses(self, cands, r: int, group, plan, depth: int) -> list[tuple[int, float]]:
        """The guesses to try on an expanded set, in order, with their lower bounds: the
        plan's, and at the root each guess's two-level bound, in that order (ties in plan
        order), a better guide to the best guess than one level (4x7: 127 k nodes, not 159 k)."""
        if depth > 0:
            return list(zip(plan.guesses, plan.bounds))
        floors = [
            (g, self._guess_floor(cands, r, group, g, plan.most, b))
            for g, b in zip(plan.guesses, plan.bounds)
        ]
        return sorted(floors, key=lambda guess_floor: guess_floor[1])

    def _class_floors(self, classes, bounds, r: int, depth: int) -> list:
        """The classes' lower bounds: at the root, the least bound of the guesses each class's
        plan tries (a second level of lookahead, planned once per run), else the bound of the
        class alone. On big games the second level is what a stopped run can prove for the
        guesses it did not reach (5x6: 35583 against 34464 for the root's guesses)."""
        if depth > 0:
            return bounds
        return [
            max(b, self._floor(self._plan(sub, r - 1, child), sub, r - 1, child, depth + 1))
            if len(sub) > TINY
            else b
            for (sub, _, child), b in zip(classes, bounds)
        ]

    def _floor(self, plan, cands, r: int, group, depth: int) -> float:
        """A lower bound on a set's cost: the least bound of every guess its plan weighed."""
        first = [b for _, b in self.ordered_guesses(cands, r, group, plan, depth)[:1]]
        exact = [plan.exact_value] if plan.exact_guess >= 0 else []
        return min([*first, *exact, plan.rest_min])

    def _guess_floor(self, cands, r: int, group, guess: int, most: int, bound) -> float:
        """A root guess's lower bound: its cost and its classes' floors (at least ``bound``)."""
        classes, bounds, own = self._classes(cands, r, group, guess, most)
        return max(bound, own + sum(self._class_floors(classes, bounds, r, 0)))

    def _send_ahead(self, cands, r: int, budget, group, depth: int) -> None:
        """Send out now the units that solving this expanded set starts with (the classes of
        its first guess, as :meth:`solve` and :meth:`explore` will ask for them), so that the
        workers have them while the driver still waits on the sets before it; ``submit``
        then hands these back instead of sending them again. The work is the same: class
        budgets do not depend on the other sets' results."""
        if self.stopping():  # (depth is at least 1: a set sent ahead is never a spread root)
            return
        plan = self._plan(cands, r, group)
        if not plan.guesses:
            return
        best = plan.exact_value if 0 <= plan.exact_guess and plan.exact_value < budget else budget
        guess, bound = plan.guesses[0], plan.bounds[0]
        if bound >= best:
            return
        classes, bounds, own = self._classes(cands, r, group, guess, plan.most)
        acc = own + sum(bounds)
        if acc >= best:
            return
        for c, (sub, _, child) in enumerate(classes):
            if len(sub) > TINY and not self.expands(len(sub), r - 1, depth + 1):
                early = self.submit(sub, r - 1, best - (acc - bounds[c]), child, None, bounds[c])
                # kept even when already done (a quick unit, or one from the checkpoint): the
                # search's own submit must get this one back, not send it again
                self._ahead[(early.key, early.budget)] = early

    def _planned_below(self, cands, r, group, guess, most, depth) -> int:
        return sum(
            self.count_units(sub, r - 1, child, depth + 1)
            for sub, _, child in self._classes(cands, r, group, guess, most)[0]
            if len(sub) > TINY
        )

    def explore(self, cands, r: int, budget, group, guess: int, most: int, depth: int) -> Answer:
        """The answer for one guess at an expanded node, its classes solved at once."""
        classes, bounds, own = self._classes(cands, r, group, guess, most)
        bounds = self._class_floors(classes, bounds, r, depth)
        acc = own + sum(bounds)
        if acc >= budget:
            self.skip(self._planned_below(cands, r, group, guess, most, depth))
            return Answer(acc, True)
        order = sorted(range(len(classes)), key=lambda c: -len(classes[c][0]))
        pending: dict[int, _Pending] = {}
        answers: dict[int, Answer] = {}
        # small classes first, as units, so that they run while the big ones are expanded
        for c in order:
            sub, _, child = classes[c]
            class_budget = budget - (acc - bounds[c])
            if len(sub) <= TINY:
                answers[c] = self._tiny(sub, r - 1, class_budget, child)
            elif not self.expands(len(sub), r - 1, depth + 1):
                pending[c] = self.submit(sub, r - 1, class_budget, child, None, bounds[c])
        later = [c for c in order if c not in pending and c not in answers]
        for c in later[1:]:
            sub, _, child = classes[c]
            self._send_ahead(sub, r - 1, budget - (acc - bounds[c]), child, depth + 1)
        for c in later:
            sub, _, child = classes[c]
            answers[c] = self.solve(sub, r - 1, budget - (acc - bounds[c]), child, depth + 1, bounds[c])
        for c, p in pending.items():
            answers[c] = _answer(self.collect(p), p.budget)
        # every class value is exact or a lower bound, so the sum bounds the guess from below
        total = own + sum(a.value for a in answers.values())
        if total >= budget:
            return Answer(total, True)
        # proven: every class has its tree; stopped: a strategy when every class has one
        children: dict[int, Node] = {}
        upper = own
        for c, (_, answer, _) in enumerate(classes):
            a = answers[c]
            if a.node is None:
                return Answer(total, False, None, INF)
            children[answer] = a.node
            upper += a.value if a.proven else a.upper
        root = Node(int(guess), len(cands))
        root.children.update(children)
        if all(a.proven for a in answers.values()):
            return Answer(total, True, root)
        return Answer(total, False, root, upper)


def _answer(outcome: Outcome, budget) -> Answer:
    if outcome.proven:
        return Answer(outcome.value, True, outcome.tree if outcome.value < budget else None)
    return Answer(outcome.value, False)


def _num(value):
    if value is None or value in (INF, -INF):
        return None
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _text(value) -> str:
    return "none yet" if value in (INF, -INF, None) else str(value)


def make_driver(
    solver, *, backend: str = "threads", jobs: int = 1, scheduler: str | None = None, **options
) -> Driver:
    """A driver over a new backend (close it with ``driver.backend.close()``)."""
    from mastermind.engines.exact.backends import make_backend

    return Driver(solver, make_backend(backend, worker_count(jobs), scheduler), **options)


__all__ += ["ThreadBackend", "make_driver"]
