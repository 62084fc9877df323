"""The exact solver's options as small frozen objects: checked when made, and the execution
path chosen by them alone."""

import dataclasses
import inspect

import numpy as np
import pytest

import mastermind
from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, Limits, Problem, Tuning, solve, solve_by_first_guess


def test_solve_takes_at_most_eight_parameters():
    for function in (mastermind.solve, solve_by_first_guess):
        assert len(inspect.signature(function).parameters) <= 8


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Problem(objective="average"), "objective must be one of total, worst"),
        (lambda: Problem(pool="some"), "pool must be one of all, consistent"),
        (lambda: Problem(max_guesses=0), "at least 1"),
        (lambda: Limits(time_limit=0), "positive number of seconds"),
        (lambda: Limits(time_limit=float("nan")), "positive number of seconds"),
        (lambda: Limits(memory=0), "positive number of bytes"),
        (lambda: Execution(backend="gpu"), "unknown backend 'gpu'"),
        (lambda: Execution(scheduler="tcp://10.0.0.5:8786"), "a scheduler needs the dask backend"),
        (lambda: Execution(backend="dask", scheduler="garbage"), "not a scheduler address"),
        (lambda: Execution(checkpoint="runs", units=False), "need work units"),
        (lambda: Tuning(round_seconds=0), "round seconds"),
        (lambda: Tuning(round_seconds=float("nan")), "round seconds"),
        (lambda: Tuning(split_size=0), "split size"),
        (lambda: Tuning(split_size=2.5), "split size"),
        # (a new user's trial: each was a TypeError later, or taken for something else)
        (lambda: Problem(tie_break="default"), "tie_break must be True or False, got 'default'"),
        (lambda: Problem(first_guess="123"), "first guess must be a code's index"),
        (lambda: Problem(max_guesses=2.5), "max guesses must be a whole number"),
        (lambda: solve(CodeTable(Rules(2, 3)), {"max_guesses": 3}), "problem must be a Problem, got dict"),
        (lambda: solve(CodeTable(Rules(2, 3)), limits=5), "limits must be a Limits, got int"),
        # (trial 52: raw Python errors, a numba traceback, or taken silently)
        (
            lambda: Problem(max_guesses=10**30),
            "max guesses must be at most 2\\*\\*31",
        ),
        (lambda: solve("p3c3"), "table must be a CodeTable"),
        (lambda: solve(CodeTable(Rules(2, 3)), cancel="x"), "cancel must be a CancelToken, got str"),
        (lambda: solve(CodeTable(Rules(2, 3)), progress="x"), "progress must be a Progress"),
        (lambda: Execution(jobs="2"), "jobs must be a whole number, got '2'"),
        (lambda: Execution(jobs=10**6), "jobs must be at most 1024"),
        (lambda: Execution(checkpoint=5), "checkpoint must be a folder's path, got 5"),
        (lambda: Execution(backend="dask", scheduler=8786), "scheduler must be an address"),
        (lambda: Execution(units="yes"), "units must be True, False or None, got 'yes'"),
        (lambda: Limits(memory=True), "memory must be a whole number of bytes, got True"),
        (lambda: Limits(memory=1.5e9), "memory must be a whole number of bytes, got 1500000000.0"),
        (lambda: Limits(memory=10**20), "at most 2\\*\\*60"),
        (lambda: Limits(time_limit="5"), "positive number of seconds, got '5'"),
        (lambda: Limits(time_limit=True), "positive number of seconds, got True"),
    ],
)
def test_bad_options_are_refused_when_made_with_one_line(make, message):
    with pytest.raises(MastermindError, match=message) as caught:
        make()
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("options", [Problem(), Limits(), Execution(), Tuning()])
def test_options_are_frozen(options):
    field = dataclasses.fields(options)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(options, field, None)


@pytest.mark.parametrize(
    "execution, timed, units",
    [
        (Execution(), False, False),
        (Execution(jobs=2), False, True),
        (Execution(jobs=-1), False, True),
        (Execution(backend="processes"), False, True),
        (Execution(checkpoint="runs"), False, True),
        (Execution(), True, True),
        (Execution(units=True), False, True),
        (Execution(jobs=2, units=False), True, False),
    ],
)
def test_the_execution_path_follows_the_options(execution, timed, units):
    """``timed``: the search's token has a deadline (a time limit)."""
    assert execution.wants_units(timed) is units


@pytest.mark.parametrize(
    "execution, timed, units",
    [
        (Execution(jobs=2), False, False),
        (Execution(jobs=1), False, False),
        (Execution(jobs=-1), False, False),
        (Execution(jobs=2, units=True), False, True),
        (Execution(jobs=2), True, True),
        (Execution(jobs=2, checkpoint="runs"), False, True),
        (Execution(jobs=2, backend="processes"), False, True),
    ],
)
def test_more_jobs_leave_a_small_search_whole(execution, timed, units):
    """A search of fewer than ONE_SEARCH_SECRETS secrets, asked for nothing but more jobs,
    is one search: units would cost it several times the work (4x6: 474 nodes in 161 units
    against 128); a time limit, a checkpoint or another backend still want them, and so does a
    bigger search with any jobs (one job: its progress unit by unit, as the command showed
    before the library chose)."""
    from mastermind.engines.exact.options import ONE_SEARCH_SECRETS

    assert execution.wants_units(timed, secrets=ONE_SEARCH_SECRETS - 1) is units
    assert execution.wants_units(timed, secrets=ONE_SEARCH_SECRETS) is True


