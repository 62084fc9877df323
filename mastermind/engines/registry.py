"""Every strategy and solver by name: the one place that turns a name into a strategy.

Each name maps to one :class:`StrategySpec` that knows which options it takes (``pool``,
``tie_break``, ``seed``) and how to build the strategy. Commands, reports, export and the
interactive sessions all ask here; the heuristic and exact engines know no names.

>>> from mastermind.engines.registry import strategy, strategy_tree
>>> from mastermind.core.game import CodeTable, Rules
>>> table = CodeTable(Rules(3, 3))
>>> strategy("minimax").options
('pool', 'tie_break', 'seed')
>>> strategy_tree("minimax", table).stats(table).total
74
>>> strategy("optimal").kind, strategy_tree("optimal", table).stats(table).total
('solver', 73)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable

if TYPE_CHECKING:
    from mastermind.core.cancel import CancelToken
    from mastermind.core.progress import Progress
    from mastermind.core.strategy import Strategy
    from mastermind.core.tree import StrategyTree

OPTIONS = ("pool", "tie_break", "seed")
"""Every option a strategy may take; each spec lists the ones it uses."""


@dataclass(frozen=True)
class StrategySpec:
    """One named strategy: what it is, the options it takes and how to build it.

    ``kind`` is ``"heuristic"`` (chooses one guess at a time, cheap) or ``"solver"`` (solves
    the whole game first). Options it does not take are accepted and ignored, so that one
    command line can name several strategies; their values are checked all the same.
    """

    name: str
    kind: str
    summary: str
    options: tuple[str, ...]
    factory: Callable[..., Strategy]
    stoppable: bool = False
    """Whether its factory takes ``cancel``: a heuristic whose one guess can take minutes
    (every code scored over millions of candidates) stops inside it."""

    def make(
        self,
        table: CodeTable,
        *,
        pool: str = "all",
        tie_break: str = "default",
        seed: int | None = None,
        progress: Progress | None = None,
        time_limit: float | None = None,
        cancel: CancelToken | None = None,
    ) -> Strategy:
        """The strategy for the game of ``table`` (``progress`` shows a solver's work; a
        solver not done within ``time_limit`` seconds, or stopped by ``cancel``, raises
        :class:`~mastermind.core.cancel.Stopped` with the reason)."""
        check_options(pool=pool, tie_break=tie_break)
        given = {"pool": pool, "tie_break": tie_break, "seed": seed}
        kwargs: dict[str, Any] = {k: v for k, v in given.items() if k in self.options}
        if self.kind == "solver":
            kwargs.update(progress=progress, time_limit=time_limit, cancel=cancel)
        elif self.stoppable:
            kwargs.update(cancel=cancel)
        return self.factory(table, **kwargs)

    def takes(self, option: str) -> bool:
        """Whether ``option`` (one of :data:`OPTIONS`) changes this strategy."""
        return option in self.options

    def draws(self, tie_break: str = "default") -> bool:
        """Whether the strategy plays by its seed (random itself, or breaking ties at random)."""
        return self.takes("seed") and (not self.takes("tie_break") or tie_break == "random")


# ---- factories: the engines are imported only when a strategy is built ---------------------
def _scored(criterion: str) -> Callable[..., Strategy]:
    def build(
        table: CodeTable, *, pool: str, tie_break: str, seed: int | None, cancel: CancelToken | None = None
    ) -> Strategy:
        from mastermind.engines.heuristics.strategies import ScoredStrategy

        return ScoredStrategy(criterion, table, pool=pool, tie_break=tie_break, seed=seed, cancel=cancel)

    return build


def _simple(table: CodeTable) -> Strategy:
    from mastermind.engines.heuristics.strategies import SimpleStrategy

    return SimpleStrategy(table)


def _random(table: CodeTable, *, seed: int | None) -> Strategy:
    from mastermind.engines.heuristics.strategies import RandomStrategy

    return RandomStrategy(table, seed)


def _optimal(
    table: CodeTable,
    *,
    pool: str,
    progress: Progress | None = None,
    time_limit: float | None = None,
    cancel: CancelToken | None = None,
) -> Strategy:
    from mastermind.core.cancel import Stopped
    from mastermind.core.pools import Pool
    from mastermind.core.strategy import TreeStrategy
    from mastermind.engines.exact import Execution, Limits, Problem, solve

    result = solve(
        table,
        Problem(pool=cast(Pool, pool)),  # (checked by StrategySpec.make)
        limits=Limits(time_limit=time_limit),
        # the library's choice: work units for a time limit or a big game (their progress
        # lines), one search for a small one
        execution=Execution(),
        cancel=cancel,
        progress=progress,
    )
    if not result.proven:  # the best tree found is not the optimal strategy
        raise Stopped(result.stopped)
    assert result.tree is not None  # a proven optimum has its tree
    # (a renamed copy: the result's tree is not changed under it)
    return TreeStrategy(replace(result.tree, name="optimal"), table, "optimal")


_SPECS = (
    StrategySpec(
        "minimax", "heuristic", "smallest largest answer class (Knuth)", OPTIONS, _scored("minimax"), True
    ),
    StrategySpec(
        "expected-size",
        "heuristic",
        "smallest expected class size (Irving)",
        OPTIONS,
        _scored("expected-size"),
        True,
    ),
    StrategySpec(
        "entropy", "heuristic", "largest entropy of the answer classes", OPTIONS, _scored("entropy"), True
    ),
    StrategySpec(
        "most-parts", "heuristic", "most non-empty answer classes", OPTIONS, _scored("most-parts"), True
    ),
    StrategySpec("simple", "heuristic", "the first code still possible", (), _simple),
    StrategySpec("random", "heuristic", "a random code still possible (seeded)", ("seed",), _random),
    StrategySpec("optimal", "solver", "least total guesses, solved exactly", ("pool",), _optimal),
)

REGISTRY: dict[str, StrategySpec] = {spec.name: spec for spec in _SPECS}
"""Every strategy by name, heuristics first in the order reports list them."""

NAMES = tuple(REGISTRY)
"""Every name :func:`make_strategy` accepts."""

HEURISTIC_NAMES = tuple(name for name, spec in REGISTRY.items() if spec.kind == "heuristic")
"""The heuristics, in the order reports list them (the default of ``heuristics`` and ``compare``)."""


def names_text(names: tuple[str, ...] = NAMES, last: str = "or") -> str:
    """``a, b or c`` (one of them), ``a, b and c`` (all of them): names for a help text.

    >>> from mastermind.engines.registry import names_text
    >>> names_text(("simple", "random", "optimal")), names_text(("simple", "random"), "and")
    ('simple, random or optimal', 'simple and random')
    """
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else "".join(names)


def _check(what: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise MastermindError(f"unknown {what} {value!r}; use one of {', '.join(allowed)}")


def strategy(name: str) -> StrategySpec:
    """The strategy called ``name``; an unknown name is a :class:`MastermindError` listing them.

    >>> from mastermind.engines.registry import strategy
    >>> strategy("knuth")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: unknown strategy 'knuth'; use one of minimax, \
