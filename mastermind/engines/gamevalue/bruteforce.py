"""Brute force for tiny games: every deterministic strategy, the full matrix game, one LP.

A strategy's only trace in the game is its vector of guesses per secret, so strategies are
enumerated as depth vectors, built bottom-up over candidate sets with every guess that makes
progress at every node. A vector that another one beats or ties on every secret never changes
the value (the breaker minimises), so by default only the Pareto-minimal vectors are kept;
``pareto=False`` keeps every distinct vector. The matrix game is then solved over single
codes, with no symmetry assumption, exactly and independently of the column generation.

>>> from mastermind.engines.gamevalue.bruteforce import brute_force_value, depth_vectors
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(2, 2))
>>> depth_vectors(table).tolist()  # doctest: +NORMALIZE_WHITESPACE
[[1, 2, 3, 2], [1, 3, 2, 2], [2, 1, 2, 3], [2, 2, 1, 3],
 [2, 2, 3, 1], [2, 3, 2, 1], [3, 1, 2, 2], [3, 2, 1, 2]]
>>> brute_force_value(table)
Fraction(2, 1)
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.engines.gamevalue.rational import solve_matrix_game

MAX_VECTORS = 200_000


def pareto_minimal(vectors: np.ndarray) -> np.ndarray:
    """The distinct rows that no other row is at most on every entry (sorted)."""
    vectors = np.unique(vectors, axis=0)
    order = np.argsort(vectors.sum(axis=1), kind="stable")
    kept: list[np.ndarray] = []
    for row in vectors[order]:
        if kept and np.any(np.all(np.asarray(kept) <= row, axis=1)):
            continue
        kept.append(row)
    return np.unique(np.asarray(kept), axis=0)


def depth_vectors(table: CodeTable, *, pareto: bool = True) -> np.ndarray:
    """Guesses per secret of every deterministic strategy (int64, one row per distinct vector)."""
    if table.scores is None:
        raise MastermindError("brute force needs the full score table")
    n, win = table.n, table.rules.win_index
    scores = table.scores
    memo: dict[tuple[int, ...], np.ndarray] = {}

    def vectors(cands: tuple[int, ...]) -> np.ndarray:
        if len(cands) == 1:
            return np.ones((1, 1), dtype=np.int64)
        hit = memo.get(cands)
        if hit is not None:
            return hit
        arr = np.asarray(cands)
        members = set(cands)
        found = []
        for g in range(n):
            answers = scores[g, arr]
            if g not in members and np.all(answers == answers[0]):
                continue  # learns nothing and cannot win: no strategy plays it
            groups = [np.flatnonzero(answers == a) for a in np.unique(answers) if a != win]
            options = [vectors(tuple(arr[idx].tolist())) for idx in groups]
            count = int(np.prod([len(o) for o in options], dtype=np.float64))
            if count > MAX_VECTORS:
                raise MastermindError(f"{table.rules} is too large for brute force")
            block = np.ones((count, len(cands)), dtype=np.int64)  # the guess itself: depth 1
            for i, choice in enumerate(product(*(range(len(o)) for o in options))):
                for idx, opt, c in zip(groups, options, choice):
                    block[i, idx] = opt[c] + 1
            found.append(block)
        result = np.concatenate(found)
        result = pareto_minimal(result) if pareto else np.unique(result, axis=0)
        memo[cands] = result
        return result

    return vectors(tuple(range(n)))


def brute_force_value(table: CodeTable, *, pareto: bool = True) -> Fraction:
    """The game value from the full secrets-by-strategies matrix, exactly."""
    vecs = depth_vectors(table, pareto=pareto)
    return solve_matrix_game(vecs.T.tolist())[0]


def brute_force_value_glop(table: CodeTable, *, pareto: bool = True) -> float:
    """The same value from GLOP, a floating-point cross-check of the rational simplex."""
    from mastermind.engines.gamevalue.lp import solve_breaker_lp

    vecs = depth_vectors(table, pareto=pareto)
    return solve_breaker_lp(vecs.tolist(), [1] * table.n).value
