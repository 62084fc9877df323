"""The least depth (the optimal worst case) by the search where guesses cost nothing, against
the plain exhaustive minimax, and what a worst-case search stopped after it answers."""

import pytest

from mastermind.core.cancel import INTERRUPTED, CancelToken
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import StrategyTree
from mastermind.engines.exact import Execution, Problem, solve
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.result import Status

from .reference import reference_solve, reference_worst

GAMES = ["p2c2", "p2c4", "p3c2", "p3c3", "p2c5n", "p3c4n", "p4c4n", "p2c6", "p3c4"]


def _first_guess_depth(table: CodeTable, guess: int, pool: str) -> int:
    """One guess plus the worst of its classes, by the exhaustive minimax."""
    scores, win = table.scores, table.rules.win_index
    classes: dict[int, list[int]] = {}
    cands = range(table.n)
    for s in cands:
        if scores[guess, s] != win:
            classes.setdefault(int(scores[guess, s]), []).append(s)
    return 1 + max((reference_worst(table, part, pool=pool) for part in classes.values()), default=0)


def _replayed_worst(table: CodeTable, root, pool: str) -> int:
    """The worst case of a strategy played against every secret (a consistent strategy
    only guesses codes still possible)."""
    stats = StrategyTree(table.rules, root).stats(table)
    assert stats.secrets == table.n
    if pool == "consistent":
        _assert_consistent(table, root, list(range(table.n)))
    return stats.worst


def _assert_consistent(table: CodeTable, node, cands: list[int]) -> None:
    assert node.guess in cands
    for answer, child in node.children.items():
        _assert_consistent(table, child, [s for s in cands if table.scores[node.guess, s] == answer])


@pytest.mark.parametrize("pool", ["all", "consistent"])
# (p3c4 with every code a guess is slow: its exhaustive minimax took 2 s of CPU, as much as
# the 17 other cases together; p2c6 and p3c4n check the pool of every code on games as wide)
@pytest.mark.parametrize(
    "text", [t if t != "p3c4" else pytest.param(t, marks=pytest.mark.slow) for t in GAMES]
)
def test_least_depth_is_the_exhaustive_minimax(text, pool):
    table = CodeTable(Rules.parse(text))
    solver = ExactSolver(table, Problem(pool=pool))
    least = solver.least_depth(CancelToken())
    depth, tree = least.depth, least.tree
    assert depth == reference_worst(table, range(table.n), pool=pool)
    assert tree is not None and _replayed_worst(table, tree, pool) == depth
    # with each first guess fixed, and under a cap one below (no strategy: the next depth)
    for guess in solver.first_guesses():
        d = _first_guess_depth(table, guess, pool)
        least = solver.fork().least_depth(CancelToken(), only=[guess])
        depth, tree = least.depth, least.tree
        assert depth == d and tree is not None and tree.guess == guess
        assert _replayed_worst(table, tree, pool) == d
        capped = solver.fork().least_depth(CancelToken(), only=[guess], limit=d - 1)
        assert (capped.depth, capped.tree) == (d, None)


class _StopAt:
    """A progress that cancels ``token`` at the ``n``-th step (a depth tried), for ``reason``
    (a Ctrl-C's by default; a time limit's makes the command exit 0)."""

    def __init__(self, token: CancelToken, n: int, reason: str = INTERRUPTED) -> None:
        self.token, self.n, self.reason = token, n, reason

    def start(self, total, description=""):
        pass

    def advance(self, n=1):
        self.n -= n
        if self.n == 0:
            self.token.cancel(self.reason)


class _Count:
    """A progress that counts the steps (depths tried)."""

    steps = 0

    def start(self, total, description=""):
        pass

    def advance(self, n=1):
        self.steps += n


# p3c4 is slow (its reference best total within the depth: 30 s on a loaded machine); p3c3
# covers the same path: 3 levels needed, worst case 4, two depths tried
@pytest.mark.parametrize("text", ["p3c3", "p4c4n", "p2c6", pytest.param("p3c4", marks=pytest.mark.slow)])
def test_a_worst_case_search_stopped_at_each_depth_tried_keeps_what_it_proved(text):
    """Stopped after each depth tried (the probes from above, then the depths refuted from
    below): the lower bound is never above the optimum, the strategy given replays to the
    worst case it claims, the first probe already gives one, and the last step proves the
    depth (stopped before the best total within it)."""
    table = CodeTable(Rules.parse(text))
    best = reference_worst(table, range(table.n))
    levels = ExactSolver(table).search()._levels_needed(table.n)
    count = _Count()
    assert ExactSolver(table, Problem(objective="worst")).run(CancelToken(), count).worst == best
    value, _ = reference_solve(table, objective="worst")  # the best total within the depth
    for step in range(1, count.steps + 1):
        token = CancelToken()
        result = ExactSolver(table, Problem(objective="worst")).run(token, _StopAt(token, step))
        lower = result.details.worst_lower_bound
        assert result.status is Status.FEASIBLE and levels <= lower <= best <= result.worst
        assert result.tree.stats(table).worst == result.worst
        if step == 1:  # the first probe's strategy, nothing refuted yet
            assert lower == levels
        if lower < result.worst:  # (no bound on a total within a depth not proven)
            assert result.lower_bound is None
        if step == count.steps:  # the depth proven (the best total within it not yet)
            assert lower == best == result.worst
            assert result.lower_bound <= value <= result.total
    # the same as work units: stopped once the depth is proven, the best total within it
    # keeps what it proved
    token = CancelToken()
    units = solve(
        table,
        Problem(objective="worst"),
        execution=Execution(units=True),
        cancel=token,
        progress=_StopAt(token, count.steps),
    )
    assert units.details.worst_lower_bound == best == units.worst
    assert units.lower_bound is not None and units.lower_bound <= value <= units.total