def test_a_small_game_with_two_jobs_is_one_search():
    table = CodeTable(Rules(3, 4))
    whole = solve(table, execution=Execution(jobs=2))
    units = solve(table, execution=Execution(jobs=2, units=True))
    assert whole.counters.units == 0 and units.counters.units > 0
    assert whole.total == units.total == 206 and whole.proven


def test_a_progress_object_does_not_choose_the_path():
    """Passing ``progress`` once switched to work units: now only ``Execution`` does."""
    table = CodeTable(Rules(3, 4))

    class Bar:
        def __init__(self):
            self.started = []

        def start(self, total, description=""):
            self.started.append(description)

        def advance(self, n=1):
            pass

    plain, bar = solve(table, progress=Bar()), Bar()
    units = solve(table, execution=Execution(units=True), progress=bar)
    assert plain.counters.units == 0 and units.counters.units > 0
    assert plain.total == units.total == 206
    assert "optimal: work units" in bar.started
    # a problem work units cannot solve runs in this thread whatever is asked
    assert solve(table, Problem(tie_break=True), execution=Execution(units=True)).counters.units == 0
    # the worst case: its depth in this thread, then the best total within it as units
    assert solve(table, Problem(objective="worst"), execution=Execution(units=True)).counters.units > 0


def test_problem_weights_and_candidates_are_checked_against_the_game():
    table = CodeTable(Rules(3, 3))
    with pytest.raises(MastermindError, match="one entry per code"):
        solve(table, Problem(weights=np.ones(5)))
    with pytest.raises(MastermindError, match="not a candidate"):
        solve(table, Problem(pool="consistent", candidates=[1, 2], first_guess=0))
    with pytest.raises(MastermindError, match="tie-break works without weights only"):
        solve(table, Problem(tie_break=True, weights=np.arange(27)))


def test_by_first_guess_refuses_what_it_cannot_use():
    table = CodeTable(Rules(2, 3))
    with pytest.raises(MastermindError, match="first_guesses"):
        solve_by_first_guess(table, Problem(first_guess=0))
    with pytest.raises(MastermindError, match="runs on threads"):
        solve_by_first_guess(table, execution=Execution(backend="processes"))


def test_a_cancelled_token_stops_either_path_with_what_is_proven():
    table = CodeTable(Rules(4, 6))
    for execution in (Execution(units=False), Execution(units=True)):
        token = CancelToken()
        token.cancel()
        result = solve(table, execution=execution, cancel=token)
        assert result.stopped == "interrupted" and not result.proven
        assert result.lower_bound is None or result.lower_bound <= 5625


@pytest.mark.parametrize("problem", [Problem(first_guess=0), Problem(tie_break=True)])
def test_a_checkpoint_with_a_problem_units_do_not_solve_is_refused(problem, tmp_path):
    """Work units solve the plain total and the worst case: with a fixed opening or a
    tie-break a checkpoint (or a backend) was silently ignored, nothing kept (a new user's
    trial; the command line refused it)."""
    table = CodeTable(Rules(2, 3))
    with pytest.raises(MastermindError, match="only: not with a first guess or a tie-break"):
        solve(table, problem, execution=Execution(checkpoint=tmp_path / "ck"))
    with pytest.raises(MastermindError, match="not with a first guess"):
        solve(table, problem, execution=Execution(backend="processes"))
    assert solve(table, problem).proven  # (without them: solved in this thread)
    assert solve(table, Problem(objective="worst"), execution=Execution(checkpoint=tmp_path / "w")).worst == 3


def test_a_checkpoint_for_other_secrets_says_what_differs(tmp_path):
    """Made for the same game and options but other candidates or weights, a checkpoint was
    refused with two identical descriptions (a new user's trial)."""
    from mastermind.engines.exact.checkpoint import CheckpointError

    table = CodeTable(Rules(2, 3))
    folder = tmp_path / "ck"
    assert solve(table, execution=Execution(checkpoint=folder)).total == 21
    for problem in (Problem(candidates=range(5)), Problem(weights=[2.0] + [1.0] * 8)):
        with pytest.raises(
            CheckpointError, match="the same game and options .*, but other secrets or weights"
        ):
            solve(table, problem, execution=Execution(checkpoint=folder))
    with pytest.raises(CheckpointError, match=r"another search \(.*\), not this one \(.*pool consistent"):
        solve(table, Problem(pool="consistent"), execution=Execution(checkpoint=folder))
