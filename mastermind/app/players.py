"""Every strategy a command plays or measures (its player or its tree), by name or file,
under the command's cancel token (Ctrl-C and ``--time-limit``).

One way for every command to turn ``-s NAME|FILE`` with ``--pool``, ``--tie-break`` and
``--seed`` into a strategy or its tree: the registry's strategies (a solver, ``optimal``,
solved until the token is cancelled), or a strategy file's tree. A heuristic stops at its next
guess once the token is cancelled (:class:`~mastermind.core.cancel.Stopped`).
"""

from __future__ import annotations

from typing import Any

from mastermind.app.strategy_files import names_a_file, read_strategy_file
from mastermind.core.game import CodeTable
from mastermind.core.tree import StrategyTree


class Cancellable:
    """A strategy that raises :class:`~mastermind.core.cancel.Stopped` at its next guess once
    ``cancel`` is cancelled (for a game played guess by guess, as ``solve`` plays one)."""

    def __init__(self, strategy: Any, cancel: Any) -> None:
        self._strategy, self._cancel = strategy, cancel

    def __getattr__(self, name: str) -> Any:
        return getattr(self._strategy, name)

    def next_guess(self, candidates, history=()):
        if self._cancel is not None:
            self._cancel.check()
        return self._strategy.next_guess(candidates, history)


def make_player(
    name: str,
    table: CodeTable,
    *,
    pool: str = "all",
    tie_break: str = "default",
    seed: int | None = None,
    cancel: Any = None,
    progress: Any = None,
) -> Any:
    """The strategy ``name`` (a registry name or a strategy file) for the game of ``table``;
    a solver stopped by ``cancel`` (a cancel token) raises :class:`~mastermind.core.cancel.Stopped`,
    as does any strategy asked for once ``cancel`` is cancelled: a command whose table's build
    the time limit stopped got the codes alone, which a solver cannot use (``simulate -s
    optimal --time-limit 1`` said "needs the full score table", exit 2, on a loaded machine)."""
    from mastermind.engines.registry import make_strategy

    if cancel is not None:
        cancel.check()
    if names_a_file(name):
        return file_strategy(name, table, pool=pool)
    return make_strategy(
        name, table, pool=pool, tie_break=tie_break, seed=seed, progress=progress, cancel=cancel
    )


OFF_TREE = "entropy"
"""The heuristic that guesses where a game leaves a strategy file's tree (a guess of your own
in assist or play): the one whose totals come nearest the optima (see results/)."""


def file_strategy(name: str, table: CodeTable, *, pool: str = "all") -> Any:
    """The tree of the strategy file ``name`` for the game of ``table``, followed as it is;
    off it, :data:`OFF_TREE` guesses (with ``pool``)."""
    from mastermind.core.strategy import TreeStrategy
    from mastermind.engines.registry import make_strategy

    return TreeStrategy(
        read_strategy_file(name, table.rules),
        table,
        name,
        fallback=lambda: make_strategy(OFF_TREE, table, pool=pool),
    )


def tree_of(name: str, table: CodeTable, **options: Any) -> StrategyTree:
    """Every secret played with strategy ``name`` (see :func:`make_player`): its tree (a
    file's keeps the name it has inside); stopped by ``cancel``, :class:`Stopped`."""
    from mastermind.engines.registry import player_tree

    return player_tree(make_player(name, table, **options), name, options.get("cancel"))


def draws(name: str, tie_break: str = "default") -> bool:
    """Whether strategy ``name`` plays by its seed (a file's tree does not)."""
    from mastermind.engines.registry import strategy

    return not names_a_file(name) and strategy(name).draws(tie_break)
