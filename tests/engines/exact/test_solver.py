"""The exact solver: published values, and agreement with the plain exhaustive search."""

import math
from fractions import Fraction

import numpy as np
import pytest

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, Problem, solve, solve_by_first_guess
from mastermind.engines.result import Status

from .reference import reference_cost, reference_solve, reference_worst

# every game with at most ~30 codes runs by default; the rest up to 81 codes is marked slow
# (the exhaustive search needs ~1 minute per option on the 60-81 code games)
SMALL = [
    "p1c1",
    "p1c4",
    "p2c2",
    "p2c3",
    "p2c4",
    "p2c5",
    "p3c2",
    "p3c3",
    "p4c2",
    "p2c3n",
    "p2c4n",
    "p2c5n",
    "p3c3n",
    "p3c4n",
    "p4c4n",
]
LARGER = ["p2c6", "p2c7", "p2c6n", "p2c7n", "p2c8n"]
LARGEST = ["p3c4", "p4c3", "p3c5n", "p2c8", "p2c9", "p2c9n"]

_tables: dict[str, CodeTable] = {}


def table_of(text: str) -> CodeTable:
    if text not in _tables:
        _tables[text] = CodeTable(Rules.parse(text))
    return _tables[text]


def check_tree(table, result, cands=None):
    """The returned tree, replayed against every secret, gives the reported numbers."""
    stats = result.tree.stats(table) if cands is None else None
    if stats is None:
        from mastermind.core.tree import Stats

        stats = Stats.from_depths(result.tree.depths(table, np.asarray(cands)))
    assert stats.total == result.stats.total
    assert stats.worst == result.worst
    assert stats.histogram == result.histogram
    return stats


@pytest.fixture(scope="module")
def p4c6():
    return table_of("p4c6")


def test_p4c6_optimal_total_is_5625(p4c6):
    result = solve(p4c6)
    assert (result.total, result.secrets, result.proven) == (5625, 1296, True)
    assert round(result.average, 4) == 4.3403
    check_tree(p4c6, result)
    assert result.nodes > 0
    # the same as work units (with a progress bar) and on two threads
    assert solve(p4c6, execution=Execution(units=True), progress=_Recorder()).total == 5625
    assert check_tree(p4c6, solve(p4c6, execution=Execution(jobs=2))).total == 5625


def test_p4c6_worst_case_is_5(p4c6):
    result = solve(p4c6, Problem(objective="worst"))
    assert result.worst == 5
    assert result.total == 5626  # the best total among strategies that never need a sixth guess
    check_tree(p4c6, result)


def test_p4c6_max_guesses_5_gives_5626(p4c6):
    result = solve(p4c6, Problem(max_guesses=5))
    assert (result.total, result.worst) == (5626, 5)
    check_tree(p4c6, result)


def _check_against_reference(text, **kw):
    table = table_of(text)
    value, _ = reference_solve(table, **kw)
    result = solve(table, Problem(**kw))
    assert result.total == value, kw
    stats = check_tree(table, result)
    if kw.get("objective") == "worst":
        assert result.worst == reference_worst(table, range(table.n), pool=kw.get("pool", "all"))
    if kw.get("max_guesses"):
        assert stats.worst <= kw["max_guesses"]
    return result


@pytest.mark.parametrize("text", SMALL)
def test_small_games_agree_with_exhaustive_search(text):
    table = table_of(text)
    plain = _check_against_reference(text)
    worst = _check_against_reference(text, objective="worst")
    _check_against_reference(text, pool="consistent")
    _check_against_reference(text, objective="worst", pool="consistent")
    # a cap at the optimal worst case, and one guess above it
    _check_against_reference(text, max_guesses=worst.worst)
    _check_against_reference(text, max_guesses=worst.worst + 1, pool="consistent")
    if worst.worst > 1:  # an answer, not an error
        assert solve(table, Problem(max_guesses=worst.worst - 1)).status is Status.NO_STRATEGY
    assert plain.total <= worst.total


@pytest.mark.slow
@pytest.mark.parametrize("text", LARGER)
def test_larger_games_agree_with_exhaustive_search(text):
    worst = _check_against_reference(text, objective="worst")
    _check_against_reference(text)
    _check_against_reference(text, pool="consistent")
    _check_against_reference(text, max_guesses=worst.worst)


@pytest.mark.slow
@pytest.mark.parametrize("text", LARGEST)
def test_largest_games_agree_with_exhaustive_search(text):
    _check_against_reference(text, pool="consistent")
    if table_of(text).n <= 64 or text == "p4c3":
        _check_against_reference(text)


