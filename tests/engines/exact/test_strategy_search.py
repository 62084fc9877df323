"""The strategy search: its trees play every secret at the total it reports, never below the
optimum, never worse from one pass to the next, and reach the optimum on small games."""

import threading
import time

import pytest

from mastermind.core.cancel import INTERRUPTED, TIME_LIMIT, CancelToken, Stopped
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Problem, solve
from mastermind.engines.exact.strategy_search import FINISHED, SCHEDULE, Plan, StrategySearch, effort

from .strategy_passes import StopsAfter as _StopsAfter


def _replayed(table, found):
    stats = found.tree.stats(table)
    assert stats.secrets == table.n
    return stats.total


@pytest.mark.parametrize("game", ["p2c5", "p3c3", "p3c4", "p4c3", "p3c5n", "p4c5n", "p3c6"])
def test_every_pass_is_a_strategy_no_cheaper_than_the_optimum_and_never_worse(game):
    table = CodeTable(Rules.parse(game))
    optimum = solve(table).total
    search = StrategySearch(table)
    totals = []
    search.run(passes=5, on_found=lambda f: totals.append((f.total, _replayed(table, f))))
    assert [t for t, _ in totals] == [r for _, r in totals]  # the total said is the tree's
    assert all(t >= optimum for t, _ in totals)
    assert all(b <= a for (a, _), (b, _) in zip(totals, totals[1:]))


@pytest.mark.parametrize("game", ["p3c4", "p4c4", "p3c5n", "p4c5n"])
def test_enough_passes_reach_the_optimum_of_a_small_game(game):
    table = CodeTable(Rules.parse(game))
    found = StrategySearch(table).run(passes=len(SCHEDULE))
    assert found.total == solve(table).total


@pytest.mark.parametrize("game", ["p3c4", "p4c4", "p3c5"])
def test_the_consistent_pool_guesses_only_codes_still_possible(game):
    table = CodeTable(Rules.parse(game))
    found = StrategySearch(table, pool="consistent").run(passes=3)
    assert found.total >= solve(table, Problem(pool="consistent")).total

    def walk(node, cands):
        assert node.guess in set(cands.tolist())
        answers = table.scores[node.guess, cands]
        for answer, child in node.children.items():
            walk(child, cands[answers == answer])

    walk(found.tree.root, table.all_codes)


def test_a_search_started_from_a_strategy_keeps_it_or_finds_cheaper():
    table = CodeTable(Rules(4, 5))
    first = StrategySearch(table).run(passes=2)
    again = StrategySearch(table)
    assert again.seed(first.tree.root, first.passes) == first.total
    assert again.passes == 2
    found = again.run(passes=1)
    assert found.total <= first.total
    assert _replayed(table, found) == found.total


def test_a_stop_before_the_first_strategy_raises_and_after_it_keeps_the_best():
    table = CodeTable(Rules(4, 5))
    token = CancelToken()
    token.cancel()
    with pytest.raises(Stopped):
        StrategySearch(table, cancel=token).run(passes=1)
    token = CancelToken()
    search = StrategySearch(table, cancel=token)
    first = search.run(passes=1)
    token.cancel(TIME_LIMIT)  # before the next pass: it stops at once, the first pass's strategy stays
    found = search.run(passes=3)
    assert found.total == first.total == _replayed(table, found)


@pytest.mark.parametrize("game", ["p2c2", "p2c3", "p3c3n"])
def test_passes_end_once_one_solved_the_whole_game_exactly(game):
    # (they went on until the time limit: thousands of passes on a tiny game, until the
    # effort's 1.25**k overflowed and the strategy thread died)
    table = CodeTable(Rules.parse(game))
    token = CancelToken()
    timer = threading.Timer(60.0, token.cancel)  # a failure, not a test that never ends
    timer.start()
    try:
        search = StrategySearch(table, cancel=token)
        found = search.run()
    finally:
        timer.cancel()
    assert not token.cancelled
    assert found.total == solve(table).total
    assert table.n <= effort(search.passes - 1).exact_size or table.n <= 2
    assert search.passes == 1 or table.n > effort(search.passes - 2).exact_size


