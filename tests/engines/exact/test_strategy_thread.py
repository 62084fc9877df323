"""The strategy search in a thread of its own beside the rounds (mastermind.engines.exact.
strategy_thread): it hands each strategy cheaper than the last one out once, starts from a
strategy given or kept, keeps its passes in the checkpoint, stops with its parent's token, and
raises its errors in the caller's thread. Totals are replayed and checked against the optimum."""

from __future__ import annotations

import threading

import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import StrategyTree, build_tree
from mastermind.engines.exact import Execution, Limits, Problem, solve
from mastermind.engines.exact.checkpoint import Checkpoint, RootBounds
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.strategy_search import StrategySearch
from mastermind.engines.exact.strategy_thread import BUILD_SHARE, MIN_BUILD_ALLOWANCE, StrategyThread

MEMORY = 1 << 26


def _total(table: CodeTable, root) -> int:
    return StrategyTree(table.rules, root).stats(table).total


def _ran(thread: StrategyThread) -> None:
    """Run the thread's passes to their end (finish() would stop them)."""
    thread.start()
    thread._thread.join()


@pytest.mark.parametrize("text", ["p3c4", "p4c4"])
def test_each_cheaper_strategy_is_handed_out_once_and_plays_at_its_total(text):
    table = CodeTable(Rules.parse(text))
    optimum = solve(table).total
    totals = []
    for passes in (1, 3):
        thread = StrategyThread(ExactSolver(table), CancelToken(), MEMORY, passes=passes)
        assert thread.fresh() is None and thread.started_from is None  # nothing before it runs
        _ran(thread)
        found = thread.fresh()
        assert found is not None and thread.fresh() is None  # once
        total, root = found
        assert total == _total(table, root) >= optimum
        assert thread.finish() == found  # the cheapest found
        assert thread.search.passes == passes
        totals.append(total)
    assert totals[1] <= totals[0]  # more passes, never dearer


def test_a_strategy_given_is_the_first_upper_bound_and_is_kept_as_where_the_run_started(tmp_path):
    table = CodeTable(Rules(3, 4))
    poor = build_tree(table, lambda cands, history: int(cands[0])).root  # the first candidate left
    poor_total = _total(table, poor)
    store = Checkpoint(tmp_path, {"rules": str(table.rules)})
    thread = StrategyThread(ExactSolver(table), CancelToken(), MEMORY, store, passes=1, start=poor)
    assert thread.started_from == poor_total and thread.fresh() == (poor_total, poor)
    _ran(thread)
    total, root = thread.finish()
    assert solve(table).total <= total <= poor_total and total == _total(table, root)
    assert store.started_from() == poor_total and store.strategy_passes() == 1
    # a run continued from the checkpoint: started from it too, and goes on with the next pass
    store.keep_bounds(RootBounds(0.0, float(total), root))
    again = StrategyThread(ExactSolver(table), CancelToken(), MEMORY, store, passes=1)
    assert again.started_from == poor_total and again.search.passes == 1
    _ran(again)
    assert again.finish()[0] <= total and again.search.passes == 2 and store.strategy_passes() == 2


def test_a_stop_of_the_parent_token_ends_the_thread_with_what_it_found():
    table = CodeTable(Rules(4, 5))
    parent = CancelToken()
    thread = StrategyThread(ExactSolver(table), parent, MEMORY)  # (passes without end)
    seen = threading.Event()
    keep = thread._keep

    def stop_at_the_first(found):
        keep(found)
        parent.cancel()
        seen.set()

    thread._keep = stop_at_the_first
    thread.start()
    thread._thread.join()  # (ends only because the parent's token was cancelled)
    assert seen.is_set()
    found = thread.finish()
    assert found is not None and found[0] == _total(table, found[1]) >= solve(table).total
    assert thread.token.cancelled


def test_an_error_in_the_thread_is_raised_by_finish_in_the_callers_thread(monkeypatch):
    thread = StrategyThread(ExactSolver(CodeTable(Rules(3, 3))), CancelToken(), MEMORY, passes=1)

    def broken(**kwargs):
        raise ValueError("broken search")

    monkeypatch.setattr(thread.search, "run", broken)
    _ran(thread)
    with pytest.raises(ValueError, match="broken search"):
        thread.finish()
    assert thread.finish() is None  # raised once; nothing found


def test_finish_before_start_stops_nothing_and_finds_nothing():
    thread = StrategyThread(ExactSolver(CodeTable(Rules(3, 3))), CancelToken(), MEMORY, passes=1)
    assert thread.finish() is None


def test_the_strategy_thread_lowers_its_own_priority(monkeypatch):
    from mastermind.engines.exact import api, strategy_search

    threads: list[str] = []
    monkeypatch.setattr(
        strategy_search,
        "lower_thread_priority",
        lambda niceness: threads.append(threading.current_thread().name),
    )
    table = CodeTable(Rules(4, 5))
    result = api.solve(table, limits=Limits(time_limit=600), execution=Execution(jobs=1))
    assert result.total == solve(table).total
    assert set(threads) <= {"strategy search"}  # (never the caller's thread)


