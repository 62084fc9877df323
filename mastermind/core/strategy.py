"""The one interface every strategy has: heuristics, a stored tree and optimal play alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.tree import History, Node, StrategyTree, build_tree


@runtime_checkable
class Strategy(Protocol):
    """Chooses the next guess from the secrets still possible and the game so far.

    Anything with ``name``, ``table`` and ``next_guess`` is one:

    >>> from mastermind.core.strategy import Strategy, strategy_tree
    >>> from mastermind.core.game import CodeTable, Rules
    >>> class FirstCandidate:
    ...     name, table = "first", CodeTable(Rules(2, 2))
    ...     def next_guess(self, candidates, history=()):
    ...         return int(candidates[0])
    >>> first = FirstCandidate()
    >>> isinstance(first, Strategy), strategy_tree(first).stats(first.table).total
    (True, 8)
    """

    name: str
    table: CodeTable

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code: ...


def strategy_tree(strategy: Strategy, candidates: np.ndarray | None = None) -> StrategyTree:
    """Play every secret with a deterministic strategy and record its tree (see :class:`Strategy`)."""
    return build_tree(strategy.table, strategy.next_guess, candidates, name=strategy.name)


class TreeStrategy:
    """Follows a stored :class:`StrategyTree` (for example the optimal one) along the history.

    >>> from mastermind.core.strategy import TreeStrategy
    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.core.tree import build_tree
    >>> table = CodeTable(Rules(2, 2))
    >>> follow = TreeStrategy(build_tree(table, lambda cands, history: int(cands[0])), table)
    >>> follow.next_guess(table.all_codes), follow.next_guess(table.all_codes[3:], ((0, 0),))
    (0, 3)
    >>> follow.next_guess(table.all_codes[3:], ((1, 0),))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: the game left the stored strategy tree ...
    """

    def __init__(
        self,
        tree: StrategyTree,
        table: CodeTable,
        name: str | None = None,
        fallback: Callable[[], Strategy] | None = None,
    ) -> None:
        self.tree, self.table = tree, table
        self.name = name or tree.name or "tree"
        # off the tree (a guess the tree does not play), the strategy ``fallback()`` makes
        # guesses instead; without one, leaving the tree is an error
        self._make_fallback = fallback
        self.fallback: Strategy | None = None

    def on_tree(self, history: History) -> bool:
        """Whether the tree covers the position ``history`` leads to."""
        return self._walk(history)[0] is not None

    def guesser(self, history: History) -> str:
        """Who guesses at the position ``history`` leads to: the tree, else its fallback."""
        if self._make_fallback is None or self.on_tree(history):
            return self.name
        by = self.fallback.name if self.fallback is not None else "its fallback"
        return f"{by}: the game left the tree of {self.name}"

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        node, why = self._walk(history)
        if node is not None:
            return node.guess
        if self._make_fallback is None:
            raise MastermindError(why)
        if self.fallback is None:
            self.fallback = self._make_fallback()
        return self.fallback.next_guess(candidates, history)

    def _walk(self, history: History) -> tuple[Node | None, str]:
        """The node ``history`` leads to, or None and how the game left the tree."""
        node: Node | None = self.tree.root
        for guess, answer in history:
            if node is None or node.guess != guess:
                return None, "the game left the stored strategy tree (a different guess was played)"
            node = node.children.get(answer)
        return node, "the stored strategy tree has no branch for these answers"