def test_passes_past_the_schedule_polish_while_it_pays_then_widen():
    n = len(SCHEDULE)
    plan = Plan()
    polish = effort(n, plan)
    assert polish.kept_levels > 0 and polish.exact_size == SCHEDULE[-1].exact_size
    harder = plan.after(improved=True)  # a polish that improved: the next looks harder
    more = effort(n + 1, harder)
    assert more.kept_levels == polish.kept_levels and more.exact_size > polish.exact_size
    assert all(y >= x for x, y in zip(polish.by_bound + polish.by_entropy, more.by_bound + more.by_entropy))
    assert more.by_bound != polish.by_bound
    stalled = harder.after(improved=False)  # one that found nothing: a widening pass
    wide = effort(n + 2, stalled)
    assert wide.kept_levels == 0 and wide.exact_size > SCHEDULE[-1].exact_size
    again = stalled.after(improved=False)  # (a widening pass is followed by polishing, either way)
    assert again == stalled.after(improved=True)
    after = effort(n + 3, again)  # (its sets as large as the widening solved exactly, at least)
    assert (after.by_bound, after.kept_levels) == (more.by_bound, more.kept_levels)
    assert after.exact_size == max(more.exact_size, wide.exact_size)
    wider = effort(n + 4, again.after(improved=False))
    assert wider.kept_levels == 0 and wider.exact_size > wide.exact_size
    assert all(y >= x for x, y in zip(wide.by_bound, wider.by_bound)) and wider.by_bound != wide.by_bound
    for plan in (harder, stalled, Plan(3, 2, True, 117)):
        assert Plan.decode(plan.encode()) == plan
    with pytest.raises(ValueError):
        Plan.decode([0, 1, 0, -1])


def test_the_plan_follows_the_passes_and_a_continued_pass_keeps_its_own(monkeypatch, tmp_path):
    from mastermind.engines.exact import strategy_search
    from mastermind.engines.exact.checkpoint import Checkpoint, CheckpointError, RootBounds
    from mastermind.engines.exact.solver import ExactSolver
    from mastermind.engines.exact.strategy_thread import StrategyThread

    # (a two-pass schedule, so that a small game reaches the plan's passes at once)
    monkeypatch.setattr(strategy_search, "SCHEDULE", SCHEDULE[:2])
    table = CodeTable(Rules.parse("p4c6"))
    search = StrategySearch(table)
    search.run(passes=2)
    root = search._root
    plans = []
    for _ in range(4):
        before, plan = search.best[root][0], search.plan
        assert plan.total == -1
        found = search.run(passes=1)
        now = search.best[root][0]
        assert now <= before and search.plan == plan.after(improved=now < before)
        plans.append(plan)
    assert plans[0] == Plan()
    # a pass kept with its plan goes on with it; one kept by an older version (turns of
    # polishing and widening) is not taken for the plan's: its sets are searched again
    rows = [(k1, k2, t, g, True) for k1, k2, t, g, _ in search.pass_state()]
    under_way = Plan(2, 3, False, search.best[root][0] + 5)
    store = Checkpoint(tmp_path, {"rules": "p4c6"})
    store.keep_bounds(RootBounds(0.0, float(found.total), found.tree.root))
    store.keep_strategy_passes(search.passes)
    for kept, plan, searched in (
        (under_way.encode(), under_way, True),
        (None, Plan.of_alternation(search.passes), False),
    ):
        store.keep_strategy_sets(search.passes, rows, kept)
        thread = StrategyThread(ExactSolver(table, Problem()), CancelToken(), 1 << 26, store, passes=1)
        assert thread.search.plan == plan and bool(thread.search._done) == searched
    store.keep_strategy_sets(search.passes, rows, [0, 1, 0, -1])
    with pytest.raises(CheckpointError, match="damaged"):
        StrategyThread(ExactSolver(table, Problem()), CancelToken(), 1 << 26, store, passes=1)


