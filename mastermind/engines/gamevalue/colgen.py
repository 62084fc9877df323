"""The value of Mastermind as a zero-sum game, by column generation with an exact proof.

The code maker chooses the secret at random with probabilities of its choice and maximises the
expected number of guesses; the code breaker may randomise over strategy trees and minimises
it. The maker's best mix can be taken equal within each pattern class (see
:mod:`mastermind.engines.gamevalue.classes`), and the breaker's trees are played under a random
symmetry, so the game shrinks to one row per class and one column per tree.

Column generation: solve the breaker's LP over the trees found so far (GLOP), take the maker's
dual prices as weights, and ask for the breaker's best reply (a weighted exact search). The LP
value is an upper bound on the game value, the best reply's value a lower bound; when they
meet, the last LP is solved again in rational arithmetic and the best reply to its exact maker
mix is checked to reach exactly the same value: the breaker's mix then guarantees at most the
value against every secret and the maker's mix at least the value against every tree.

>>> from mastermind.engines.gamevalue.colgen import game_value
>>> from mastermind.core.game import CodeTable, Rules
>>> result = game_value(CodeTable(Rules(2, 2)), solver="search")
>>> result.value, result.proven, [(m.name, m.probability) for m in result.details.maker]
(Fraction(2, 1), True, [('aa', Fraction(1, 2)), ('ab', Fraction(1, 2))])
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from mastermind.core.cancel import INTERRUPTED, ITERATION_LIMIT, CancelToken, Stopped
from mastermind.core.errors import MastermindError
from mastermind.core.game import Code, CodeTable
from mastermind.core.progress import NoProgress, Progress
from mastermind.core.tree import Stats, StrategyTree
from mastermind.engines.gamevalue.bestreply import best_reply, exact_solver_available
from mastermind.engines.gamevalue.classes import CodeClasses, code_classes
from mastermind.engines.gamevalue.lp import solve_breaker_lp
from mastermind.engines.gamevalue.rational import solve_matrix_game
from mastermind.engines.result import Details, Objective, Result, Status

FLOAT_TOLERANCE = 1e-9
# a tree of a mix, its class totals, its weight
Column = tuple[StrategyTree, tuple[int, ...], Fraction | float]


@dataclass(frozen=True)
class MakerClass:
    """The maker's optimal probability for one class of codes."""

    name: str  # colour pattern, e.g. aabc
    size: int  # codes in the class
    example: Code  # its smallest code
    per_code: Fraction | float  # probability of each code of the class (float: a stopped run's LP)
    probability: Fraction | float  # of the whole class: size * per_code


@dataclass(frozen=True)
class BreakerTree:
    """One tree of the breaker's optimal mix, to be played under a random symmetry."""

    tree: StrategyTree
    weight: Fraction | float  # (float: a stopped run's LP)
    class_totals: tuple[int, ...]  # guesses spent on each class's codes
    stats: Stats


SETTLE_MAX_CELLS = 5000  # trees x classes of the most a stopped run solves exactly (rationals)


