"""A plain memoized exhaustive search, the yardstick for the exact solver on tiny games.

Every guess is tried at every step (all codes, or the candidates with ``pool="consistent"``),
with no bounds and no symmetry; only the memo keeps it finite. Far too slow beyond ~100
codes, which is the point: it is simple enough to trust.

>>> from mastermind.core.game import CodeTable, Rules
>>> reference_solve(CodeTable(Rules(2, 3)))
(21, 3)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable

INF = math.inf

# the memos, shared by every call on the same score table and question: the tests ask the
# same tiny games again and again (each parametrized case, each first guess's classes), and
# p3c4 alone took 12 s for its least depth and 34 s for its best total on a loaded machine
_MEMOS: dict[tuple, dict] = {}


def _memo(table: CodeTable, *question) -> dict:
    """The memo of ``question`` on ``table``'s scores (its rules and its very score table)."""
    scores = table.scores
    assert scores is not None
    key = (table.rules, scores.shape, scores.dtype.str, hash(scores.tobytes()), *question)
    return _MEMOS.setdefault(key, {})


def reference_cost(
    table: CodeTable,
    cands: Sequence[int],
    max_guesses: int | None = None,
    *,
    pool: str = "all",
    weights: Sequence[float] | None = None,
    unit: int = 1,
    penalty: int = 0,
) -> float:
    """Least sum over ``cands`` of weight x (unit x guesses, plus ``penalty`` when solved by
    the ``max_guesses``-th guess), finishing within ``max_guesses`` (INF if impossible)."""
    scores = table.scores
    if scores is None:
        raise MastermindError(f"the reference search needs the full score table of {table.rules}")
    win = table.rules.win_index
    w = [1] * table.n if weights is None else np.asarray(weights).tolist()
    all_guesses = range(table.n)
    memo: dict[tuple, float] = _memo(table, "cost", pool, tuple(w), unit, penalty)

    def cost(s: tuple, r: int) -> float:
        if not s:
            return 0
        # a strategy worth having never needs more guesses than there are secrets left
        # (one more keeps a penalty at the last level out of reach)
        r = min(r, len(s) + 1)
        if r == 0:
            return INF
        key = (s, r)
        if key in memo:
            return memo[key]
        own = unit * sum(w[x] for x in s)
        best = INF
        for g in s if pool == "consistent" else all_guesses:
            classes = _classes(scores[g], s, win)
            total = own + (penalty * w[g] if r == 1 and g in s else 0)
            for part in classes.values():
                total += cost(tuple(part), r - 1)
                if total >= best:
                    break
            best = min(best, total)
        memo[key] = best
        return best

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return cost(tuple(sorted(int(c) for c in cands)), len(cands) if max_guesses is None else max_guesses)
    finally:
        sys.setrecursionlimit(limit)


def _classes(row, secrets: tuple, win: int) -> dict[int, list[int]]:
    """The secrets a guess leaves, by answer (its score row), the win left out."""
    classes: dict[int, list[int]] = {}
    for x in secrets:
        a = int(row[x])
        if a != win:
            classes.setdefault(a, []).append(x)
    return classes


def reference_worst(table: CodeTable, cands: Sequence[int], *, pool: str = "all") -> int:
    """Fewest guesses that solve every secret in ``cands`` in the worst case (plain minimax)."""
    scores = table.scores
    if scores is None:
        raise MastermindError(f"the reference search needs the full score table of {table.rules}")
    win = table.rules.win_index
    memo: dict[tuple, int] = _memo(table, "worst", pool)

    def depth(s: tuple, budget: int) -> int:
        # budget: length of the current path, to cut off guesses that do not split
        if len(s) == 1:
            return 1
        if s in memo:
            return memo[s]
        best = len(s) + 1
        for g in s if pool == "consistent" else range(table.n):
            classes = _classes(scores[g], s, win)
            if len(classes) == 1 and g not in s:
                continue  # the same set again: never shorter
            worst = 1 + max((depth(tuple(p), budget + 1) for p in classes.values()), default=0)
            best = min(best, worst)
        memo[s] = best
        return best

    return depth(tuple(sorted(int(c) for c in cands)), 0)


def reference_solve(
    table: CodeTable,
    *,
    objective: str = "total",
    max_guesses: int | None = None,
    pool: str = "all",
    weights: Sequence[float] | None = None,
    candidates: Sequence[int] | None = None,
) -> tuple[float, int]:
    """(optimal value, worst case bound used): for "total" the least total within
    ``max_guesses`` (and ``max_guesses`` or the set size as second item); for "worst" the
    fewest guesses in the worst case and the least total within it."""
    cands = list(range(table.n)) if candidates is None else sorted(int(c) for c in candidates)
    if objective == "worst":
        d = reference_worst(table, cands, pool=pool)
        if max_guesses is not None and d > max_guesses:
            return INF, d
        return reference_cost(table, cands, d, pool=pool, weights=weights), d
    value = reference_cost(table, cands, max_guesses, pool=pool, weights=weights)
    return value, (
        max_guesses if max_guesses is not None else _worst_of_optimum(table, cands, pool, weights, value)
    )


def _worst_of_optimum(table, cands, pool, weights, value) -> int:
    """The smallest worst case among strategies reaching the optimal ``value``."""
    d = 1
    while reference_cost(table, cands, d, pool=pool, weights=weights) != value:
        d += 1
    return d
