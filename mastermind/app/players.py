"""Every strategy a command plays or measures (its player or its tree), by name or file,
under ``--time-limit``.

One way for every command to turn ``-s NAME|FILE`` with ``--pool``, ``--tie-break`` and
``--seed`` into a strategy or its tree: the registry's strategies (a solver, ``optimal``,
solved within the time left), or a strategy file's tree. A heuristic stops at its next guess
once the command's time limit has passed (:class:`TimeLimited`).
"""

from __future__ import annotations

from typing import Any

from mastermind.app.commands.common import Deadline
from mastermind.app.strategy_files import names_a_file, read_strategy_file
from mastermind.core.cancel import Stopped
from mastermind.core.game import CodeTable
from mastermind.core.tree import StrategyTree


class TimeLimited:
    """A strategy that raises :class:`~mastermind.core.cancel.Stopped` at its next guess once
    ``deadline`` has passed (a heuristic's guesses take a fraction of a second each)."""

    def __init__(self, strategy: Any, deadline: Deadline) -> None:
        self._strategy, self._deadline = strategy, deadline

    def __getattr__(self, name: str) -> Any:
        return getattr(self._strategy, name)

    def next_guess(self, candidates, history=()):
        if self._deadline.passed():
            raise Stopped()
        return self._strategy.next_guess(candidates, history)


def make_player(
    name: str,
    table: CodeTable,
    *,
    pool: str = "all",
    tie_break: str = "default",
    seed: int | None = None,
    deadline: Deadline | None = None,
    progress: Any = None,
    limit_guesses: bool = True,
) -> Any:
    """The strategy ``name`` (a registry name or a strategy file) for the game of ``table``;
    a solver not done within the time left raises :class:`~mastermind.core.cancel.Stopped`,
    and so does a heuristic's next guess past the deadline (unless not ``limit_guesses``:
    the caller stops between games itself)."""
    from mastermind.core.strategy import TreeStrategy
    from mastermind.engines.registry import make_strategy

    deadline = deadline or Deadline(None)
    if names_a_file(name):
        return TreeStrategy(read_strategy_file(name, table.rules), table, name)
    player = make_strategy(
        name, table, pool=pool, tie_break=tie_break, seed=seed, progress=progress, time_limit=deadline.left()
    )
    if isinstance(player, TreeStrategy) or not limit_guesses:
        return player
    return TimeLimited(player, deadline)


def tree_of(name: str, table: CodeTable, **options: Any) -> StrategyTree:
    """Every secret played with strategy ``name`` (see :func:`make_player`): its tree (a
    file's keeps the name it has inside)."""
    from mastermind.core.strategy import TreeStrategy
    from mastermind.engines.heuristics.play import play_all

    player = make_player(name, table, **options)
    if isinstance(player, TreeStrategy):
        return player.tree
    tree = play_all(player)
    tree.name = tree.name or name
    return tree


def draws(name: str, tie_break: str = "default") -> bool:
    """Whether strategy ``name`` plays by its seed (a file's tree does not)."""
    from mastermind.engines.registry import strategy

    return not names_a_file(name) and strategy(name).draws(tie_break)
