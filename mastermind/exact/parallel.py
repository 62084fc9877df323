"""The exact search over several threads, splitting at the first guess.

The search is compiled whole with numba and releases the GIL, so threads run it in
parallel without the start-up and copying of processes; each thread has its own memo.

Phase 1 solves the classes of the most promising first guess in parallel (they are disjoint
sets, so separate memos lose nothing, and the value is needed exactly anyway), largest class
first. Phase 2 checks every other canonical first guess in parallel against that value as a
budget; any that beats it replaces it. Objectives other than the plain total, and
tie-breaks, run in one thread.
"""

from __future__ import annotations

import os
import time

import numpy as np

from mastermind.errors import MastermindError
from mastermind.exact.search import INF, UNLIMITED
from mastermind.tree import Node, Stats, StrategyTree


def worker_count(jobs: int | None) -> int:
    """Threads for ``jobs`` (joblib's convention: -1 or 0 is every core, -2 all but one)."""
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    return max(1, jobs if jobs > 0 else cores + 1 + jobs)


def _class_job(solver, guess: int, sub: np.ndarray, r: int):
    search = solver.new_search()
    group = search.child_group(search.group, guess)
    value = search.solve(sub, r, INF, group)
    node = search.build(sub, r, group) if value < INF else None
    return value, node, search.nodes, search.memo_hits


def _first_guess_job(solver, guess: int, r: int, budget):
    search = solver.new_search()
    value = search.solve(solver.cands, r, budget, only=[guess])
    node = search.build(solver.cands, r, guess=guess) if value < budget else None
    return value, node, search.nodes, search.memo_hits


def solve_parallel(solver, *, objective: str, max_guesses, tie_break: bool, jobs: int, progress=None):
    from joblib import Parallel, delayed

    from mastermind.exact.solver import ExactResult

    jobs = worker_count(jobs)
    if objective != "total" or tie_break or len(solver.cands) <= 2:
        return solver.run(objective=objective, max_guesses=max_guesses, tie_break=tie_break,
                          progress=progress)
    start = time.perf_counter()
    table, rules = solver.table, solver.rules
    r = UNLIMITED if max_guesses is None else max_guesses
    firsts = solver.first_guesses()
    nodes, hits = 0, 0
    ordered = _order_by_bound(solver, firsts, r)
    if not ordered:
        raise MastermindError(f"no strategy solves every secret of {rules} within {max_guesses} guesses")
    pool = Parallel(n_jobs=jobs, backend="threading")
    best_guess = ordered[0]
    win = rules.win_index
    answers = table.scores[best_guess][solver.cands]
    classes = [(int(a), solver.cands[answers == a]) for a in np.unique(answers).tolist() if a != win]
    classes.sort(key=lambda item: -len(item[1]))
    if progress is not None:
        progress.start(len(classes) + len(ordered) - 1, "optimal: subproblems")
    out = pool(delayed(_class_job)(solver, best_guess, sub, r - 1) for _, sub in classes)
    if progress is not None:
        progress.advance(len(classes))
    w = solver.search_weights
    root = Node(best_guess, len(solver.cands))
    best = solver.search().unit * w[solver.cands].sum().item()
    for (a, _), (value, node, n1, h1) in zip(classes, out):
        nodes, hits = nodes + n1, hits + h1
        best += value
        if node is not None:
            root.children[a] = node
    if best == INF:
        root = None
    rest = pool(delayed(_first_guess_job)(solver, g, r, best) for g in ordered[1:])
    if progress is not None:
        progress.advance(len(ordered) - 1)
    for value, node, n1, h1 in rest:
        nodes, hits = nodes + n1, hits + h1
        if value < best and node is not None:
            best, root = value, node
    if root is None:
        raise MastermindError(f"no strategy solves every secret of {rules} within {max_guesses} guesses")
    tree = StrategyTree(rules, root, name="optimal")
    cands = np.sort(solver.cands)
    depths = tree.depths(table, cands)
    stats = Stats.from_depths(depths)
    weighted = solver.original_weights is not None
    from fractions import Fraction

    if weighted:
        wo = solver.original_weights[cands]
        total = (wo * depths).sum().item()
        weight_sum = wo.sum().item()
        if wo.dtype.kind in "iu":
            fraction = Fraction(int(total), int(weight_sum)) if weight_sum else None
        else:
            exact_sum = sum((Fraction(x) for x in wo.tolist()), Fraction(0))
            exact_total = sum((Fraction(x) * int(d) for x, d in zip(wo.tolist(), depths.tolist())), Fraction(0))
            fraction = exact_total / exact_sum if exact_sum else None
    else:
        total, weight_sum, fraction = stats.total, stats.secrets, Fraction(stats.total, stats.secrets)
    return ExactResult(
        rules=rules, objective=objective, total=total, worst=stats.worst, tree=tree, stats=stats,
        proven=True, nodes=nodes, memo_hits=hits, seconds=time.perf_counter() - start,
        first_guess=root.guess, secrets=stats.secrets, weight_sum=weight_sum, fraction=fraction,
        max_guesses=max_guesses, pool=solver.pool, weighted=weighted,
    )


def _order_by_bound(solver, firsts, r):
    """The first guesses that can finish, most promising (lowest bound) first; guesses with
    the same partition as a listed one are equivalent and left out."""
    return solver.search().root_order(np.asarray(firsts, dtype=np.int32), solver.cands, r)


def by_first_guess_parallel(solver, firsts, *, objective, max_guesses, tie_break, jobs, progress=None):
    from joblib import Parallel, delayed

    if progress is not None:
        progress.start(len(firsts), "optimal: first guesses")
    out = Parallel(n_jobs=worker_count(jobs), backend="threading")(
        delayed(_run_first)(solver.fork(), g, objective, max_guesses, tie_break) for g in firsts)
    if progress is not None:
        progress.advance(len(firsts))
    return [r for r in out if r is not None]


def _run_first(solver, guess, objective, max_guesses, tie_break):
    try:
        return solver.run(objective=objective, max_guesses=max_guesses, first_guess=guess,
                          tie_break=tie_break)
    except MastermindError:
        if max_guesses is None and objective == "total":
            raise
        return None
