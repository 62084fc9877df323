"""Static Mastermind: CP-SAT optimum, known values, and a brute-force check on tiny games."""

from itertools import combinations, product

import pytest

from mastermind.core.game import CodeTable, Rules
from mastermind.engines.models.static import counting_static_bound, separates, solve_static


def plain_answer(secret, guess, black_only):
    """Black and white pegs counted by hand from colour tuples (nothing from the package)."""
    black = sum(s == g for s, g in zip(secret, guess))
    if black_only:
        return black
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def plain_separates(codes, guesses, black_only):
    answers = {tuple(plain_answer(secret, codes[g], black_only) for g in guesses) for secret in codes}
    return len(answers) == len(codes)


def brute_force_static(rules, black_only):
    """Fewest guesses fixed in advance that tell every secret apart, by trying every set."""
    codes = list(product(range(rules.colors), repeat=rules.pegs))  # lexicographic: index order
    for size in range(1, len(codes) + 1):
        for guesses in combinations(range(len(codes)), size):
            if plain_separates(codes, guesses, black_only):
                return size
    raise AssertionError


# known values, without the final guess: 2 pegs, colours 2..7
@pytest.mark.parametrize("colors,expected", [(2, 2), (3, 2), (4, 3), (5, 4), (6, 4), (7, 5)])
def test_two_pegs_black_white_known_values(colors, expected):
    table = CodeTable(Rules(2, colors))
    result = solve_static(table, time_limit=60, workers=1)
    assert result.proven and result.details.status == "OPTIMAL"
    assert result.value == result.lower_bound == expected
    assert separates(table, result.details.guesses)
    assert len(result.details.guesses) == expected


def game(pegs, colors, black_only):
    return Rules(pegs, colors, variant="black-peg" if black_only else "standard")


@pytest.mark.parametrize("pegs,colors", [(2, 2), (2, 3), (2, 4), (3, 2)])
@pytest.mark.parametrize("black_only", [False, True])
def test_agrees_with_brute_force(pegs, colors, black_only):
    table = CodeTable(game(pegs, colors, black_only))
    result = solve_static(table, time_limit=30, workers=1)
    assert result.proven
    assert result.value == brute_force_static(table.rules, black_only)
    assert separates(table, result.details.guesses)
    codes = list(product(range(colors), repeat=pegs))
    assert plain_separates(codes, result.details.guesses, black_only)


def test_black_pegs_alone_need_at_least_as_many_guesses():
    bw_table, black_table = CodeTable(Rules(2, 5)), CodeTable(game(2, 5, True))
    bw = solve_static(bw_table, time_limit=30, workers=1)
    black = solve_static(black_table, time_limit=30, workers=1)
    assert black.proven and black.value > bw.value
    assert not separates(black_table, bw.details.guesses)


def test_unproven_run_reports_status_and_bound():
    table = CodeTable(game(3, 4, True))
    result = solve_static(table, time_limit=0.2, workers=1)
    if not result.proven:
        assert result.details.status in ("FEASIBLE", "UNKNOWN")
        assert result.lower_bound is None or result.lower_bound >= counting_static_bound(table)
    if result.value is not None:
        assert separates(table, result.details.guesses)


def test_the_time_limit_counts_the_model_building():
    """A limit that passes while the model is built stops there (p4c4 took 3.8 s on a 1 s
    limit): not proven, the counting bound, no guesses."""
    table = CodeTable(Rules(4, 4))
    result = solve_static(table, time_limit=1e-9, workers=1)
    assert result.stopped == "time limit" and not result.proven and result.value is None
    assert result.lower_bound == counting_static_bound(table)


def test_a_cancel_while_the_model_is_built_stops_the_build_with_the_counting_bound():
    """Ctrl-C as p4c4's model is built (seconds) stops the build itself, between two
    secrets' rows, with the counting bound: the command no longer waits for an unwinding
    that a loaded machine let its watchdog cut short (test_static_reports_its_bound)."""
    from mastermind.core.cancel import CancelToken, StopReason

    table = CodeTable(Rules(4, 4))
    token = CancelToken()
    calls = []

    class CancelledOnTheTenthRow:
        def __init__(self, matrix):
            self.matrix = matrix

        def __array__(self, dtype=None, copy=None):  # (the counting bound's look at it)
            return self.matrix

        def __getitem__(self, key):
            calls.append(key)
            if len(calls) == 10:
                token.cancel()
            return self.matrix[key]

    import mastermind.engines.models.static as static

    original = static.answer_matrix
    static.answer_matrix = lambda t: CancelledOnTheTenthRow(original(t))
    try:
        result = solve_static(table, time_limit=600, workers=1, cancel=token)
    finally:
        static.answer_matrix = original
    assert result.stopped == StopReason.INTERRUPTED and not result.proven and result.value is None
    assert result.lower_bound == counting_static_bound(table)
    assert 10 <= len(calls) < 2 * 20  # (stopped at the next row, not after all 256)


def test_the_solvers_time_limit_is_what_the_token_has_left(monkeypatch):
    """The caller's token holds the deadline (as the command's does): CP-SAT's own limit is
    the time it has left, and with no deadline anywhere, none."""
    import mastermind.engines.models.result as result
    import mastermind.engines.models.static as static
    from mastermind.core.cancel import CancelToken

    seen = []

    def run_solver(solver, model, cancel=None):
        seen.append(solver.parameters.max_time_in_seconds)
        return result.run_solver(solver, model, cancel)

    monkeypatch.setattr(static, "run_solver", run_solver)
    table = CodeTable(Rules(2, 3))
    with CancelToken(600) as caller:
        assert solve_static(table, workers=1, cancel=caller).proven
    assert solve_static(table, workers=1).proven
    assert 0 < seen[0] <= 600 and seen[1] == float("inf")