def test_the_strategy_thread_keeps_its_pass_in_the_checkpoint_and_goes_on_from_it(
    tmp_path, stopped_in_pass_3
):
    table, cut, stopped, in_pass, total = stopped_in_pass_3
    store = Checkpoint(tmp_path, {"rules": "p4c6"})
    store.keep_bounds(RootBounds(0.0, float(stopped.total), stopped.tree.root))
    store.keep_strategy_passes(stopped.passes)
    store.keep_strategy_sets(stopped.passes, cut.pass_state())
    kept = store.strategy_sets()
    assert kept is not None and kept[0] == stopped.passes and sorted(kept[1]) == sorted(cut.pass_state())
    solver = ExactSolver(table, Problem())
    thread = StrategyThread(solver, CancelToken(), MEMORY, store, passes=1)
    thread.start()
    thread._thread.join()  # (its one pass to the end: finish() would stop it)
    assert thread.finish() is not None
    assert thread.search.passes == stopped.passes + 1
    assert thread.search.sets_searched < 0.75 * in_pass
    # the pass ended: the next run starts the next pass, with every strategy found kept
    passes, rows, plan = store.strategy_sets()
    assert plan == thread.search.plan.encode()
    assert passes == stopped.passes + 1 and rows and not any(done for *_, done in rows)
    assert store.strategy_passes() == stopped.passes + 1


def test_the_strategy_thread_allows_a_share_of_its_time_limit_for_a_last_build():
    """The time limit is the run's token's deadline: the thread reads the time left there."""
    solver = ExactSolver(CodeTable(Rules(3, 3)))
    allowances = []
    for limit in (None, 1.0, 1000.0):
        with CancelToken(limit) as token:
            allowances.append(StrategyThread(solver, token, MEMORY).search.build_allowance)
    assert allowances[:2] == [None, MIN_BUILD_ALLOWANCE]
    # (the time left when the thread was made: at most the limit, and far above 900 s)
    assert BUILD_SHARE * 900.0 < allowances[2] <= BUILD_SHARE * 1000.0


def _kept_sets_below_the_kept_tree(tmp_path):
    """A checkpoint of p4c5 in hard mode keeping the tree of one strategy pass and the sets of
    three, which hold a cheaper strategy; and that strategy's search."""
    table = CodeTable(Rules(4, 5))
    search = StrategySearch(table, pool="consistent")
    first = search.run(passes=1)
    later = search.run(passes=3)
    assert later.total < first.total
    store = Checkpoint(tmp_path, {"rules": "p4c5"})
    store.keep_bounds(RootBounds(0.0, float(first.total), first.tree.root))
    store.keep_strategy_passes(search.passes)
    store.keep_strategy_sets(search.passes, search.pass_state(), search.plan.encode())
    return table, store, later


def test_a_strategy_the_kept_sets_hold_below_the_kept_tree_is_the_first_upper_bound(tmp_path):
    """A run stopped by Ctrl-C builds no tree of its pass, but keeps the sets that pass
    found: the next run builds that strategy as it starts, before any pass (5x8 hard mode's
    sets held 179957 behind the 179960 its runs published)."""
    table, store, later = _kept_sets_below_the_kept_tree(tmp_path)
    solver = ExactSolver(table, Problem(pool="consistent"))
    thread = StrategyThread(solver, CancelToken(), MEMORY, store)
    fresh = thread.fresh()  # (not started)
    assert fresh is not None and fresh[0] <= later.total
    assert thread._latest.tree.stats(table).total == fresh[0]
    assert thread.search.sets_searched == 0
    # a kept tree as cheap as the sets: nothing to build
    store.keep_bounds(RootBounds(0.0, float(later.total), later.tree.root))
    assert StrategyThread(solver, CancelToken(), MEMORY, store).fresh() is None


def test_the_kept_strategy_is_built_within_the_runs_time_limit(tmp_path):
    """The kept sets' strategy is built as the run starts, its stop flag held back: past the
    run's deadline and the allowance of a last build it is not built (the sets keep it for
    a run with time), where it held the run however long it took."""
    import time

    table, store, later = _kept_sets_below_the_kept_tree(tmp_path)
    solver = ExactSolver(table, Problem(pool="consistent"))
    # (a deadline 9 s gone, far beyond the allowance of a last build)
    with CancelToken(1.0, start=time.monotonic() - 10.0) as late:
        thread = StrategyThread(solver, late, MEMORY, store)
        assert thread.search.build_allowance == MIN_BUILD_ALLOWANCE
        assert thread.fresh() is None
        assert late.cancelled and thread.search.stop[0] == 1
    with CancelToken(3600.0) as ample:  # the same kept sets, with time: built
        fresh = StrategyThread(solver, ample, MEMORY, store).fresh()
        assert fresh is not None and fresh[0] <= later.total