@pytest.mark.parametrize("game", ["p3c6", "p4c5n"])
def test_a_polishing_pass_keeps_the_top_guesses_and_never_costs_more(game, monkeypatch):
    from mastermind.engines.exact import strategy_search

    table = CodeTable(Rules.parse(game))
    first = StrategySearch(table).run(passes=1)  # (a rough strategy: its classes can improve)
    polish = strategy_search.Effort(6, (0, 4, 2), (1,), kept_levels=1)
    monkeypatch.setattr(strategy_search, "effort", lambda *_: polish)
    again = StrategySearch(table)
    again.seed(first.tree.root, first.passes)
    tried: list[tuple[int, int]] = []
    guess_cost = again._guess_cost

    def recorded(cands, group, guess, depth, *rest):
        tried.append((depth, guess))
        return guess_cost(cands, group, guess, depth, *rest)

    monkeypatch.setattr(again, "_guess_cost", recorded)
    found = again.run(passes=1)
    assert [g for d, g in tried if d == 0] == [first.tree.root.guess]  # the root kept...
    assert any(d > 0 for d, _ in tried)  # ...and the levels below it searched
    assert found.tree.root.guess == first.tree.root.guess
    assert solve(table).total <= found.total <= first.total
    assert _replayed(table, found) == found.total


def test_the_thread_is_lowered_only_once_a_strategy_is_held_and_finds_the_same(monkeypatch):
    from mastermind.engines.exact import strategy_search

    lowered: list[tuple[int, bool]] = []
    search_box: list[StrategySearch] = []
    monkeypatch.setattr(
        strategy_search,
        "lower_thread_priority",
        lambda niceness: lowered.append((niceness, search_box[0]._root in search_box[0].best)),
    )
    table = CodeTable(Rules(4, 5))
    full = StrategySearch(table)
    totals = [full.run(passes=1).total, full.run(passes=2).total]
    nice = StrategySearch(table, niceness=7)
    search_box.append(nice)
    assert nice.run(passes=1).total == totals[0]
    assert lowered == []  # the first strategy at the usual priority
    assert nice.run(passes=2).total == totals[1]
    assert lowered == [(7, True)]  # once, with a strategy held


def test_a_pass_stopped_goes_on_where_it_stood_instead_of_starting_again(stopped_in_pass_3):
    table, cut, stopped, in_pass, total = stopped_in_pass_3
    rows = cut.pass_state()
    searched = {}
    for resumed in (True, False):
        again = StrategySearch(table)
        again.seed(stopped.tree.root, stopped.passes)
        if resumed:
            again.resume(rows, stopped.passes)
        found = again.run(passes=1)
        assert found.passes == stopped.passes + 1
        assert found.total <= stopped.total
        assert _replayed(table, found) == found.total
        searched[resumed] = again.sets_searched
        if resumed:
            assert found.total == total  # as the pass not stopped found
    # the sets searched before the stop are not searched again
    assert searched[True] < 0.75 * searched[False]
    assert searched[False] >= 0.9 * in_pass


def test_a_pass_cut_by_ctrl_c_builds_no_tree_and_keeps_what_it_searched():
    """Ctrl-C does not wait for the tree of a pass cut short (5x8: 3 s past the stop); its
    sets stay for the next run. A time limit still builds it."""
    table = CodeTable(Rules(4, 6))
    searches = {}
    for reason in (INTERRUPTED, TIME_LIMIT):
        cut = _StopsAfter(table, cancel=CancelToken())
        cut.run(passes=1)
        cut.stop_after, cut.reason = cut.sets_searched + 20, reason
        builds = []
        cut.tree = lambda cut=cut, builds=builds: builds.append(1) or StrategySearch.tree(cut)
        if reason == INTERRUPTED:
            with pytest.raises(Stopped):
                cut.run(passes=1)
        else:
            assert cut.run(passes=1).passes == 1
        assert len(builds) == (reason == TIME_LIMIT)
        searches[reason] = cut
    done = [{(k1, k2) for k1, k2, *_, d in s.pass_state() if d} for s in searches.values()]
    assert done[0] and done[0] == done[1]  # the same sets kept for the next run either way


