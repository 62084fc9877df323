"""The strategy search: its trees play every secret at the total it reports, never below the
optimum, never worse from one pass to the next, and reach the optimum on small games."""

import itertools

import pytest

from mastermind.core.cancel import CancelToken, Stopped
from mastermind.core.duty import DutyCycle
from mastermind.core.game import CodeTable, Rules
from mastermind.engines.exact import Execution, Limits, Problem, solve
from mastermind.engines.exact.strategy_search import SCHEDULE, StrategySearch, effort
from mastermind.engines.exact.strategy_thread import SHARED_CORE


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
    token.cancel()  # before the next pass: it stops at once, the first pass's strategy stays
    found = search.run(passes=3)
    assert found.total == first.total == _replayed(table, found)


def test_passes_past_the_schedule_widen():
    a, b = effort(len(SCHEDULE)), effort(len(SCHEDULE) + 1)
    assert b.exact_size > a.exact_size > SCHEDULE[-1].exact_size
    assert all(y >= x for x, y in zip(a.by_bound, b.by_bound))


def test_a_share_of_the_time_rests_only_once_a_strategy_is_held_and_finds_the_same():
    table = CodeTable(Rules(4, 5))
    full = StrategySearch(table)
    totals = [full.run(passes=1).total, full.run(passes=2).total]
    shared = StrategySearch(table, share=0.25)
    assert shared.run(passes=1).total == totals[0]
    assert shared._duty is None  # the first strategy at full speed
    rests: list[float] = []
    ticks = itertools.count()
    shared._duty = DutyCycle(0.25, clock=lambda: float(next(ticks)), rest=rests.append)
    assert shared.run(passes=2).total == totals[1]
    assert rests and all(r == pytest.approx(3.0) for r in rests)  # 1 s of work, 3 s of rest


@pytest.mark.parametrize(("jobs", "share"), [(1, SHARED_CORE), (2, 1.0)])
def test_with_one_job_the_strategy_search_leaves_most_of_the_core_to_the_units(monkeypatch, jobs, share):
    from mastermind.engines.exact import api

    shares: list[float] = []

    class Recorded(api.StrategyThread):
        def __init__(self, *args, **kwargs):
            shares.append(kwargs["share"])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(api, "StrategyThread", Recorded)
    table = CodeTable(Rules(3, 4))
    result = solve(table, limits=Limits(time_limit=600), execution=Execution(jobs=jobs))
    assert result.total == solve(table).total
    assert shares == [share]