expected-size, entropy, most-parts, simple, random, optimal
    """
    _check("strategy", name, NAMES)
    return REGISTRY[name]


def check_options(*, pool: str = "all", tie_break: str = "default") -> None:
    """Refuse an unknown pool or tie-break before any work is done."""
    from mastermind.core.pools import POOLS
    from mastermind.engines.heuristics.strategies import TIE_BREAKS

    _check("pool", pool, POOLS)
    _check("tie-break", tie_break, TIE_BREAKS)


def check_names(names: list[str] | tuple[str, ...], *, pool: str = "all", tie_break: str = "default") -> None:
    """Refuse unknown strategy names, pool or tie-break before any work is done."""
    for name in names:
        strategy(name)
    check_options(pool=pool, tie_break=tie_break)


def make_strategy(name: str, table: CodeTable, **options: Any) -> Strategy:
    """The strategy called ``name`` (one of :data:`NAMES`) for the game of ``table``.

    ``options`` (those of :meth:`StrategySpec.make`): ``pool`` and ``tie_break`` matter to the scored
    heuristics (``pool`` to ``optimal`` too); ``seed`` to ``random`` and to random tie-breaking;
    ``progress`` shows a solver's work. ``optimal`` solves the game exactly.

    >>> from mastermind.engines.registry import make_strategy
    >>> from mastermind.core.game import CodeTable, Rules
    >>> table = CodeTable(Rules(4, 6))
    >>> table.rules.code_text(make_strategy("minimax", table).next_guess(table.all_codes))
    '1122'
    """
    return strategy(name).make(table, **options)


def strategy_tree(name: str, table: CodeTable, **options: Any) -> StrategyTree:
    """The tree of the strategy called ``name``: every secret played (a solver's own tree).
    ``options``: those of :func:`make_strategy`.

    >>> from mastermind.engines.registry import strategy_tree
    >>> from mastermind.core.game import CodeTable, Rules
    >>> table = CodeTable(Rules(2, 3))
    >>> [strategy_tree(name, table).stats(table).total for name in ("simple", "optimal")]
    [24, 21]
    """
    return player_tree(make_strategy(name, table, **options), name)


def player_tree(player: Any, name: str, cancel: CancelToken | None = None) -> StrategyTree:
    """The tree of ``player``: its own when it follows one (a solver's, a file's, with the
    name it has), else every secret played, named ``name`` unless it names itself; stopped
    by ``cancel``, :class:`Stopped`."""
    from mastermind.core.strategy import TreeStrategy
    from mastermind.engines.heuristics.play import play_all

    if isinstance(player, TreeStrategy):
        return player.tree
    tree = play_all(player, cancel=cancel)
    return tree if tree.name else replace(tree, name=name)