def test_the_least_depth_with_no_time_left_or_its_probes_cut_short_still_answers(monkeypatch):
    """A time limit spent before the depth search starts (the probes' share of it 0) is a
    stop, not an error; probes cut short leave the search from below the whole answer."""
    import time

    from mastermind.engines.exact import solver as solver_module

    table = CodeTable(Rules.parse("p3c4"))
    best = reference_worst(table, range(table.n))
    with CancelToken(0.001) as token:
        time.sleep(0.01)
        late = ExactSolver(table).least_depth(token)
    assert late.tree is None and late.depth <= best
    monkeypatch.setattr(solver_module, "PROBE_SECONDS", 0.0001)
    least = ExactSolver(table).least_depth(CancelToken())
    assert least.depth == best and _replayed_worst(table, least.tree, "all") == best


def test_the_shallowest_strategy_found_comes_with_a_lower_bound_below_it():
    """Stopped after its first probe from above: the search gives a strategy (its depth the
    upper bound), the least depth not refuted below it, and no proven strategy."""
    table = CodeTable(Rules.parse("p3c4"))
    best = reference_worst(table, range(table.n))
    token = CancelToken()
    least = ExactSolver(table).least_depth(token, progress=_StopAt(token, 1))
    assert least.tree is None and least.shallowest is not None
    assert least.depth <= best <= least.upper
    assert _replayed_worst(table, least.shallowest, "all") == least.upper
    whole = ExactSolver(table).least_depth(CancelToken())
    assert whole.depth == whole.upper == best and whole.shallowest is whole.tree


@pytest.mark.parametrize("kw", [{}, {"pool": "consistent"}, {"max_guesses": 5}])
@pytest.mark.parametrize("text", ["p3c3", "p2c5n", "p4c4n", "p2c6"])
def test_the_worst_case_as_work_units_is_the_exhaustive_optimum(text, kw):
    table = CodeTable(Rules.parse(text))
    problem = Problem(objective="worst", **kw)
    value, _ = reference_solve(table, objective="worst", **kw)
    for execution in (Execution(units=True), Execution(jobs=2)):
        result = solve(table, problem, execution=execution)
        assert result.status is Status.OPTIMAL and result.objective == "worst"
        assert (result.total, result.worst) == (value, reference_worst(table, range(table.n), **kw_pool(kw)))
        stats = result.tree.stats(table)
        assert (stats.total, stats.worst) == (result.total, result.worst)
        assert result.details.max_guesses == kw.get("max_guesses")


def kw_pool(kw: dict) -> dict:
    return {"pool": kw["pool"]} if "pool" in kw else {}


def test_the_worst_case_as_work_units_under_a_cap_below_it_has_no_strategy():
    table = CodeTable(Rules.parse("p3c3"))
    result = solve(table, Problem(objective="worst", max_guesses=3), execution=Execution(units=True))
    assert result.status is Status.NO_STRATEGY


@pytest.mark.parametrize("pool", ["all", "consistent"])
@pytest.mark.parametrize("text", ["p3c3", "p2c5n", "p4c4n", "p2c6"])
def test_a_cap_fits_exactly_when_the_totals_own_search_finds_a_strategy_within_it(text, pool):
    """``fits`` (asked before a capped total's search) against the exhaustive minimax and
    against the total's search itself (``run`` asks no such question), with and without a
    first guess; and the capped total through ``solve``, each way it runs."""
    table = CodeTable(Rules.parse(text))
    least = reference_worst(table, range(table.n), pool=pool)
    solver = ExactSolver(table, Problem(pool=pool))
    guesses = solver.first_guesses()[:2]
    for cap in range(1, least + 2):
        fits, _ = ExactSolver(table, Problem(pool=pool, max_guesses=cap)).fits(cap, CancelToken())
        assert fits is (cap >= least)
        for guess in guesses:
            problem = Problem(pool=pool, max_guesses=cap, first_guess=guess)
            fits, _ = ExactSolver(table, problem).fits(cap, CancelToken())
            plain = ExactSolver(table, problem).run(CancelToken())
            assert fits is (plain.status is Status.OPTIMAL)
            assert fits is (cap >= _first_guess_depth(table, guess, pool))
        value, _ = reference_solve(table, max_guesses=cap, pool=pool)
        for execution in (Execution(), Execution(units=True)):
            result = solve(table, Problem(pool=pool, max_guesses=cap), execution=execution)
            assert result.status is (Status.OPTIMAL if cap >= least else Status.NO_STRATEGY)
            assert result.total == (value if cap >= least else None)


def test_a_cap_asked_with_no_time_left_is_not_called_unmet():
    table = CodeTable(Rules.parse("p3c3"))
    token = CancelToken()
    token.cancel(INTERRUPTED)
    fits, _ = ExactSolver(table, Problem(max_guesses=3)).fits(3, token)
    assert fits is None
