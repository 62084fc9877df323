"""Play every secret with a strategy and record its :class:`~mastermind.core.tree.StrategyTree`.

:func:`mastermind.core.tree.build_tree` is the general recorder. Strategies that promise to
guess the first candidate when at most two remain (``first_of_two = True``, as the
heuristics of this package do), or at least the last one when one remains
(``first_of_one = True``), get a recorder that fills in those small nodes without asking
the strategy and splits candidate sets with one sort: the same tree, several times faster
on the thousands of small nodes near the leaves. The tests check both give equal trees.

>>> from mastermind.engines.heuristics.play import play_all, solve
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.engines.heuristics.strategies import SimpleStrategy
>>> table = CodeTable(Rules(2, 2))
>>> tree = play_all(SimpleStrategy(table))
>>> tree.stats(table).histogram
(1, 2, 1)
>>> result = solve(SimpleStrategy(table))
>>> result.status.name, result.value, result.lower_bound, result.upper_bound, result.worst
('FEASIBLE', 8, None, 8, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.strategy import Strategy
from mastermind.core.tree import History, Node, Stats, StrategyTree, build_tree
from mastermind.engines.heuristics.scores import computed_answers
from mastermind.engines.result import Objective, Result, Status


def solve(
    strategy: Strategy, candidates: np.ndarray | None = None, *, cancel: CancelToken | None = None
) -> Result:
    """Every secret (all codes, or ``candidates``) played with ``strategy``: its tree and its
    total, which proves no optimum (only an upper bound on it). ``cancel``: see :func:`play_all`."""
    start = time.perf_counter()
    tree = play_all(strategy, candidates, cancel=cancel)
    stats = Stats.from_depths(tree.depths(strategy.table, candidates))
    return Result(
        rules=strategy.table.rules,
        objective=Objective.TOTAL,
        status=Status.FEASIBLE,
        value=stats.total,
        lower_bound=None,
        upper_bound=stats.total,
        tree=tree,
        stats=stats,
        seconds=time.perf_counter() - start,
        weight_sum=stats.secrets,
        fraction=Fraction(stats.total, stats.secrets),
    )


def play_all(
    strategy: Strategy, candidates: np.ndarray | None = None, *, cancel: CancelToken | None = None
) -> StrategyTree:
    """Play every secret (all codes, or ``candidates``) and record the tree of guesses. Once
    ``cancel`` is cancelled, the strategy is asked nothing more and
    :class:`~mastermind.core.cancel.Stopped` is raised (half a tree proves nothing).

    >>> from mastermind.engines.heuristics.play import play_all
    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.engines.heuristics.strategies import ScoredStrategy
    >>> table = CodeTable(Rules(4, 6))
    >>> play_all(ScoredStrategy("minimax", table)).stats(table).total  # Knuth 1977
    5801
    """
    pairs = getattr(strategy, "first_of_two", False)
    next_guess = strategy.next_guess if cancel is None else _checked(strategy.next_guess, cancel)
    if not (pairs or getattr(strategy, "first_of_one", False)):
        return build_tree(strategy.table, next_guess, candidates, name=strategy.name)
    table = strategy.table
    cands = table.all_codes if candidates is None else np.asarray(candidates)
    if len(cands) == 0:
        raise MastermindError("no secrets to play")
    return StrategyTree(table.rules, _recorder(strategy, next_guess, table, pairs)(cands, ()), strategy.name)


def _checked(next_guess: Callable[..., Code], cancel: CancelToken) -> Callable[..., Code]:
    """``next_guess``, after checking ``cancel`` each time."""

    def guess(cands: np.ndarray, history: History = ()) -> Code:
        cancel.check()
        return next_guess(cands, history)

    return guess


def _recorder(
    strategy: Strategy, next_guess: Callable[..., Code], table: CodeTable, pairs: bool
) -> Callable[[np.ndarray, tuple], Node]:
    scores = table.scores
    win = table.rules.win_index

    if scores is None:

        def answers_to(guess: int, cands: np.ndarray) -> np.ndarray:
            return computed_answers(table, guess, cands)
    else:

        def answers_to(guess: int, cands: np.ndarray) -> np.ndarray:
            return scores[guess, cands]

    def grow(cands: np.ndarray, history: tuple) -> Node:
        n = len(cands)
        if n == 1:
            return Node(int(cands[0]), 1)
        if n == 2 and pairs:
            first, second = int(cands[0]), int(cands[1])
            return Node(first, 2, {int(answers_to(first, cands[1:])[0]): Node(second, 1)})
        guess = int(next_guess(cands, history))
        node = Node(guess, n)
        for answer, part in table.classes(guess, cands):
            if answer == win:
                continue
            if len(part) == n:
                raise MastermindError(
                    f"strategy {strategy.name} guessed {table.rules.code_text(guess)}, which does "
                    f"not split {n} candidates: it would never finish"
                )
            node.children[answer] = grow(part, (*history, (guess, answer)))
        return node

    return grow
