"""The optimum by first guess as one result (engines/exact/by_first_guess.py): its rows, the
first guesses with no strategy, the best first guesses, and what a stop leaves."""

from __future__ import annotations

import dataclasses

import pytest

from mastermind.core.cancel import CancelToken, StopReason
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import ByFirstGuess, Problem, solve, solve_by_first_guess
from mastermind.engines.exact.document import no_strategy_fields
from mastermind.engines.result import Status


@pytest.fixture(scope="module")
def p3c3():
    return CodeTable(Rules(3, 3))


def test_each_row_is_the_optimum_after_its_first_guess(p3c3):
    """Cross-checked by the search with the first guess fixed, one guess at a time."""
    found = solve_by_first_guess(p3c3)
    rules = p3c3.rules
    assert isinstance(found, ByFirstGuess) and len(found) == 3 and found.none_within == ()
    for row in found.rows:
        alone = solve(p3c3, Problem(first_guess=rules.parse_code(row["first_guess"])))
        assert (row["total"], row["worst"], row["proven"]) == (alone.total, alone.worst, True)
    assert [row["first_guess"] for row in found.rows] == ["111", "112", "123"]
    assert [row["total"] for row in found.rows] == [86, 73, 80]
    # the best first guess is the optimum's own
    assert found.best_first_guesses == [solve(p3c3).first_guess] == [rules.parse_code("112")]
    assert (found.proven, found.exists, found.stopped) == (True, True, None)


def test_the_answer_is_a_sequence_of_its_results(p3c3):
    found = solve_by_first_guess(p3c3)
    assert list(found) == list(found.results) and found[0] is found.results[0]
    assert [r.total for r in found[1:]] == [73, 80] and bool(found)
    assert all(r.status is Status.OPTIMAL for r in found)
    assert repr(found) == "<ByFirstGuess p3c3r: 3 first guesses, proven>"


def test_first_guesses_with_no_strategy_within_the_cap_are_rows_saying_so():
    table = CodeTable(Rules(3, 4))
    found = solve_by_first_guess(table, Problem(max_guesses=4))
    rules = table.rules
    assert [rules.code_text(g) for g in found.none_within] == ["111"]
    assert [rules.code_text(r.first_guess) for r in found] == ["112", "123"]
    # proven by the search with that first guess fixed: none within 4 guesses
    alone = solve(table, Problem(max_guesses=4, first_guess=rules.parse_code("111")))
    assert alone.status is Status.NO_STRATEGY
    first = found.rows[0]
    assert first["first_guess"] == "111"
    said = (first["exists"], first["proven"], first["total"], first["worst_lower_bound"])
    assert said == (False, True, None, 5)
    assert found.best_first_guesses == [rules.parse_code("112")] and found.exists is True


def test_no_strategy_for_any_first_guess_is_that_answer_proven(p3c3):
    found = solve_by_first_guess(p3c3, Problem(max_guesses=2))
    assert len(found) == 0 and len(found.none_within) == 3 and found.best_first_guesses == []
    data = found.to_dict()
    assert data == {
        "rules": "p3c3r",
        "codes": 27,
        "objective": "total",
        "max_guesses": 2,
        "pool": "all",
        **no_strategy_fields(2, found.seconds),
    }
    assert data["exists"] is False and data["worst_lower_bound"] == 3


def test_a_stopped_run_reports_bounds_and_no_best_first_guess(p3c3):
    token = CancelToken()
    token.cancel()
    found = solve_by_first_guess(p3c3, cancel=token)
    assert len(found) == 3 and not any(r.proven for r in found)
    assert (found.proven, found.stopped, found.best_first_guesses) == (False, StopReason.INTERRUPTED, [])
    data = found.to_dict()
    assert data["proven"] is False and data["stopped"] == "interrupted" and data["best_first_guesses"] == []
    assert all(row["total"] is None and row["stopped"] == "interrupted" for row in data["by_first_guess"])


@pytest.mark.parametrize(("floor", "best"), [(75, ["112"]), (70, [])])
def test_the_best_first_guess_is_named_once_no_unfinished_one_can_beat_it(p3c3, floor, best):
    """123 stopped with a lower bound: at least 75, it cannot beat 112's 73, which is then the
    best; at least 70, it might, and no first guess is named."""
    done = solve_by_first_guess(p3c3)
    cut = dataclasses.replace(
        done[2],
        status=Status.UNKNOWN,
        value=None,
        upper_bound=None,
        tree=None,
        stats=None,
        lower_bound=floor,
        stopped=StopReason.TIME_LIMIT,
        # (a search stopped before its tree keeps its first guess as its opening)
        details=dataclasses.replace(done[2].details, opening=done[2].first_guess),
    )
    found = dataclasses.replace(done, results=(*done[:2], cut))
    assert [p3c3.rules.code_text(g) for g in found.best_first_guesses] == best
    row = found.rows[2]
    assert (row["first_guess"], row["proven"], row["total_lower_bound"]) == ("123", False, floor)
    assert (found.proven, found.stopped) == (False, StopReason.TIME_LIMIT)
    assert found.to_dict()["best_first_guesses"] == best


def test_a_stop_leaves_each_first_guess_at_least_the_bound_of_its_plan():
    """`optimal -r p4c5b --by-first-guess --time-limit 8` said ">= 1249" for the first guesses
    whose searches had not begun (2 guesses per secret, about), where every strategy needs
    3371 (the counting bound the whole game's search has at once): a search stopped before
    it weighed its root now says at least the least bound its root's guesses have."""
    table = CodeTable(Rules.parse("p4c5b"))
    stopped = CancelToken()
    stopped.cancel(StopReason.TIME_LIMIT)
    whole = solve(table, cancel=stopped)
    found = solve_by_first_guess(table, cancel=stopped)
    assert not found.proven and whole.lower_bound is not None and whole.lower_bound >= 3 * table.n
    for result in found:
        assert result.lower_bound is not None and result.lower_bound >= whole.lower_bound


@pytest.mark.parametrize("game", ["p3c3", "p4c4", "p4c4b"])
def test_the_bounds_of_a_stop_at_once_are_at_most_each_first_guesss_optimum(game):
    """Planned alone, a first guess's bound took its own classes for the most any guess
    makes, which is no bound: 4x6 opening 1111 said >= 7832 where 6318 is its optimum. The
    floor is every guess's now; checked against each first guess's proven optimum."""
    table = CodeTable(Rules.parse(game))
    exact = {r.first_guess: r.total for r in solve_by_first_guess(table)}
    stopped = CancelToken()
    stopped.cancel(StopReason.TIME_LIMIT)
    for result in solve_by_first_guess(table, cancel=stopped):
        assert result.lower_bound is not None and result.lower_bound <= exact[result.first_guess]
    capped = solve(table, Problem(max_guesses=2), cancel=stopped)  # (no strategy within 2)
    assert capped.lower_bound is None or capped.lower_bound < float("inf")