@pytest.mark.parametrize("text", ["p2c4", "p3c3", "p3c4n", "p2c5n", "p4c2"])
@pytest.mark.parametrize("seed", range(3))
def test_random_integer_weights_agree_with_exhaustive_search(text, seed):
    table = table_of(text)
    rng = np.random.default_rng(seed)
    weights = rng.integers(0, 6, size=table.n)
    for kw in ({}, {"pool": "consistent"}, {"max_guesses": reference_worst(table, range(table.n))}):
        expect = reference_cost(
            table, range(table.n), kw.get("max_guesses"), pool=kw.get("pool", "all"), weights=weights
        )
        result = solve(table, Problem(weights=weights, **kw))
        assert result.total == expect
        check_tree(table, result)
        assert result.total == int((weights * result.tree.depths(table)).sum())
        assert result.fraction == Fraction(int(expect), int(weights.sum()))


@pytest.mark.parametrize("text", ["p3c3", "p2c5n"])
@pytest.mark.parametrize("seed", range(3))
def test_random_float_weights_agree_with_exhaustive_search(text, seed):
    table = table_of(text)
    rng = np.random.default_rng(100 + seed)
    weights = rng.random(table.n) * (rng.random(table.n) > 0.2)  # some zero weights
    expect = reference_cost(table, range(table.n), weights=weights)
    result = solve(table, Problem(weights=weights))
    assert math.isclose(result.total, expect, rel_tol=1e-12)
    assert math.isclose(result.average, expect / weights.sum(), rel_tol=1e-12)
    check_tree(table, result)


def test_equal_weights_are_the_plain_search_scaled():
    table = table_of("p3c4n")
    plain = solve(table)
    for w in (1, 3):
        result = solve(table, Problem(weights=np.full(table.n, w)))
        assert result.total == w * plain.total
        assert result.nodes == plain.nodes  # the same search, not a weighted one
    zero = solve(table, Problem(weights=np.zeros(table.n)))
    assert zero.total == 0 and zero.stats.secrets == table.n
    assert zero.to_dict()["total"] == 0 and zero.to_dict()["average"] is None  # (0/0: no average)


@pytest.mark.parametrize("seed", range(4))
def test_candidate_subsets_agree_with_exhaustive_search(seed):
    table = table_of("p3c3")
    rng = np.random.default_rng(seed)
    cands = np.sort(rng.choice(table.n, size=int(rng.integers(4, 20)), replace=False))
    weights = rng.integers(1, 4, size=table.n) if seed % 2 else None
    expect = reference_cost(table, cands, weights=weights)
    result = solve(table, Problem(candidates=cands, weights=weights))
    assert result.total == expect
    check_tree(table, result, cands)


@pytest.mark.parametrize("seed", range(12))
def test_small_candidate_sets_with_few_guesses_left_agree_with_exhaustive_search(seed):
    """Sets small enough for the shortcuts that settle a set before weighing its guesses
    (a member or another guess telling the secrets apart, the candidates' own classes), with
    two to four guesses left: the cost, or that no strategy fits, as plain recursion finds."""
    table = table_of(("p3c4", "p4c4", "p2c5", "p3c3")[seed % 4])
    rng = np.random.default_rng(50 + seed)
    cands = np.sort(rng.choice(table.n, size=int(rng.integers(3, 13)), replace=False))
    for d in (2, 3, 4):
        expect = reference_cost(table, cands, d)
        result = solve(table, Problem(candidates=cands, max_guesses=d))
        if expect == math.inf:
            assert result.status is Status.NO_STRATEGY
        else:
            assert result.total == expect
            check_tree(table, result, cands)


@pytest.mark.parametrize("text", ["p2c4", "p3c3", "p4c4n", "p2c5n"])
def test_first_guess_and_by_first_guess(text):
    table = table_of(text)
    results = solve_by_first_guess(table)
    assert min(r.total for r in results) == solve(table).total
    for r in results:
        answers = table.scores[r.first_guess]
        win = table.rules.win_index
        expect = table.n + sum(
            reference_cost(table, np.flatnonzero(answers == a)) for a in np.unique(answers) if a != win
        )
        assert r.total == expect
        assert solve(table, Problem(first_guess=r.first_guess)).total == expect
        assert r.tree.root.guess == r.first_guess
        check_tree(table, r)


