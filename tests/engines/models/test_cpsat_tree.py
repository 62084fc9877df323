"""The CP-SAT strategy-tree model against the exact search and a brute-force reference."""

import pytest

from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Problem, solve
from mastermind.engines.models.bounds import lookahead_total_bound
from mastermind.engines.models.cpsat_tree import depth_feasible, solve_tree, worst_case_lower_bound

from ..exact.reference import reference_worst
from .reference import INF, reference_optimum

TINY = [(2, 2), (2, 3), (3, 2), (2, 4)]


@pytest.mark.parametrize("pegs,colors", TINY)
def test_optimal_total_agrees_with_exact_and_brute_force(pegs, colors):
    table = CodeTable(Rules(pegs, colors))
    exact = solve(table)
    depth = exact.worst  # the exact optimum fits in this depth
    result = solve_tree(table, depth, time_limit=60, workers=2)
    assert result.proven and result.details.status == "OPTIMAL"
    assert result.value == exact.total == reference_optimum(table, depth)[0]
    stats = result.tree.stats(table)  # replays every secret: the tree is a real strategy
    assert stats.total == result.value and stats.worst <= depth


@pytest.mark.parametrize("rules", [Rules(2, 3, False), Rules(2, 4, False), Rules(3, 4, False)], ids=str)
def test_games_without_repetition(rules):
    table = CodeTable(rules)
    exact = solve(table)
    result = solve_tree(table, exact.worst, time_limit=60, workers=2)
    assert result.proven and result.value == exact.total
    if table.n <= 12:
        assert exact.total == reference_optimum(table, exact.worst)[0]


# (p4c2 is slow: 1.9 s of CPU, as much as the others together, through the same paths as
# the other games of more than 16 codes, p3c3 and p2c5)
@pytest.mark.parametrize("pegs,colors", TINY + [(3, 3), pytest.param(4, 2, marks=pytest.mark.slow), (2, 5)])
def test_depth_infeasibility_proves_the_worst_case(pegs, colors):
    table = CodeTable(Rules(pegs, colors))
    worst = solve(table, Problem(objective="worst")).worst
    # exhaustive references: the tree enumeration up to 16 codes, the plain minimax search above
    expected = reference_optimum(table)[1] if table.n <= 16 else reference_worst(table, range(table.n))
    assert worst == expected
    below = depth_feasible(table, worst - 1, time_limit=60, workers=2)
    assert below.details.status == "INFEASIBLE" and below.proven
    if table.n <= 16:
        at = depth_feasible(table, worst, time_limit=60, workers=2)
        assert at.value is not None and at.tree.stats(table).worst <= worst


# slow (p4c2: 3 s of CPU on two CP-SAT workers): the seeded model's optimum is checked in
# the quick tier on p3c2 and p2c5 (test_lower_bound_seed_does_not_change_the_optimum,
# test_depth_limited_total_matches_reference)
@pytest.mark.slow
@pytest.mark.parametrize("pegs,colors", [(4, 2), (3, 3)])
def test_seeded_model_agrees_with_exact_on_larger_games(pegs, colors):
    # with the two-level bound as a seed CP-SAT proves p4c2 in seconds, p3c3 in about 30 s
    table = CodeTable(Rules(pegs, colors))
    exact = solve(table)
    result = solve_tree(
        table, exact.worst, time_limit=300, workers=2, lower_bound=lookahead_total_bound(table, 2)
    )
    assert result.proven and result.value == exact.total
    assert result.tree.stats(table).total == exact.total


def test_depth_limited_total_matches_reference():
    # p2c5: the least total (81) needs 5 guesses for some secret; within 4 guesses it costs more
    table = CodeTable(Rules(2, 5))
    ref4 = reference_optimum(table, 4)[0]
    assert ref4 < INF
    assert solve(table, Problem(max_guesses=4)).total == ref4
    result = solve_tree(table, 4, time_limit=60, workers=2, lower_bound=lookahead_total_bound(table, 2))
    assert result.proven and result.value == ref4


def test_lower_bound_seed_does_not_change_the_optimum():
    table = CodeTable(Rules(3, 2))
    plain = solve_tree(table, 3, time_limit=30, workers=1)
    seeded = solve_tree(table, 3, time_limit=30, workers=1, lower_bound=lookahead_total_bound(table, 2))
    assert plain.value == seeded.value == 18


def test_worst_case_lower_bound_climbs_to_the_optimum():
    table = CodeTable(Rules(2, 4))
    assert worst_case_lower_bound(table, 1, time_limit=30, workers=1) == (4, True)


def test_time_limit_reports_unproven():
    table = CodeTable(Rules(2, 4))
    optimum = solve(table).total
    result = solve_tree(table, 5, time_limit=0.01, workers=1)  # far too short to prove anything
    assert not result.proven and result.details.status in ("FEASIBLE", "UNKNOWN")
    if result.details.status == "FEASIBLE":  # a strategy found but not proven: its value is no better
        assert result.value >= optimum and result.lower_bound <= optimum
    else:  # nothing found within the limit: no value, and the bound is still a true bound
        assert result.value is None and result.lower_bound <= optimum
        assert result.lower_bound is not None and result.lower_bound <= 45
    if result.value is not None:
        assert result.value >= 45