@dataclass
class _Reached:
    """The best bounds so far, each with the mix that guarantees it: what a run that is
    stopped reports. ``maker``: each class's probability per code (forcing ``lower``);
    ``breaker``: (tree, class totals, weight) (keeping to ``upper``)."""

    lower: Fraction | float
    upper: Fraction | float = math.inf
    maker: tuple[Fraction | float, ...] | None = None
    breaker: list[Column] = field(default_factory=list)
    iterations: int = 0
    columns: int = 0
    uniform_total: int = 0
    trees: list[tuple[StrategyTree, tuple[int, ...]]] = field(default_factory=list)  # the LP's columns

    def improve(
        self,
        low: Fraction | float | None = None,
        maker: tuple[Fraction | float, ...] | None = None,
        high: Fraction | float | None = None,
        breaker: list[Column] | None = None,
    ) -> None:
        """Keep a bound (with its mix) that is better by more than a float's rounding: an
        exact bound is not traded for the same one from the float LP."""
        if low is not None and low > self.lower and not math.isclose(low, self.lower, rel_tol=1e-12):
            self.lower, self.maker = low, maker
        if high is not None and high < self.upper and not math.isclose(high, self.upper, rel_tol=1e-12):
            self.upper, self.breaker = high, [] if breaker is None else breaker

    def settle_upper(self, sizes: list[int]) -> None:
        """After a stop in the float phase: the upper bound as the breaker's best mix of the
        trees found, in exact arithmetic (the float LP's mix and bound are no proof, and
        Ctrl-C lost the fractions that --max-iterations gives, a new user's trial)."""
        if (
            not self.trees
            or not self.breaker
            or all(isinstance(w, (Fraction, int)) for _, _, w in self.breaker)
            or len(self.trees) * len(sizes) > SETTLE_MAX_CELLS  # (then too slow for a stop)
        ):
            return
        value, class_mix, tree_mix = solve_matrix_game(
            [[Fraction(totals[k], sizes[k]) for _, totals in self.trees] for k in range(len(sizes))]
        )
        _check_certificate(self.trees, sizes, value, class_mix, tree_mix)
        self.upper = value
        self.breaker = [(tree, totals, w) for (tree, totals), w in zip(self.trees, tree_mix)]

    def maker_classes(self, classes: CodeClasses) -> list[MakerClass]:
        """The maker's mix that forces ``lower``, class by class."""
        if self.maker is None:
            return []
        return [
            MakerClass(classes.names[k], size, classes.examples[k], p, p * size)
            for k, (size, p) in enumerate(zip((int(z) for z in classes.sizes), self.maker))
        ]

    def details(self, table: CodeTable, classes: CodeClasses, solver: str) -> GameValue:
        maker = self.maker_classes(classes)
        breaker = sorted(
            (BreakerTree(t, w, totals, t.stats(table)) for t, totals, w in self.breaker if w > 0),
            key=lambda b: -b.weight,
        )
        return GameValue(maker, breaker, self.iterations, self.columns, self.uniform_total, solver)


@dataclass
class GameValue(Details):
    """What the game value adds to its :class:`Result` (whose ``value`` is the game value
    when proven, else the best upper bound found: an LP value, a float when stopped before
    the exact phase, None before any; ``lower_bound`` the best lower bound): both optimal
    mixes (empty when stopped early) and the work of the column generation."""

    maker: list[MakerClass]
    breaker: list[BreakerTree]
    iterations: int  # best replies computed
    columns: int  # trees in the final LP
    uniform_total: int  # optimal total guesses against a uniformly random secret
    solver: str
    history: list[tuple[float, float]] = field(default_factory=list)  # (lower, upper) per round

    def result_dict(self, result: Result) -> dict:
        # (the game-value command's JSON: one layout, in the library's words too)
        from mastermind.engines.gamevalue.document import game_value_document

        return game_value_document(result)


def game_value(
    table: CodeTable,
    *,
    solver: str = "auto",
    max_iterations: int = 500,
    jobs: int = 1,
    smoothing: float = 0.9,
    progress: Progress | None = None,
    time_limit: float | None = None,
    cancel: CancelToken | None = None,
) -> Result[GameValue]:
    """Solve the maker-versus-breaker game of ``table`` (which needs the full score table).

    ``smoothing`` in [0, 1) moves the LP's maker prices towards the best maker mix found so
    far before asking for a best reply, which damps the oscillation of plain column
    generation; 0 uses the LP prices as they are. ``time_limit`` (seconds) or ``cancel`` (a
    token, cancelled by Ctrl-C at the command line) stop the work: the result then has the
    bounds reached (not proven, ``stopped`` says why).

    >>> from mastermind.engines.gamevalue.colgen import game_value
    >>> from mastermind.core.game import CodeTable, Rules
    >>> found = game_value(CodeTable(Rules(3, 4)))
    >>> found.proven, found.value, found.stopped
    (True, Fraction(219, 68), None)
    """
    if not 0 <= smoothing < 1:
        raise MastermindError(f"smoothing must be in [0, 1), got {smoothing}")
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int) or max_iterations < 2:
        # (the first best reply only starts the LP: fewer could not bound anything)
        raise MastermindError(f"max iterations must be a whole number of at least 2, got {max_iterations!r}")
    from mastermind.engines.models.bounds import perfect_tree_total

    parent = CancelToken() if cancel is None else cancel
    # (a Ctrl-C in the set-up stops the columns as they begin, which report)
    with parent.starting(), contextlib.ExitStack() as held:
        # the maker's uniform mix forces at least the perfect-tree bound of the plain game,
        # before any best reply is known
        classes = code_classes(table)
        uniform = (Fraction(1, table.n),) * len(classes.sizes)
        reached = _Reached(Fraction(perfect_tree_total(table.rules, table.n), table.n), maker=uniform)

        def status() -> str:
            low, high = float(reached.lower), float(reached.upper)
            return f"game value of {table.rules}: between {low:.6f} and {high:.6f}"

        start = time.perf_counter()
        token = held.enter_context(parent.child(time_limit))
        held.enter_context(token.running(status))
        try:
            return _game_value(
                table, classes, solver, max_iterations, jobs, smoothing, progress, token, reached
            )
        except Stopped:
            if reached.trees:
                token.wind_down()  # (the exact LP of the trees found, when small: see SETTLE_MAX_CELLS)
                reached.settle_upper([int(z) for z in classes.sizes])
            upper = reached.upper if math.isfinite(reached.upper) else None
            return Result(
                rules=table.rules,
                objective=Objective.GAME_VALUE,
                status=Status.of(proven=False, found=upper is not None),
                value=upper,
                lower_bound=reached.lower,
                upper_bound=upper,
                tree=None,
                stats=None,
                seconds=time.perf_counter() - start,
                weight_sum=1,
                stopped=token.reason or INTERRUPTED,  # (or whatever raised Stopped)
                details=reached.details(table, classes, solver),
            )


