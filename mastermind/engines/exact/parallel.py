"""The exact search over several threads.

The search is compiled whole with numba and releases the GIL, so threads run it in parallel
without the start-up and copying of processes. Each job has a memo of its own.

The top of the search tree is expanded here, in Python, and the work below handed out as
jobs. At an expanded node the guesses are planned in order of bound (as the search would):

* the first guess is explored class by class, the classes in parallel ("and" split): class c
  gets the budget the node has left once every other class is counted at its bound, so
  each class value is exact or proves that the guess cannot beat the budget;
* every other guess is then one job with the best cost found so far as its budget ("or"
  split); jobs start as threads free up, each with the budget in force when it starts.

Sets of at least ``split_size`` secrets, down to ``split_depth`` levels, are expanded the
same way; smaller ones are one job each. The value is the same as the one-thread search
(tests compare them); only the work differs, since jobs share no memo and budgets are set
before sibling results are known.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.engines.exact._kernels import split_classes
from mastermind.engines.exact.search import INF, UNLIMITED, Search
from mastermind.core.tree import Node


def worker_count(jobs: int | None) -> int:
    """Threads for ``jobs`` (joblib's convention: -1 or 0 is every core, -2 all but one)."""
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    return max(1, jobs if jobs > 0 else cores + 1 + jobs)


class ParallelSearch:
    """One parallel run: the thread pool, the expanded top of the tree, the counters."""

    def __init__(self, solver, jobs: int, *, split_size: int = 400, split_depth: int = 2,
                 progress=None) -> None:
        self.solver = solver
        self.jobs = jobs
        self.split_size = split_size
        self.split_depth = split_depth
        self.progress = progress
        self.planner: Search = solver.new_search()
        self.nodes = 0
        self.memo_hits = 0
        self.pool = ThreadPoolExecutor(max_workers=jobs)

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    # ---- jobs ------------------------------------------------------------------------------
    def _job(self, cands: np.ndarray, r: int, budget, group, guess: int | None):
        search = self.solver.new_search()
        only = None if guess is None else [guess]
        value = search.solve(cands, r, budget, group, only=only)
        node = None
        if value < budget:
            node = search.build(cands, r, group, guess=guess)
        return value, node, search.nodes, search.memo_hits

    def submit(self, cands, r, budget, group, guess=None) -> Future:
        return self.pool.submit(self._job, cands, r, budget, group, guess)

    def collect(self, future: Future):
        value, node, nodes, hits = future.result()
        self.nodes += nodes
        self.memo_hits += hits
        if self.progress is not None:
            self.progress.advance(1)
        return value, node

    # ---- the expanded top ------------------------------------------------------------------
    def solve(self, cands: np.ndarray, r: int, budget, group, depth: int = 0):
        """``(value, tree)``: the exact cost and an optimal tree if below ``budget``, else a
        lower bound at least ``budget`` and None."""
        if len(cands) < self.split_size or depth >= self.split_depth or r <= 1:
            return self.collect(self.submit(cands, r, budget, group))
        self.nodes += 1
        plan = self.planner.plan(cands, r, budget, group)
        best, best_node, lower = budget, None, plan.rest_min
        if plan.exact_guess >= 0:
            if plan.exact_value < best:
                best = plan.exact_value
                best_node = self.planner.build(cands, r, group, guess=plan.exact_guess)
            else:
                lower = min(lower, plan.exact_value)
        if plan.guesses:
            first, first_bound = plan.guesses[0], plan.bounds[0]
            if first_bound < best:
                value, node = self.explore(cands, r, best, group, first, plan.most, depth)
                if value < best:
                    best, best_node = value, node
                else:
                    lower = min(lower, value)
            else:
                lower = min(lower, first_bound)
            rest = list(zip(plan.guesses[1:], plan.bounds[1:]))
            running: set[Future] = set()
            while rest or running:
                # a thread that frees up takes the next guess, with the best cost found so far
                while rest and len(running) < self.jobs:
                    g, bound = rest.pop(0)
                    if bound >= best:
                        lower = min(lower, bound)
                        continue
                    running.add(self.submit(cands, r, best, group, g))
                if not running:
                    break
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    value, node = self.collect(future)
                    if value < best:
                        best, best_node = value, node
                    else:
                        lower = min(lower, value)
        if best_node is not None:
            return best, best_node
        return max(lower, budget), None

    def explore(self, cands: np.ndarray, r: int, budget, group, guess: int, most: int, depth: int):
        """``(value, tree)`` of one guess at an expanded node, its classes solved in parallel."""
        search = self.planner
        w = search.weights[cands]
        own = search.unit * w.sum().item()
        table = search.node_tables(r - 1)[0][min(most, search.branching)]
        refine = r - 1 >= 3
        out, _, starts, sizes, answers, bounds = split_classes(
            search.scores, guess, cands, w, table, search.n_slots, search.win, search.unit, refine)
        bounds = bounds.tolist()
        acc = own + sum(bounds)
        if acc >= budget:
            return acc, None
        child = search.child_group(group, guess)
        classes = [out[int(s):int(s) + int(m)] for s, m in zip(starts, sizes)]
        order = sorted(range(len(classes)), key=lambda c: -len(classes[c]))
        futures: dict[int, Future] = {}
        values: dict[int, tuple] = {}
        # small classes first, as jobs, so that they run while the big ones are expanded
        for c in order:
            sub = classes[c]
            if len(sub) < self.split_size or depth + 1 >= self.split_depth:
                futures[c] = self.submit(sub, r - 1, budget - (acc - bounds[c]), child)
        for c in order:
            if c not in futures:
                values[c] = self.solve(classes[c], r - 1, budget - (acc - bounds[c]), child, depth + 1)
        for c, future in futures.items():
            values[c] = self.collect(future)
        total = own + sum(v for v, _ in values.values())
        if total >= budget or any(node is None for _, node in values.values()):
            return max(total, budget), None
        root = Node(int(guess), len(cands))
        for c in range(len(classes)):
            root.children[int(answers[c])] = values[c][1]
        return total, root


def solve_parallel(solver, *, objective: str, max_guesses, tie_break: bool, jobs: int, progress=None):
    """The plain-total optimum over ``jobs`` threads (other objectives and tie-breaks run in
    one thread)."""
    jobs = worker_count(jobs)
    if objective != "total" or tie_break or len(solver.cands) <= 2 or jobs == 1:
        return solver.run(objective=objective, max_guesses=max_guesses, tie_break=tie_break,
                          progress=progress)
    start = time.perf_counter()
    r = UNLIMITED if max_guesses is None else max_guesses
    if progress is not None:
        progress.start(None, "optimal: subproblems")
    search = ParallelSearch(solver, jobs, progress=progress)
    try:
        value, root = search.solve(solver.cands, r, INF, solver.group)
    finally:
        search.close()
    if root is None:
        raise MastermindError(f"no strategy solves every secret of {solver.rules} within {max_guesses} guesses")
    result = solver.result(root, objective=objective, max_guesses=max_guesses, nodes=search.nodes,
                           memo_hits=search.memo_hits, start=start)
    if solver.uniform and value * solver.scale != result.total and not result.weighted:
        raise AssertionError(f"search value {value} but the tree gives {result.total}")
    return result


def by_first_guess_parallel(solver, firsts, *, objective, max_guesses, tie_break, jobs, progress=None):
    """The optimum for each first guess, one thread per first guess."""
    if progress is not None:
        progress.start(len(firsts), "optimal: first guesses")
    out = []
    with ThreadPoolExecutor(max_workers=worker_count(jobs)) as pool:
        futures = [pool.submit(_run_first, solver.fork(), g, objective, max_guesses, tie_break)
                   for g in firsts]
        for future in futures:
            out.append(future.result())
            if progress is not None:
                progress.advance(1)
    return [r for r in out if r is not None]


def _run_first(solver, guess, objective, max_guesses, tie_break):
    try:
        return solver.run(objective=objective, max_guesses=max_guesses, first_guess=guess,
                          tie_break=tie_break)
    except MastermindError:
        if max_guesses is None and objective == "total":
            raise
        return None