def test_bad_arguments_are_one_line_errors():
    table = CodeTable(Rules(2, 2))
    with pytest.raises(MastermindError, match="time limit"):
        solve_tree(table, 3, time_limit=0)
    with pytest.raises(MastermindError, match="workers"):
        solve_tree(table, 3, workers=0)
    with pytest.raises(MastermindError, match="out of reach"):
        solve_tree(CodeTable(Rules(4, 4)), 6)


def test_a_huge_depth_is_refused_from_its_estimate_before_building():
    # depth 100 used to lay out 13**99 nodes first and be killed at 24 GB
    from mastermind.engines.models.cpsat_tree import check_model_size

    table = CodeTable(Rules(4, 6))
    with pytest.raises(MastermindError, match=r"about 10\^110 nodes.*variables.*constraints.*TiB of memory"):
        solve_tree(table, 100, time_limit=1)
    assert check_model_size(CodeTable(Rules(2, 2)), 3).nodes == 1 + 3 + 9


def test_the_deepest_model_within_reach():
    from mastermind.engines.models.cpsat_tree import MAX_MODEL_SIZE, deepest_model, model_size

    table = CodeTable(Rules(3, 4))
    assert model_size(table, 4).terms <= MAX_MODEL_SIZE < model_size(table, 5).terms
    assert deepest_model(table, 10) == 4 and deepest_model(table, 3) == 3
    assert deepest_model(CodeTable(Rules(4, 6)), 5) == 1  # 1296 x 1296 terms at the root alone
    assert deepest_model(CodeTable(Rules(1, 1)), 1) == 1  # (one answer: the depth grows linearly)


def test_a_refusal_gives_the_advice_asked():
    from mastermind.engines.models.cpsat_tree import check_model_size

    with pytest.raises(MastermindError, match=r"\(limit 3000000 node x secret x guess terms\); try 4$"):
        check_model_size(CodeTable(Rules(3, 4)), 5, advice="try 4")
    with pytest.raises(MastermindError, match="use a smaller game or depth$"):  # (solve_tree's)
        solve_tree(CodeTable(Rules(3, 4)), 5)


def test_the_time_limit_counts_the_model_building():
    table = CodeTable(Rules(3, 3))
    result = solve_tree(table, 4, time_limit=1e-9, workers=1, lower_bound=50)
    assert result.stopped == "time limit" and not result.proven and result.value is None
    assert result.lower_bound == 50


def _solver_times(monkeypatch, module):
    """The ``max_time_in_seconds`` of every CP-SAT run of ``module``, and the time its token
    had left then."""
    import mastermind.engines.models.result as result

    seen = []

    def run_solver(solver, model, cancel=None):
        seen.append((solver.parameters.max_time_in_seconds, cancel.remaining()))
        return result.run_solver(solver, model, cancel)

    monkeypatch.setattr(module, "run_solver", run_solver)
    return seen


def test_the_solvers_time_limit_is_what_the_token_has_left(monkeypatch):
    """One store of a time limit: the token's deadline (the caller's, or the earlier of it
    and ``time_limit``), and CP-SAT's own limit is read from it."""
    import mastermind.engines.models.cpsat_tree as cpsat_tree
    from mastermind.core.cancel import CancelToken

    table = CodeTable(Rules(2, 3))
    seen = _solver_times(monkeypatch, cpsat_tree)
    with CancelToken(600) as caller:
        assert solve_tree(table, 3, workers=1, cancel=caller).proven  # the caller's deadline
        assert solve_tree(table, 3, time_limit=30, workers=1, cancel=caller).proven  # the earlier
    assert solve_tree(table, 3, workers=1).proven  # none: CP-SAT's own default, no limit
    (caller_time, caller_left), (own_time, own_left), (free_time, free_left) = seen
    assert 0 < caller_left <= caller_time <= 600
    assert 0 < own_left <= own_time <= 30
    assert (free_time, free_left) == (float("inf"), None)


def test_the_depths_share_the_deadline_of_the_token(monkeypatch):
    """worst_case_lower_bound gives its depths one deadline (time_limit from its start): each
    CP-SAT run gets what is left of it, never more."""
    import mastermind.engines.models.cpsat_tree as cpsat_tree

    seen = _solver_times(monkeypatch, cpsat_tree)
    assert worst_case_lower_bound(CodeTable(Rules(2, 4)), 1, time_limit=30, workers=1) == (4, True)
    assert len(seen) == 4  # depths 1, 2 and 3 refuted, 4 found
    times = [t for t, _ in seen]
    assert all(0 < t <= 30 for t in times) and times == sorted(times, reverse=True)