def _game_value(
    table: CodeTable,
    classes: CodeClasses,
    solver: str,
    max_iterations: int,
    jobs: int,
    smoothing: float,
    progress: Progress | None,
    cancel: CancelToken,
    reached: _Reached,
) -> Result[GameValue]:
    """Column generation; ``reached`` keeps the best bounds and their mixes as they improve."""
    start = time.perf_counter()
    progress = progress or NoProgress()
    if table.scores is None:
        raise MastermindError("the game value needs the full score table")
    if solver == "auto":
        solver = "exact" if exact_solver_available() else "search"
    sizes = [int(s) for s in classes.sizes]
    columns: list[tuple[StrategyTree, tuple[int, ...]]] = reached.trees
    seen: set[tuple[int, ...]] = set()

    def add(tree: StrategyTree) -> bool:
        totals = classes.totals(tree.depths(table))
        if totals in seen:
            return False
        seen.add(totals)
        columns.append((tree, totals))
        reached.columns = len(columns)
        return True

    def reply(weights: Sequence[Any]) -> tuple[Any, StrategyTree]:
        cancel.check()
        try:
            answer = best_reply(table, weights, solver=solver, jobs=jobs, cancel=cancel)
        except Stopped as stopped:
            # the maker mixing with these weights forces at least the stopped search's bound
            if stopped.args and stopped.args[0]:
                mass = sum(weights)
                low = stopped.args[0]
                exact = isinstance(low, int) and isinstance(mass, int)
                mix = tuple(
                    (Fraction(weights[c], mass) if exact else weights[c] / mass) for c in representative
                )
                reached.improve(Fraction(low, mass) if exact else low / mass, mix)
            raise
        reached.iterations += 1
        return answer

    def lp_mix(weights: Sequence[Fraction | float]) -> list[Column]:
        return [(tree, totals, w) for (tree, totals), w in zip(columns, weights)]

    def keeps_to(mix: list[Column]) -> Fraction | float:
        """What the breaker's ``mix`` guarantees: its worst class average (from the mix
        itself, so that the bound reported is the one the mix reported beside it keeps)."""
        spent = [sum(w * totals[k] for _, totals, w in mix) for k in range(len(sizes))]
        return max(Fraction(x, z) if isinstance(x, (int, Fraction)) else x / z for x, z in zip(spent, sizes))

    of_code = classes.of_code.tolist()
    representative = [int(e) for e in classes.examples]  # a code of each class
    progress.start(None, f"game value of {table.rules}")
    uniform_total, first = reply([1] * table.n)
    reached.uniform_total = int(uniform_total)
    add(first)
    uniform = (Fraction(1, table.n),) * len(sizes)
    # one tree alone guarantees its worst class average: the maker picks that class
    reached.improve(Fraction(int(uniform_total), table.n), uniform, keeps_to(lp_mix([1])), lp_mix([1]))
    # best replies to exact maker mixes (probability of each code of each class)
    replies: dict[tuple[Fraction, ...], tuple[Fraction, StrategyTree]] = {
        uniform: (Fraction(int(uniform_total), table.n), first)
    }
    iterations, history = 1, []
    progress.advance()

    # float phase: GLOP prices, smoothed towards the best maker mix so far (Wentges), and
    # best replies to them; a single class leaves the maker nothing to choose
    best_low, best_mix = float(uniform_total) / table.n, [float(u) for u in uniform]
    alpha = smoothing
    while len(sizes) > 1 and iterations < max_iterations:
        sol = solve_breaker_lp([c[1] for c in columns], sizes)
        mix = lp_mix(sol.breaker)
        reached.improve(high=keeps_to(mix), breaker=mix)
        tol = FLOAT_TOLERANCE * max(1.0, sol.value)
        if best_low >= sol.value - tol:
            break
        point = [alpha * b + (1 - alpha) * m for b, m in zip(best_mix, sol.maker)]
        low, tree = reply([point[k] for k in of_code])
        iterations += 1
        progress.advance()
        if low > best_low:
            best_low, best_mix = float(low), point
            reached.improve(best_low, tuple(point))
        history.append((best_low, sol.value))
        totals = classes.totals(tree.depths(table))
        priced = sum(sol.maker[k] * totals[k] for k in range(len(sizes)))
        if priced < sol.value - tol and add(tree):
            pass
        elif alpha == 0:
            break  # the LP duals have no improving tree: GLOP has converged
        else:
            alpha = 0.0  # mispricing: the smoothed point found no column, use the duals

    # exact phase: rational LP, best reply to its exact prices, until they agree exactly
    proven = False
    lower: Fraction | float = best_low
    while True:
        value, class_mix, tree_mix = solve_matrix_game(
            [[Fraction(c[1][k], sizes[k]) for c in columns] for k in range(len(sizes))]
        )
        per_code = [class_mix[k] / sizes[k] for k in range(len(sizes))]
        key = tuple(per_code)
        if key in replies:
            low, tree = replies[key]
        elif iterations >= max_iterations:
            break
        else:
            scale = math.lcm(*(p.denominator for p in per_code))
            low_scaled, tree = reply([int(per_code[k] * scale) for k in of_code])
            low = Fraction(low_scaled, scale)
            replies[key] = (low, tree)
            iterations += 1
            progress.advance()
        lower = low if low > lower else lower
        reached.improve(low, key, value, lp_mix(tree_mix))
        history.append((float(low), float(value)))
        if low > value:
            raise AssertionError(f"best reply {low} above the LP value {value}: a solver is wrong")
        if low == value:
            proven = True
            break
        if not add(tree):
            raise AssertionError("best reply below the LP value but already in the LP")

    _check_certificate(columns, sizes, value, class_mix, tree_mix)
    maker = [
        MakerClass(classes.names[k], sizes[k], classes.examples[k], per_code[k], class_mix[k])
        for k in range(len(sizes))
    ]
    breaker = sorted(
        (BreakerTree(t, w, totals, t.stats(table)) for (t, totals), w in zip(columns, tree_mix) if w > 0),
        key=lambda b: -b.weight,
    )
    if not proven:  # out of iterations: the mix reported beside the lower bound must force it
        maker, lower = reached.maker_classes(classes), reached.lower
    return Result(
        rules=table.rules,
        objective=Objective.GAME_VALUE,
        status=Status.of(proven=proven, found=True),
        value=value,
        lower_bound=value if proven else lower,
        upper_bound=value,
        tree=None,
        stats=None,
        seconds=time.perf_counter() - start,
        weight_sum=1,
        fraction=value,
        stopped=None if proven else ITERATION_LIMIT,  # (it said nothing of why it ended)
        details=GameValue(maker, breaker, iterations, len(columns), int(uniform_total), solver, history),
    )


def _check_certificate(
    columns: list[tuple[StrategyTree, tuple[int, ...]]],
    sizes: list[int],
    value: Fraction,
    class_mix: list[Fraction],
    tree_mix: list[Fraction],
) -> None:
    """Recompute the LP's guarantees from the mixes alone, in exact arithmetic."""
    ok = sum(tree_mix) == 1 and min(tree_mix) >= 0 and sum(class_mix) == 1 and min(class_mix) >= 0
    for k, size in enumerate(sizes):  # the breaker's mix: at most the value on every class
        ok = ok and sum(w * Fraction(t[k], size) for (_, t), w in zip(columns, tree_mix)) <= value
    for _, totals in columns:  # the maker's mix: at least the value against every tree
        ok = ok and sum(class_mix[k] * Fraction(totals[k], sizes[k]) for k in range(len(sizes))) >= value
    if not ok:
        raise AssertionError("the exact LP solution does not certify its value")