def test_strategy_sets_of_another_key_format_are_not_used(tmp_path):
    import json

    from mastermind.engines.exact.checkpoint import Checkpoint

    store = Checkpoint(tmp_path, {"rules": "p4c7"})
    assert store.strategy_sets() is None
    high = (1 << 64) - 5
    store.keep_strategy_sets(3, [(high, 7, 120, 44, True), (9, high, -1, -1, False)])
    kept = store.strategy_sets()
    assert kept is not None and kept[0] == 3
    assert sorted(kept[1]) == sorted([(high, 7, 120, 44, True), (9, high, -1, -1, False)])
    store.keep_strategy_sets(4, [(5, 6, 30, 2, False)])  # (replacing what was kept)
    assert store.strategy_sets() == (4, [(5, 6, 30, 2, False)], None)
    store.keep_strategy_sets(4, [(5, 6, 30, 2, False)], [2, 1, 0, 300])
    assert store.strategy_sets() == (4, [(5, 6, 30, 2, False)], [2, 1, 0, 300])
    about = json.loads(store.db.execute("SELECT value FROM meta WHERE name = 'strategy_sets'").fetchone()[0])
    about["key_format"] += 1
    store.db.execute("UPDATE meta SET value = ? WHERE name = 'strategy_sets'", (json.dumps(about),))
    assert store.strategy_sets() is None


@pytest.mark.parametrize("allowance", [None, 0.0])
def test_a_time_limit_builds_the_pass_cut_short_only_within_its_allowance(allowance):
    """`compare --time-limit 2` on 4x7 ran past 3 s, the tree of the pass cut short built
    after the limit. Past the allowance (the last build took longer) the stop is answered by
    the last pass finished, which the thread already holds."""
    table = CodeTable(Rules(4, 6))
    cut = _StopsAfter(table, cancel=CancelToken())
    kept = []
    cut.run(passes=1, on_found=kept.append)
    assert cut.last_build > 0.0
    cut.stop_after, cut.reason, cut.build_allowance = cut.sets_searched + 20, TIME_LIMIT, allowance
    builds = []
    cut.tree = lambda: builds.append(1) or StrategySearch.tree(cut)
    if allowance is None:
        assert cut.run(passes=1).passes == 1 and builds == [1]
    else:
        with pytest.raises(Stopped):
            cut.run(passes=1, on_found=kept.append)
        assert builds == [] and [f.passes for f in kept] == [1]  # (the strategy of pass 1 stands)


def test_a_cancel_while_a_stop_builds_its_tree_keeps_the_strategy_found():
    """5x8 hard mode: a run found 179957 within its pass and reported the 179960 it began
    from. At the run's end StrategyThread.finish cancels the token that the time limit had
    cancelled, which wrote the stop flag again while the stop's tree was being built: the
    exact search under the build stopped and the strategy was lost. Here the build's sets are
    solved by a fresh memo, and that cancel comes as the build begins."""
    table = CodeTable(Rules(4, 5))
    first = StrategySearch(table, pool="consistent").run(passes=4)
    token = CancelToken()
    again = StrategySearch(table, pool="consistent", cancel=token)
    again.seed(first.tree.root, first.passes)
    token.cancel(TIME_LIMIT)
    build, calls = again.search.build, []

    def finished_meanwhile(*args, **kwargs):
        if not calls:
            token.cancel("finished")  # what StrategyThread.finish does as the run ends
        calls.append(1)
        return build(*args, **kwargs)

    again.search.build = finished_meanwhile
    found = again.run(passes=1)
    assert len(calls) > 1  # (the build solved sets, the first of them after the cancel)
    assert found.total <= first.total and found.total == _replayed(table, found)
    assert token.cancelled and again.stop[0] == 1  # (still stopped once built)
    ctrl_c = StrategySearch(table, pool="consistent", cancel=CancelToken())
    ctrl_c.seed(first.tree.root, first.passes)
    ctrl_c.exact_size = 30  # (sets the build solves)
    build = ctrl_c.search.build

    def interrupted_meanwhile(*args, **kwargs):
        ctrl_c.token.cancel(INTERRUPTED)
        return build(*args, **kwargs)

    ctrl_c.search.build = interrupted_meanwhile
    with pytest.raises(Stopped):  # Ctrl-C still stops a build
        ctrl_c._found(0.0)