@pytest.mark.parametrize("text", ["p2c4", "p3c3", "p2c5", "p4c4n", "p3c4n"])
def test_tie_break_prefers_smaller_worst_case(text):
    table = table_of(text)
    plain = solve(table)
    tied = solve(table, Problem(tie_break=True))
    assert tied.total == plain.total
    # the smallest worst case among optimal strategies, by the exhaustive search
    d = 1
    while reference_cost(table, range(table.n), d) != plain.total:
        d += 1
    assert tied.worst == d
    assert tied.histogram[-1] <= plain.histogram[-1] or tied.worst < plain.worst
    check_tree(table, tied)


@pytest.mark.parametrize("text", ["p3c3", "p2c4", "p3c4n"])
def test_tie_break_counts_fewest_secrets_at_worst_case(text):
    table = table_of(text)
    tied = solve(table, Problem(tie_break=True))
    # exhaustive: with d the smallest worst case of an optimal strategy, a guess costs
    # N + 1 and a secret solved by the d-th guess one more
    n = table.n
    d = tied.worst
    value = reference_cost(table, range(n), d, unit=n + 1, penalty=1)
    assert value == (n + 1) * tied.total + tied.histogram[-1]


def test_parallel_jobs_give_the_same_optimum():
    table = table_of("p4c4")
    one = solve(table)
    two = solve(table, execution=Execution(jobs=2))
    assert two.total == one.total
    check_tree(table, two)


@pytest.mark.parametrize("text", ["p3c4", "p4c3", "p3c5n", "p2c8", "p4c4n"])
@pytest.mark.parametrize("round_seconds", [1e-6, 20.0])
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("max_guesses, pool", [(None, "all"), (4, "all"), (3, "all"), (None, "consistent")])
def test_rounds_agree_with_one_thread(text, round_seconds, jobs, max_guesses, pool):
    """Raising the root's bound round by round (targets that step up fast or slowly, one or
    two threads sharing a memo) finds the one-thread optimum and a true tree, or that there
    is no strategy within the guesses allowed, and runs every unit it counted."""
    from mastermind.engines.exact._memo import new_memo
    from mastermind.engines.exact.anytime import RoundSearch
    from mastermind.engines.exact.backends import ThreadBackend
    from mastermind.engines.exact.search import INF, UNLIMITED
    from mastermind.engines.exact.solver import ExactSolver

    table = table_of(text)
    one = solve(table, Problem(max_guesses=max_guesses, pool=pool))
    solver = ExactSolver(table, Problem(pool=pool))
    backend = ThreadBackend(jobs)
    rounds = RoundSearch(solver, backend, memo=new_memo(1 << 16, shared=True), round_seconds=round_seconds)
    try:
        r = UNLIMITED if max_guesses is None else max_guesses
        state = rounds.run(solver.cands, r, solver.group)
    finally:
        backend.close()
    assert rounds.reporter.done == rounds.reporter.total  # every unit asked for was collected
    if one.status is Status.NO_STRATEGY:
        assert state.lower == INF and state.tree is None
        return
    assert state.proven and state.lower == state.upper == one.total
    result = solver.result(state.tree, start=0.0)
    assert result.total == one.total
    assert max_guesses is None or result.worst <= max_guesses


@pytest.mark.parametrize("text", ["p3c3", "p3c4", "p4c3", "p2c6", "p3c4n"])
def test_a_restricted_root_honours_its_budget(text):
    """With the first guess fixed and a budget, the search returns the exact cost below the
    budget and a bound at least the budget otherwise, for budgets around the optimum."""
    from mastermind.engines.exact.solver import ExactSolver

    table = table_of(text)
    solver = ExactSolver(table)
    for g in solver.first_guesses():
        exact = solver.new_search().solve(solver.cands, 10**6, math.inf, only=[g])
        for budget in (exact - 2, exact - 1, exact, exact + 1, exact + 5):
            got = solver.new_search().solve(solver.cands, 10**6, budget, only=[g])
            assert got == exact if exact < budget else got >= budget


