"""The heuristic played beside a long exact search: the strategy a search stopped before
finding one of its own reports."""

import dataclasses
import json

import pytest

from mastermind.app.cli import main
from mastermind.core.formats import read_tree
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Limits, Problem, solve
from mastermind.engines.optimum import Fallback, fallback_delay, wanted
from mastermind.engines.registry import strategy_tree
from mastermind.engines.result import Status


def _stopped(result, upper=None, tree=None, stats=None):
    """``result`` as a search stopped early would give it."""
    status = Status.FEASIBLE if tree is not None else Status.UNKNOWN
    return dataclasses.replace(
        result, status=status, value=upper, upper_bound=upper, tree=tree, stats=stats, stopped="time limit"
    )


def test_a_stopped_search_without_a_strategy_takes_the_heuristics():
    table = CodeTable(Rules(3, 4))
    proven = solve(table)
    fallback = Fallback(table)
    fallback.wait(60)
    heuristic = strategy_tree("entropy", table).stats(table).total
    assert heuristic > proven.total  # so that the cases below differ
    better = fallback.improve(_stopped(proven))
    assert better.upper_bound == better.total == heuristic and better.found_by == "entropy"
    assert better.tree.stats(table).total == heuristic and better.stats.total == heuristic
    # the search's own strategy, when at least as good, stays; a proven answer is never touched
    own = fallback.improve(_stopped(proven, proven.total, proven.tree, proven.stats))
    assert own.upper_bound == proven.total and own.found_by is None
    assert fallback.improve(proven) is proven