def test_a_stops_build_still_running_past_its_allowance_is_given_up():
    """A 240 s results row of 6x7n ran 343 s: the stop's tree of a pass resumed from the
    checkpoint took 17 s of CPU, at nice 10 on a loaded machine, and the allowance only
    decided whether a build began. Now the build's own deadline writes the stop flag (here
    the first set it solves waits until it has, as a build that outlasts its allowance
    would find it), and the stop is answered as one past the allowance: no tree, the flag
    left as the cancel left it. Without the deadline the build never sees the flag."""
    table = CodeTable(Rules(4, 5))
    first = StrategySearch(table, pool="consistent").run(passes=4)
    token = CancelToken()
    again = StrategySearch(table, pool="consistent", cancel=token)
    again.seed(first.tree.root, first.passes)
    again.exact_size = 30  # (sets the build solves, from an empty memo)
    again.build_allowance = 0.05
    token.cancel(TIME_LIMIT)
    build, seen = again.search.build, []

    def outlasting(*args, **kwargs):
        if not seen:  # (waits for the flag, not for a time: a minute is only a cap)
            cap = time.monotonic() + 60.0
            while not again.stop[0] and time.monotonic() < cap:
                time.sleep(0.01)
        seen.append(int(again.stop[0]))
        return build(*args, **kwargs)

    again.search.build = outlasting
    with pytest.raises(Stopped):
        again.run(passes=1)
    assert seen and seen[0] == 1  # the build's deadline wrote the flag as it ran
    assert again.stop[0] == 1  # (still stopped: the time limit's cancel)
    # a build within its allowance is kept (the same search, the deadline ample)
    again.search.build, again.build_allowance = build, None
    found = again.run(passes=1)
    assert found.total <= first.total and found.total == _replayed(table, found)


def test_a_search_the_finished_run_stops_builds_no_tree():
    """Once the rounds proved the optimum the thread is stopped "finished": a tree of the
    pass cut short could not beat the proof, and was built however long it took."""
    table = CodeTable(Rules(4, 5))
    first = StrategySearch(table).run(passes=2)
    token = CancelToken()
    again = StrategySearch(table, cancel=token)
    again.seed(first.tree.root, first.passes)
    token.cancel(FINISHED)
    builds = []
    again.tree = lambda: builds.append(1) or StrategySearch.tree(again)
    with pytest.raises(Stopped):
        again.run(passes=1)
    assert builds == []


def test_a_weak_tree_to_start_from_neither_leads_nor_slows_the_first_pass(monkeypatch):
    """`optimal -r p4c7 --start-from` a "simple" tree (15548), 3 s: 15289 where the search
    alone found 11361. The start counted as the first strategy, so the thread lowered its
    priority at once (beside the rounds' unit, a tenth of a core), and each set tried the
    tree's guess first. Now the first pass is the one it would be without the tree (its
    first strategy at the usual priority), bounded by the tree where that is cheaper."""
    from mastermind.engines.exact import strategy_search
    from mastermind.engines.registry import strategy_tree

    lowered: list[int] = []
    monkeypatch.setattr(strategy_search, "lower_thread_priority", lambda niceness: lowered.append(niceness))
    table = CodeTable(Rules(4, 5))
    alone = StrategySearch(table).run(passes=1)
    weak = strategy_tree("simple", table)
    started = StrategySearch(table, niceness=7)
    assert started.seed(weak.root) == weak.stats(table).total > alone.total
    assert started._root in started._unled  # (bounds the search, does not lead it)
    found = started.run(passes=1)
    assert found.total <= alone.total and _replayed(table, found) == found.total
    assert lowered == []  # the first pass at the usual priority, the start notwithstanding
    started.run(passes=1)
    assert lowered == [7]