def test_a_restricted_root_bounds_subsets_by_every_guess():
    """Regression: a root restricted to one guess once bounded its subsets by the classes
    that guess alone makes, too high a bound, and refuted a guess that meets the budget."""
    from mastermind.engines.exact.solver import ExactSolver

    table = table_of("p4c8n")
    solver = ExactSolver(table)
    first = table.rules.parse_code("1234")
    search = solver.new_search()
    group = search.child_group(search.group, first)
    answers = table.scores[first][solver.cands]
    sub = solver.cands[answers == 7]
    guess = int(table.rules.parse_code(table.rules.code_text(12)))
    exact = solver.new_search().solve(sub, 10**6, math.inf, group, only=[guess])
    # 497 is the same subproblem solved through the public entry point (no budget to refute)
    assert exact == solve(table, Problem(candidates=sub, first_guess=guess)).total == 497
    assert solver.new_search().solve(sub, 10**6, exact + 1, group, only=[guess]) == exact


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"objective": "average"}, "objective"),
        ({"pool": "some"}, "pool"),
        ({"max_guesses": 0}, "at least 1"),
        ({"weights": [1, 2]}, "one entry per code"),
        ({"weights": -np.ones(27)}, "non-negative"),
        ({"candidates": []}, "empty"),
        ({"first_guess": 99}, "out of range"),
    ],
)
def test_bad_input_is_a_one_line_error(kw, message):
    with pytest.raises(MastermindError, match=message):
        solve(table_of("p3c3"), Problem(**kw))


def test_needs_the_full_score_table():
    with pytest.raises(MastermindError, match="full score table"):
        solve(CodeTable(Rules.parse("p2c2"), full=False))


class _Recorder:
    def __init__(self):
        self.starts, self.advanced = [], 0

    def start(self, total, description=""):
        self.starts.append((total, description))

    def advance(self, n=1):
        self.advanced += n


@pytest.mark.parametrize("text", ["p3c4", "p4c4", "p3c5n"])
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("kw", [{}, {"max_guesses": 4}, {"objective": "worst"}])
def test_progress_reporting_leaves_the_optimum_unchanged(text, jobs, kw):
    """With a progress bar the search runs as work units (the plain total; the other problems
    in this thread): same optimum, and the bar moves."""
    table = table_of(text)
    units = Execution(jobs=jobs, units=True)
    plain = solve(table, Problem(**kw))
    if plain.status is Status.NO_STRATEGY:
        assert solve(table, Problem(**kw), execution=units, progress=_Recorder()).status is Status.NO_STRATEGY
        return
    bar = _Recorder()
    shown = solve(table, Problem(**kw), execution=units, progress=bar)
    assert (shown.total, shown.worst) == (plain.total, plain.worst)
    check_tree(table, shown)
    assert bar.starts and bar.advanced > 0


def test_building_a_tree_whose_search_is_stopped_raises_stopped_not_a_wrong_tree():
    """A subset the memo lacks is searched while the tree is built; once stopped, that search
    yields lower bounds only, so the build must stop too (not assert or return a tree)."""
    from mastermind.core.cancel import CancelToken, Stopped
    from mastermind.engines.exact.solver import ExactSolver

    solver = ExactSolver(CodeTable(Rules(3, 4)))
    token = CancelToken()
    search = solver.new_search(cancel=token)
    token.cancel()
    with pytest.raises(Stopped):
        search.build(solver.cands, 10)
    with pytest.raises(Stopped):  # a stopped search's root guess (-1), as the tie-break's
        search.build(solver.cands, 10, guess=-1)
    fresh = solver.new_search(cancel=CancelToken())
    value = fresh.solve(solver.cands, 10, math.inf)
    assert value == 206 and fresh.build(solver.cands, 10) is not None


# SuperMasterMind's optimal-strategy page, "optimal logical strategy" (every guess a code
# still possible), per first guess; 1233 and 1222 there are 1123 and 1112 up to symmetry
HARD_MODE_BY_FIRST_GUESS = {
    Rules(3, 5): {"111": 514, "112": 456, "123": 455},
    Rules(4, 6): {"1111": 6359, "1112": 5848, "1122": 5752, "1123": 5660, "1234": 5743},
}


@pytest.mark.parametrize("rules", list(HARD_MODE_BY_FIRST_GUESS))
def test_the_published_hard_mode_optima(rules):
    """Only codes still possible as guesses (hard mode): the published optimum of every first
    guess, and the optimal strategy keeps to consistent guesses."""
    from mastermind.core.formats import pool_kept

    table = CodeTable(rules)
    published = HARD_MODE_BY_FIRST_GUESS[rules]
    r = solve(table, Problem(pool="consistent"))
    assert r.status is Status.OPTIMAL and r.total == min(published.values())
    assert pool_kept(r.tree.n_nodes(), rules.n_codes) == "consistent"
    by_first = solve_by_first_guess(table, Problem(pool="consistent"))
    assert {rules.code_text(f.first_guess): f.total for f in by_first} == published
    assert solve(table).total < r.total  # (the rule costs guesses in both games)