def test_a_heuristic_strategy_meeting_the_proven_lower_bound_is_the_optimum(capsys):
    """Stopped by its time limit with a lower bound that the heuristic's total meets, the
    search had proven the optimum: `optimal -r p3c3 --time-limit 0.01` said "proven no"
    beside a lower bound and a best found of 73 both (a new user's trial)."""
    table = CodeTable(Rules(3, 3))
    proven = solve(table)
    fallback = Fallback(table)
    fallback.wait(60)
    heuristic = strategy_tree("entropy", table).stats(table).total
    assert heuristic == proven.total  # (entropy is optimal on 3x3: the case at hand)
    stopped = dataclasses.replace(_stopped(proven), lower_bound=proven.total)
    met = fallback.improve(stopped)
    assert met.proven and met.stopped is None and met.found_by is None
    assert met.total == met.lower_bound == met.upper_bound == proven.total == met.stats.total
    # not where the bounds do not meet, nor for the least worst case among optimal
    # strategies (--tie-break worst), nor after Ctrl-C (a stop: exit 130)
    below = dataclasses.replace(stopped, lower_bound=proven.total - 1)
    assert not fallback.improve(below).proven and fallback.improve(below).upper_bound == heuristic
    assert not fallback.improve(stopped, may_prove=False).proven
    assert not fallback.improve(dataclasses.replace(stopped, stopped="interrupted")).proven
    # at the command line: wherever the bounds it reports meet, it says proven. (Whether they
    # meet depends on the machine: the search, warm, may finish within the nanosecond it
    # gets, and on a loaded machine the heuristic's thread may not have finished when the
    # search stops, which then reports no upper bound.)
    assert main(["optimal", "-r", "p3c3", "--time-limit", "1e-9", "--no-cache", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    if data["total_lower_bound"] == data["total_upper_bound"]:
        assert data["proven"] and data["total"] == proven.total and data["stopped"] is None
    else:
        assert not data["proven"] and data["stopped"] == "time limit"


def test_a_heuristic_stopped_before_it_finished_gives_nothing():
    table = CodeTable(Rules(4, 7))
    fallback = Fallback(table, "minimax")
    fallback.stop()
    fallback.wait(60)
    assert fallback.done() is None
    result = _stopped(solve(CodeTable(Rules(4, 7)), limits=Limits(time_limit=0.5)))
    assert fallback.improve(result) is result


def test_plain_searches_get_one_at_once_when_big_or_time_limited():
    big, small = CodeTable(Rules(4, 8), full=False), CodeTable(Rules(4, 7), full=False)
    assert wanted(Problem())
    assert fallback_delay(big) == 0 and fallback_delay(small, limited=True) == 0
    assert fallback_delay(small) > 0  # (a small game's search mostly proves first)
    opening = big.rules.parse_code("1123")
    for options in (
        {"objective": "worst"},
        {"max_guesses": 6},
        {"pool": "consistent"},
        {"first_guess": opening},
        {"weights": [1] * big.n},  # (its unweighted total is no cost of a weighted game)
        {"candidates": [0, 1, 2]},
    ):
        assert not wanted(Problem(**options))


def test_a_delayed_fallback_stopped_first_plays_nothing():
    fallback = Fallback(CodeTable(Rules(2, 3)), delay=60)
    fallback.stop()
    fallback.wait(10)
    assert not fallback.running and fallback.done() is None


def test_a_delayed_fallback_plays_once_its_delay_has_passed():
    fallback = Fallback(CodeTable(Rules(2, 3)), delay=0.01)
    fallback.wait(60)
    found = fallback.done()
    assert found is not None and found[1].total == 21


@pytest.fixture
def heuristic_first(monkeypatch):
    """The fallback heuristic finished before the search starts. It runs beside the search and
    counts only if it finished when the time limit stops the search: on a slow or busy
    machine it might not have, which is not what these tests are about."""
    import mastermind.engines.optimum

    class Finished(Fallback):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.wait(600)

    monkeypatch.setattr(mastermind.engines.optimum, "Fallback", Finished)


def test_optimal_stopped_early_reports_the_heuristics_strategy(capsys, tmp_path, heuristic_first):
    # the search of p5c6 takes hours: after 2 s it has no strategy of its own (its first one
    # comes after many seconds), and entropy has played every secret (in 0.4 s)
    path = tmp_path / "best.json"
    args = ["optimal", "-r", "p5c6", "--time-limit", "2", "--json", "--no-cache", "--progress", "json"]
    code = main([*args, "--out", str(path)])
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["proven"] is False and data["stopped"] == "time limit"
    table = CodeTable(Rules(5, 6))
    heuristic = strategy_tree("entropy", table).stats(table).total
    assert data["total_lower_bound"] < data["total_upper_bound"] <= heuristic
    assert data["total"] is None  # not proven: never given as the value
    found = data["best_found"]
    assert found["total"] == data["total_upper_bound"]
    if found["found_by"] == "entropy":
        assert found["total"] == heuristic
    # the progress lines carry the same best strategy: the last says what the answer says
    end = json.loads(err.strip().splitlines()[-1])
    assert end["event"] == "end" and end["upper_bound"] == data["total_upper_bound"]
    assert end.get("found_by", "search") == found["found_by"]
    assert data["out"] == str(path)
    tree, _ = read_tree(path.read_text(), "json", table.rules)
    assert tree.stats(table).total == data["total_upper_bound"]


def test_a_stopped_search_with_out_dash_keeps_standard_output_for_the_strategy(capsys, heuristic_first):
    # the tree is the output; the report of the stopped search goes to standard error
    code = main(["optimal", "-r", "p5c6", "--time-limit", "2", "--no-cache", "--out", "-"])
    out, err = capsys.readouterr()
    assert code == 0 and "lower bound" in err and "proven       no: stopped (time limit)" in err
    tree, _ = read_tree(out, "json", Rules(5, 6))
    assert tree.root.candidates == 7776


def test_the_library_and_the_command_agree_where_the_heuristic_proves_the_optimum(capsys, heuristic_first):
    """The promotion of a heuristic's strategy meeting the proven lower bound was the
    command's alone: ``mm.solve`` with a time limit said "unknown" where ``optimal`` said
    "proven". Both now search through :func:`solve_optimum`."""
    import mastermind as mm
    from mastermind.core.cancel import CancelToken

    table = CodeTable(Rules(3, 3))

    def stopped_at_once() -> CancelToken:  # (the time limit, passed before the search began)
        token = CancelToken()
        token.cancel("time limit")
        return token

    search = solve(table, limits=Limits(time_limit=600), cancel=stopped_at_once())
    assert search.status is Status.UNKNOWN and search.lower_bound == 73  # (the quick bound)
    library = mm.solve(table, limits=Limits(time_limit=600), cancel=stopped_at_once())
    assert library.status is Status.OPTIMAL and library.total == 73 and library.stopped is None
    assert main(["optimal", "-r", "p3c3", "--time-limit", "1e-9", "--no-cache", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["proven"] and data["total"] == library.total and data["stopped"] is None
