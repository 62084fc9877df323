"""Optimal advice from any position, even after the person left the optimal line of play.

The optimal strategy is a stored tree. A person may play a different guess than the one
suggested; from then on the tree says nothing, so the remaining candidates are solved
exactly on the spot (with a progress bar) and play follows the new tree.

>>> from mastermind.app.interactive.optimal import OptimalAdvisor
>>> from mastermind.core.game import CodeTable, Rules
>>> from mastermind.core.tree import build_tree
>>> table = CodeTable(Rules(2, 3))
>>> first = lambda cands, history: int(cands[0])
>>> advisor = OptimalAdvisor(table, build_tree(table, first), lambda cands: build_tree(table, first, cands))
>>> table.rules.code_text(advisor.next_guess(table.all_codes))
'11'
>>> after = table.filter(table.all_codes, 8, table.rules.parse_feedback("0B0W"))  # played 33: 0B0W
>>> table.rules.code_text(advisor.next_guess(after, ((8, 0),))), advisor.solves
('11', 1)
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

import numpy as np

from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.progress import NoProgress, Progress
from mastermind.core.tree import History, Node, StrategyTree

Solver = Callable[[np.ndarray], StrategyTree]
"""Solves the game restricted to some candidate secrets, returning the optimal tree."""


class OptimalAdvisor:
    """A :class:`~mastermind.core.strategy.Strategy` following optimal trees, solving anew off them."""

    def __init__(self, table: CodeTable, tree: StrategyTree, solve: Solver, name: str = "optimal") -> None:
        self.table, self.name = table, name
        self._solve = solve
        # (the history that leads to the tree's root, the tree), the most recent last
        self._trees: list[tuple[tuple, StrategyTree]] = [((), tree)]
        self.solves = 0

    def next_guess(self, candidates: np.ndarray, history: History = ()) -> Code:
        history = tuple(history)
        for start, tree in reversed(self._trees):
            if history[: len(start)] == start:
                node = _follow(tree.root, history[len(start) :])
                if node is not None and node.candidates == len(candidates):
                    return node.guess
        tree = self._solve(np.asarray(candidates))
        self.solves += 1
        self._trees.append((history, tree))
        return tree.root.guess


def _follow(node: Node, moves: History) -> Node | None:
    for guess, answer in moves:
        if node.guess != guess:
            return None
        node = node.children.get(answer)
        if node is None:
            return None
    return node


def exact_solver(
    table: CodeTable,
    progress: Callable[[], AbstractContextManager[Progress]] | None = None,
    pool: str = "all",
) -> Solver:
    """Solve candidate subsets with :func:`mastermind.engines.exact.solve`, showing ``progress()``
    (work units, whose progress lines move); Ctrl-C (the command's cancel token) unwinds."""
    from mastermind.app.interrupts import command_token, stop_if_interrupted
    from mastermind.engines.exact import Execution, Problem, solve

    make_progress = progress or (lambda: nullcontext(NoProgress()))

    def solve_candidates(candidates: np.ndarray) -> StrategyTree:
        with make_progress() as bar:
            result = solve(
                table,
                Problem(pool=pool, candidates=candidates),
                execution=Execution(),
                cancel=command_token(),
                progress=bar,
            )
        stop_if_interrupted(result.stopped)
        if result.tree is None:
            raise MastermindError(f"the exact solver found no strategy ({result.status.value})")
        return result.tree

    return solve_candidates
