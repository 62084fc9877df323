"""The one interface every strategy has: heuristics, a stored tree and optimal play alike."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.tree import History, StrategyTree, build_tree


@runtime_checkable
class Strategy(Protocol):
    """Chooses the next guess from the secrets still possible and the game so far."""

    name: str
    table: CodeTable

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code: ...


def strategy_tree(strategy: Strategy, candidates: np.ndarray | None = None) -> StrategyTree:
    """Play every secret with a deterministic strategy and record its tree."""
    return build_tree(strategy.table, strategy.next_guess, candidates, name=strategy.name)


class TreeStrategy:
    """Follows a stored :class:`StrategyTree` (for example the optimal one) along the history."""

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
