"""Strategies by name (from the registry) for the interactive commands, with optimal play that
survives detours."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.progress import progress_bar
from mastermind.core.strategy import Strategy

if TYPE_CHECKING:
    from mastermind.core.cancel import CancelToken


def load_strategy(
    name: str,
    table: CodeTable,
    *,
    pool: str = "all",
    tie_break: str = "default",
    seed: int | None = None,
    progress: str = "none",
    cancel: CancelToken | None = None,
) -> Strategy:
    """The registry's strategy ``name``; a solver's tree also re-solves positions off it.

    ``progress`` ("bar", "json" or "none", see :func:`~mastermind.core.progress.progress_bar`):
    a message while the whole game is solved (a spinner, or a start and an end line) and
    progress for positions solved on the spot. ``cancel``: the token that stops a
    solver (default: the command's, cancelled by Ctrl-C, which then unwinds); stopped by
    another reason (a time limit) it raises :class:`~mastermind.core.cancel.Stopped`.
    """
    from mastermind.app.players import file_strategy
    from mastermind.app.strategy_files import names_a_file
    from mastermind.engines.registry import strategy

    if names_a_file(name):  # a tree from a file, for the game of ``table`` (a heuristic off it)
        return file_strategy(name, table, pool=pool)
    spec = strategy(name)
    if spec.kind != "solver":
        return spec.make(table, pool=pool, tie_break=tie_break, seed=seed)
    from mastermind.app.interactive.optimal import OptimalAdvisor, exact_solver
    from mastermind.app.interrupts import command_token, unwind_on_interrupt

    with (
        _status(progress, f"solving {table.rules} exactly for the {name} strategy..."),
        unwind_on_interrupt(),
    ):
        base = spec.make(table, pool=pool, tie_break=tie_break, cancel=cancel or command_token())
    tree = getattr(base, "tree", None)
    if tree is None:  # pragma: no cover - a solver's strategy is a TreeStrategy
        return base
    try:
        solve = exact_solver(table, lambda: progress_bar(progress), pool=pool)
    except MastermindError as exc:  # an exact solver that cannot solve part of a game
        reason = str(exc)

        def solve(candidates):
            raise MastermindError(f"the game left the optimal tree and cannot be solved anew: {reason}")

    return OptimalAdvisor(table, tree, solve, name)


@contextmanager
def _status(mode: str, message: str) -> Iterator[None]:
    """A spinner with ``message`` on standard error while the block runs ("bar"), or its
    start and end lines ("json")."""
    if mode == "json":
        with progress_bar("json") as lines:
            lines.start(None, message)
            yield
        return
    if mode != "bar":
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(message):
        yield
