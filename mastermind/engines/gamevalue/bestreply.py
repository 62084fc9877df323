"""The breaker's best reply to a mix of secrets: the tree with the least weighted guesses.

:func:`best_reply` asks the fast weighted exact solver (:func:`mastermind.engines.exact.solve`) when it
is installed and falls back to :func:`search_best_reply`, a plain memoised exhaustive search
over candidate sets that is fine for tiny games and serves as the reference in tests.

>>> from mastermind.engines.gamevalue.bestreply import search_best_reply
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 2))
>>> value, tree = search_best_reply(table, [1, 1, 1, 1])
>>> value, tree.stats(table).total
(8, 8)
>>> search_best_reply(table, [0, 0, 0, 1])[0]  # put all weight on code 22: guess it first
1
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.tree import Node, StrategyTree

SOLVERS = ("auto", "exact", "search")


def weighted_value(table: CodeTable, tree: StrategyTree, weights: Sequence) -> Fraction | float:
    """``sum weight * guesses`` of ``tree``, exact for integer or Fraction weights."""
    depths = tree.depths(table).tolist()
    return sum(w * d for w, d in zip(weights, depths) if w)


def exact_solver_available() -> bool:
    """True when :func:`mastermind.engines.exact.solve` exists and its problem takes ``weights``."""
    try:
        from mastermind.engines.exact import Problem
    except ImportError:
        return False
    return "weights" in inspect.signature(Problem).parameters


def best_reply(
    table: CodeTable,
    weights: Sequence,
    *,
    solver: str = "auto",
    jobs: int = 1,
    cancel: CancelToken | None = None,
) -> tuple[Any, StrategyTree]:
    """``(value, tree)``: the least ``sum weight * guesses`` over all strategy trees.

    ``weights`` has one non-negative number per code (int, Fraction or float); the value is
    recomputed from the tree, so it is exact for integer and Fraction weights. ``cancel``: a
    token that stops the solver: :class:`~mastermind.core.cancel.Stopped` is raised, carrying
    the proven lower bound on the weighted total (the exact solver's).
    """
    if solver not in SOLVERS:
        raise MastermindError(f"unknown best-reply solver {solver!r}: use one of {', '.join(SOLVERS)}")
    if solver == "auto":
        solver = "exact" if exact_solver_available() else "search"
    if solver == "search":
        return search_best_reply(table, weights, cancel=cancel)
    from mastermind.engines.exact import Execution, Problem, solve

    if all(isinstance(w, (int, np.integer)) for w in weights):
        arr = np.asarray([int(w) for w in weights], dtype=np.int64)
    else:
        arr = np.asarray([float(w) for w in weights], dtype=np.float64)
    result = solve(table, Problem(weights=arr), execution=Execution(jobs=jobs), cancel=cancel)
    if result.stopped is not None:
        raise Stopped(result.lower_bound)  # no tree has a smaller weighted total
    if not result.proven or result.tree is None:
        raise MastermindError("the exact solver did not prove its best reply optimal")
    return weighted_value(table, result.tree, list(weights)), result.tree


def search_best_reply(
    table: CodeTable, weights: Sequence, *, cancel: CancelToken | None = None
) -> tuple[Any, StrategyTree]:
    """Memoised exhaustive search over candidate sets with a simple bound; tiny games only.

    ``cancel``: a token, polled at every guess weighed: :class:`~mastermind.core.cancel.Stopped`
    is raised once it is cancelled."""
    token = CancelToken() if cancel is None else cancel

    if table.scores is None:
        raise MastermindError("the best-reply search needs the full score table")
    n = table.n
    if len(weights) != n:
        raise MastermindError(f"need {n} weights, one per code, got {len(weights)}")
    if any(w < 0 for w in weights):
        raise MastermindError("weights must be non-negative")
    rows = table.scores.tolist()
    win = table.rules.win_index
    w = list(weights)
    zero = w[0] * 0
    memo: dict[tuple[int, ...], tuple] = {}

    def lower(cands: tuple[int, ...]) -> Any:
        # every secret but at most one needs a second guess
        total = sum((w[s] for s in cands), start=zero)
        return total if len(cands) == 1 else 2 * total - max(w[s] for s in cands)

    def solve(cands: tuple[int, ...]) -> Any:
        if len(cands) == 1:
            return w[cands[0]]
        hit = memo.get(cands)
        if hit is not None:
            return hit[0]
        here = sum((w[s] for s in cands), start=zero)
        best, best_guess, seen = None, None, set()
        members = set(cands)
        # candidates first: they can win at once, so good bounds come early
        for g in list(cands) + [g for g in range(n) if g not in members]:
            token.check()
            row = rows[g]
            key = tuple(row[s] for s in cands)
            if key in seen:
                continue
            seen.add(key)
            parts: dict[int, list[int]] = {}
            for s in cands:
                parts.setdefault(row[s], []).append(s)
            if len(parts) == 1 and g not in members:
                continue  # learns nothing
            children = [tuple(p) for a, p in parts.items() if a != win]
            bounds = [lower(c) for c in children]
            cost = here + sum(bounds, start=zero)
            if best is not None and cost >= best:
                continue
            for i, child in enumerate(children):
                cost += solve(child) - bounds[i]
                if best is not None and cost >= best:
                    break
            else:
                best, best_guess = cost, g
        memo[cands] = (best, best_guess)
        return best

    def build(cands: tuple[int, ...]) -> Node:
        g = cands[0] if len(cands) == 1 else memo[cands][1]
        node = Node(g, len(cands))
        parts: dict[int, list[int]] = {}
        for s in cands:
            parts.setdefault(rows[g][s], []).append(s)
        for a in sorted(parts):
            if a != win:
                node.children[a] = build(tuple(parts[a]))
        return node

    root = tuple(range(n))
    value = solve(root)
    tree = StrategyTree(table.rules, build(root), "best reply")
    return value, tree
