"""The one interface every strategy has: heuristics, a stored tree and optimal play alike."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.tree import History, StrategyTree, build_tree


@runtime_checkable
class Strategy(Protocol):
    """Chooses the next guess from the secrets still possible and the game so far.

    Anything with ``name``, ``table`` and ``next_guess`` is one:

    >>> from mastermind.core.game import CodeTable, Rules
    >>> class FirstCandidate:
    ...     name, table = "first", CodeTable(Rules(2, 2))
    ...     def next_guess(self, candidates, history=()):
    ...         return int(candidates[0])
    >>> isinstance(FirstCandidate(), Strategy), strategy_tree(FirstCandidate()).stats(FirstCandidate.table).total
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

    >>> from mastermind.core.game import CodeTable, Rules
    >>> from mastermind.core.tree import build_tree
    >>> table = CodeTable(Rules(2, 2))
    >>> follow = TreeStrategy(build_tree(table, lambda cands, history: int(cands[0])), table)
    >>> follow.next_guess(table.all_codes), follow.next_guess(table.all_codes[3:], ((0, 0),))
    (0, 3)
    >>> follow.next_guess(table.all_codes[3:], ((1, 0),))
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: the game left the stored strategy tree (a different guess was played)
    """

    def __init__(self, tree: StrategyTree, table: CodeTable, name: str | None = None) -> None:
        self.tree, self.table = tree, table
        self.name = name or tree.name or "tree"

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        node = self.tree.root
        for guess, answer in history:
            if node is None or node.guess != guess:
                raise MastermindError("the game left the stored strategy tree (a different guess was played)")
            node = node.children.get(answer)
        if node is None:
            raise MastermindError("the stored strategy tree has no branch for these answers")
        return node.guess
