"""The root's bound raised round by round (mastermind.engines.exact.anytime): how a round shares
out what a first guess lacks among its classes, plans its target, splits big classes into their
guesses, mends the strategies offered, and stops and goes on; every bound checked against the
plain search (each first guess's and each class's optimum), never above it, and only rising."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import Node, StrategyTree
from mastermind.engines.exact import solve, solve_by_first_guess
from mastermind.engines.exact.anytime import (
    ClassBound,
    GuessBound,
    RootState,
    RoundSearch,
    next_step,
    paced_shares,
    plan_round,
    shares,
)
from mastermind.engines.exact.backends import ThreadBackend
from mastermind.engines.exact.checkpoint import Checkpoint
from mastermind.engines.exact.search import INF, UNLIMITED
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.units import UnitResult

from .reference import reference_solve

GROUP = (np.zeros((1, 4), np.int8), np.zeros((1, 6), np.int8))


def _classes(sizes, lower=10.0):
    return [ClassBound(np.arange(m, dtype=np.int32), GROUP, a, lower) for a, m in enumerate(sizes)]


# ---- sharing out a round's asks ------------------------------------------------------------------


@pytest.mark.parametrize("need", [1, 4, 7.5, 40])
def test_shares_ask_every_open_class_for_at_least_its_part_of_the_need(need):
    cs = _classes((3, 1, 6, 10))
    cs[1].exact = True  # (an exact class is asked for nothing)
    asked = shares(need, cs)
    assert [c.answer for c, _ in asked] == [0, 2, 3]
    rises = [b - c.lower for c, b in asked]
    assert all(r >= 1 and r == int(r) for r in rises)  # whole rises, at least one each
    assert sum(rises) >= need
    # shared out by size: a bigger class is never asked for less
    by_size = sorted(zip((c.size for c, _ in asked), rises))
    assert [r for _, r in by_size] == sorted(r for _, r in by_size)


def test_paced_shares_put_each_rise_where_it_costs_least():
    cs = _classes((3, 1, 6))
    for c, pace in zip(cs, (2.0, 30.0, 1.0)):
        c.pace = pace
    for need in (1, 2, 5, 9):
        asked = paced_shares(need, cs, prior=0.5)
        rises = {c.answer: b - c.lower for c, b in asked}
        assert sum(rises.values()) == math.ceil(need)  # exactly what the guess lacks
        assert all(r >= 1 for r in rises.values())
    # one rise: the cheapest class; the dearest waits until its next rise costs no more
    assert [(c.answer, b) for c, b in paced_shares(1, cs, 0.5)] == [(2, 11.0)]
    assert 1 not in {c.answer for c, _ in paced_shares(9, cs, 0.5)}
    # a class not asked yet is paced by the prior (seconds per secret): cheap when small
    cs[0].pace = None
    assert [c.answer for c, _ in paced_shares(1, cs, 0.01)] == [0]
    # nothing asked yet in the run: every open class, as shares does
    cs[2].exact = True
    assert [c.answer for c, _ in paced_shares(3, cs, None)] == [c.answer for c, _ in shares(3, cs)] == [0, 1]


def test_the_targets_step_grows_after_quick_rounds_and_shrinks_after_slow_ones():
    step = 4.0
    for _ in range(3):
        step = next_step(step, 0.1, 20.0)
    assert step == 4.0 * 1.5**3
    for _ in range(10):
        step = next_step(step, 1000.0, 20.0)
    assert step == 1.0  # never below one
    assert next_step(6.0, 20.0, 20.0) == 6.0  # about the aim: kept


def test_a_round_targets_above_the_bound_never_past_the_best_strategy_and_asks_only_guesses_below():
    g1 = GuessBound(1, 10.0, _classes((3, 5)))  # bound 30
    g2 = GuessBound(2, 10.0, _classes((4, 4), lower=12.0))  # bound 34
    g3 = GuessBound(3, 10.0, _classes((2, 6), lower=30.0))  # bound 70
    state = RootState(8, [g1, g2, g3], rest=50.0)
    assert state.lower == state.derived == 30.0
    plan = plan_round(state, 3.0)
    assert plan is not None and plan.target == 33.0 and plan.guesses == [g1]
    plan = plan_round(state, 10.0)
    assert plan is not None and plan.target == 40.0 and plan.guesses == [g1, g2]
    mine = {id(c) for c in g1.classes}
    assert sum(b - c.lower for c, b in plan.asks if id(c) in mine) >= 10  # (what it lacks)
    # a strategy of 32 known: the target is at most that, by small steps near it
    state.upper, state.tree = 32.0, Node(1, 8)
    plan = plan_round(state, 10.0)
    assert plan is not None and plan.target == 31.0 and plan.guesses == [g1]
    # proven (the bound meets the best strategy), or no strategy at all: nothing to ask
    state.floor = 32.0
    assert state.proven and plan_round(state, 10.0) is None
    assert plan_round(RootState(8, [], rest=INF), 1.0) is None


def test_a_split_class_settles_on_what_its_guesses_prove():
    c = _classes((5,))[0]
    c.inner = [GuessBound(7, 0.0, floor=14.0), GuessBound(8, 0.0, floor=12.0)]
    c.inner_rest = 13.0
    c.settle()
    assert c.lower == 12.0 and not c.exact  # the least of its guesses and of those left out
    c.inner[1].floor = 16.0
    c.settle()
    assert c.lower == 13.0 and not c.exact
    c.inner[0].node = Node(7, 5)  # guess 7 costs 14 exactly, but one left out may cost 13
    c.settle()
    assert c.lower == 13.0 and not c.exact
    c.inner_rest = 15.0
    c.settle()
    assert (c.lower, c.exact, c.node, c.inner) == (14.0, True, Node(7, 5), None)


def test_a_first_guess_costs_one_guess_per_secret_plus_its_classes():
    g = GuessBound(4, 6.0, _classes((2, 3)))
    assert g.lower == 26.0 and not g.exact
    g.floor = 30.0
    assert g.lower == 30.0
    for c, node in zip(g.classes, (Node(1, 2), Node(2, 3))):
        c.exact, c.node = True, node
    assert g.exact
    tree = g.tree(6)
    assert (tree.guess, tree.candidates, tree.children) == (4, 6, {0: Node(1, 2), 1: Node(2, 3)})


# ---- runs ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["p2c3", "p3c3", "p2c4", "p3c3n"])
def test_the_rounds_prove_the_brute_force_optimum_with_a_strategy_of_that_cost(text):
    table = CodeTable(Rules.parse(text))
    solver = ExactSolver(table)
    optimum, _ = reference_solve(table)
    backend = ThreadBackend(1)
    try:
        rounds = RoundSearch(solver, backend)
        state = rounds.run(solver.cands, UNLIMITED, solver.group)
    finally:
        backend.close()
    assert state.proven and state.lower == state.upper == optimum
    assert StrategyTree(table.rules, state.tree).depths(table, table.all_codes).sum() == optimum
    # every first guess planned is at least its own optimum's bound, and exact ones are it
    by_guess = {r.first_guess: r.total for r in solve_by_first_guess(table)}
    for g in state.guesses:
        assert g.lower <= by_guess[g.guess] and (not g.exact or g.lower == by_guess[g.guess])


class _Units:
    """A round's units answered from a list, in the order sent; what was collected, and how
    many had been when the round dropped the rest."""

    def __init__(self, answers: list[UnitResult]) -> None:
        self.answers = answers
        self.sent = 0
        self.collected: list[int] = []
        self.dropped_after: int | None = None

    def submit(self, cands, r, budget, group, guess, floor):
        self.sent += 1
        return self.sent - 1

    def collect(self, pending):
        self.collected.append(pending)
        return self.answers[pending]

    def drop(self, rest):
        assert rest == list(range(len(self.collected), self.sent))  # every one not collected
        self.dropped_after = len(self.collected)


def _two_class_round(upper: float) -> tuple[RoundSearch, RootState, _Units, ClassBound, ClassBound]:
    """A round over one first guess (own cost 9) of two classes at 5, whose units answer
    16 and 8, the strategy known costing ``upper``."""
    table = CodeTable(Rules.parse("p2c3"))
    backend = ThreadBackend(1)
    try:
        rounds = RoundSearch(ExactSolver(table), backend)
    finally:
        backend.close()
    big, small = _classes((6, 3), lower=5.0)
    state = RootState(9, [GuessBound(0, 9.0, [big, small])], upper=upper, tree=Node(0, 9))
    units = _Units([UnitResult(16.0, True, None), UnitResult(8.0, True, None)])
    rounds.units = units  # type: ignore[assignment]
    return rounds, state, units, big, small


@pytest.mark.parametrize("upper, dropped", [(30.0, True), (40.0, False)])
def test_a_round_drops_its_units_still_out_once_the_root_is_proven(upper, dropped):
    """6x7n's last round ran on for an hour of both cores after the root's bound met the
    strategy's total: the round collected every unit it had sent before it looked."""
    rounds, state, units, big, small = _two_class_round(upper)
    rounds._round(state, [(big, 16.0, None), (small, 8.0, None)])
    # the first answer lifts the first guess to 9 + 16 + 5 = 30
    if dropped:
        assert units.collected == [0] and units.dropped_after == 1
        assert state.proven and state.lower == 30
    else:
        assert units.collected == [0, 1] and units.dropped_after is None
        assert not state.proven and state.lower == 33


def test_a_cheaper_strategy_found_during_a_round_decides_it_too():
    rounds, state, units, big, small = _two_class_round(40.0)
    offers = iter([(30.0, Node(1, 9))])
    rounds._round(state, [(big, 16.0, None), (small, 8.0, None)], fresh=lambda: next(offers, None))
    assert units.collected == [0] and units.dropped_after == 1  # (the answer and the offer: 30)
    assert state.proven and state.upper == 30 and state.tree.guess == 1


def test_a_run_whose_checkpoint_is_proven_searches_nothing_more(tmp_path, monkeypatch):
    """A root decided before a round (its checkpoint proven, or a strategy offered that meets
    its bound) plans nothing: the floors of split classes were raised first, up to 90 s."""
    table = CodeTable(Rules(3, 4))
    store = Checkpoint(tmp_path, {"rules": str(table.rules)})
    backend = ThreadBackend(1)
    try:
        first = RoundSearch(ExactSolver(table), backend, checkpoint=store)
        proven = first.run(first.solver.cands, UNLIMITED, first.solver.group)
        assert proven.proven

        def no_floors(self, state):
            raise AssertionError("floors raised for a root already proven")

        monkeypatch.setattr(RoundSearch, "_floor_splits", no_floors)
        again = RoundSearch(ExactSolver(table), backend, checkpoint=store)
        state = again.run(again.solver.cands, UNLIMITED, again.solver.group)
    finally:
        backend.close()
    assert state.proven and state.upper == proven.upper and again.rounds == 0


def test_a_stopped_run_keeps_its_bounds_and_a_continued_one_proves_the_optimum(tmp_path):
    table = CodeTable(Rules(4, 5))
    optimum = solve(table).total  # (the plain search, in this thread)
    solver = ExactSolver(table)
    store = Checkpoint(tmp_path, {"rules": str(table.rules)})
    token = CancelToken()
    lowers: list[float] = []

    def stop_after_two(state):
        lowers.append(state.lower)
        if len(lowers) == 2:
            token.cancel()

    backend = ThreadBackend(1)
    try:
        first = RoundSearch(solver, backend, checkpoint=store, cancel=token)
        stopped = first.run(solver.cands, UNLIMITED, solver.group, on_round=stop_after_two)
        assert first.rounds == 2 and not stopped.proven
        assert lowers[0] <= lowers[1] <= stopped.lower < optimum
        assert stopped.upper >= optimum
        kept = store.bounds()
        assert kept is not None and kept.lower == stopped.lower and kept.upper == stopped.upper
        # a stop before the run: nothing proven beyond what the checkpoint held
        halted = CancelToken()
        halted.cancel()
        again = RoundSearch(ExactSolver(table), backend, checkpoint=store, cancel=halted)
        state = again.run(solver.cands, UNLIMITED, solver.group)
        assert not state.proven and state.lower == stopped.lower and again.rounds == 0
        # continued: the classes the checkpoint knows are reused, and the optimum proven
        last = RoundSearch(ExactSolver(table), backend, checkpoint=store)
        state = last.run(solver.cands, UNLIMITED, solver.group)
    finally:
        backend.close()
    assert state.proven and state.lower == state.upper == optimum
    assert last.counters.reused > 0
    assert StrategyTree(table.rules, state.tree).depths(table, table.all_codes).sum() == optimum
    assert store.bounds() is not None and store.bounds().lower == optimum


# (p4c6 is slow, as much CPU as the three others: its first guesses take the same paths)
@pytest.mark.parametrize("text", ["p3c4", "p4c4", "p3c5n", pytest.param("p4c6", marks=pytest.mark.slow)])
def test_every_bound_the_rounds_prove_on_a_first_guess_stays_below_its_optimum(text):
    from mastermind.engines.exact import solve_by_first_guess
    from mastermind.engines.exact.anytime import RoundSearch
    from mastermind.engines.exact.backends import ThreadBackend

    table = CodeTable(Rules.parse(text))
    solver = ExactSolver(table)
    optimum = {r.first_guess: r.total for r in solve_by_first_guess(table)}
    seen: dict[int, list[float]] = {}

    def each_round(state):
        for g in state.guesses:
            seen.setdefault(g.guess, []).append(g.lower)
            assert g.lower <= optimum[g.guess]
            assert not g.exact or g.lower == optimum[g.guess]

    backend = ThreadBackend(1)
    try:
        RoundSearch(solver, backend).run(solver.cands, UNLIMITED, solver.group, on_round=each_round)
    finally:
        backend.close()
    assert seen and all(v == sorted(v) for v in seen.values())  # bounds only rise


def test_more_rounds_give_a_greater_bound_never_a_wrong_one():
    """A run stopped early proves less than a longer one, and never more than the optimum:
    each round's bound is at least the one before and at most the optimum (issue 28)."""
    from mastermind.core.tree import StrategyTree
    from mastermind.engines.exact.anytime import RoundSearch
    from mastermind.engines.exact.backends import ThreadBackend

    for text in ("p4c5", "p3c6", "p4c5n"):
        table = CodeTable(Rules.parse(text))
        optimum = solve(table).total  # the plain search in this thread
        solver = ExactSolver(table)
        backend = ThreadBackend(2)
        bounds: list[float] = []
        try:
            state = RoundSearch(solver, backend).run(
                solver.cands, UNLIMITED, solver.group, on_round=lambda s, seen=bounds: seen.append(s.lower)
            )
        finally:
            backend.close()
        assert len(bounds) >= 3
        assert bounds == sorted(bounds) and bounds[-1] == state.lower == optimum
        assert state.proven and state.tree is not None
        assert StrategyTree(table.rules, state.tree).depths(table, table.all_codes).sum() == optimum


@pytest.mark.parametrize("eldest", [None, 1, 2])
# p4c6 is slow (14 s on a loaded machine with eldest None), and p4c5; the smaller games, their
# classes split at a smaller size, take the same paths
@pytest.mark.parametrize(
    ("text", "split_size"),
    [
        pytest.param("p4c5", 10, marks=pytest.mark.slow),  # (1.2 s of CPU for its three cases)
        ("p3c6", 10),
        ("p4c5n", 5),
        pytest.param("p4c6", 60, marks=pytest.mark.slow),
    ],
)
def test_classes_split_into_their_guesses_prove_the_same_optimum(text, split_size, eldest, monkeypatch):
    """A big class asked through its own guesses (one unit each) never claims more than its
    optimum, its bound only rises, and the run proves the optimum with a strategy of that
    total (issue 28: small units for big classes): round by round (``eldest`` None, a run
    that may stop) or its most promising guesses first (a proof). Rounds that all count as
    quick (``round_seconds``) make the targets, hence the asks, the same on any machine."""
    from mastermind.core.tree import StrategyTree
    from mastermind.engines.exact import anytime
    from mastermind.engines.exact.anytime import RoundSearch
    from mastermind.engines.exact.backends import ThreadBackend

    exact_asks = []

    def inner_asks(c, budget, eldest=None):
        asks = plain_inner_asks(c, budget, eldest)
        exact_asks.extend(b for _, b, _ in asks if b == INF)
        return asks

    plain_inner_asks = anytime.inner_asks
    monkeypatch.setattr(anytime, "inner_asks", inner_asks)

    table = CodeTable(Rules.parse(text))
    optimum = solve(table).total
    solver = ExactSolver(table)
    oracle = solver.new_search()
    truth: dict[int, float] = {}
    seen: dict[int, list[float]] = {}

    def each_round(state):
        for g in state.guesses:
            for c in g.classes:
                if c.size < split_size:
                    continue
                key = id(c)
                if key not in truth:
                    truth[key] = float(oracle.solve(c.cands, c.left, INF, c.group))
                assert c.lower <= truth[key]
                assert not c.exact or c.lower == truth[key]
                seen.setdefault(key, []).append(c.lower)

    backend = ThreadBackend(2)
    try:
        rounds = RoundSearch(solver, backend, split_size=split_size, eldest=eldest, round_seconds=1e9)
        state = rounds.run(solver.cands, UNLIMITED, solver.group, on_round=each_round)
    finally:
        backend.close()
    split = [c for g in state.guesses for c in g.classes if c.size >= split_size]
    assert split and seen and all(v == sorted(v) for v in seen.values())
    assert bool(exact_asks) is (eldest is not None)  # the eldest guesses were asked to their cost
    assert state.proven and state.lower == state.upper == optimum
    assert StrategyTree(table.rules, state.tree).depths(table, table.all_codes).sum() == optimum


def test_a_proof_asks_the_eldest_guesses_of_a_split_class_first_then_the_others_to_their_cost():
    """Young brothers wait: with ``eldest`` the most promising guesses are asked for their
    exact cost while no guess is exact; then every other guess below that cost is asked for
    it, whatever the round's budget. Without it, every guess below the budget is asked."""
    from mastermind.engines.exact.anytime import ClassBound, GuessBound, inner_asks

    group = (np.zeros((1, 4), np.int8), np.zeros((1, 6), np.int8))
    c = ClassBound(np.arange(50, dtype=np.int32), group, 0, 100.0)
    c.inner = [GuessBound(g, 0.0, floor=f) for g, f in ((7, 120.0), (3, 110.0), (5, 130.0), (9, 200.0))]
    assert [(b, g.guess) for _, b, g in inner_asks(c, 140.0)] == [(140.0, 7), (140.0, 3), (140.0, 5)]
    assert [(b, g.guess) for _, b, g in inner_asks(c, 140.0, eldest=2)] == [(INF, 3), (INF, 7)]
    c.inner[1].floor, c.inner[1].node = 150.0, Node(3, 50)  # guess 3 costs 150 exactly
    assert [(b, g.guess) for _, b, g in inner_asks(c, 140.0, eldest=2)] == [(150.0, 7), (150.0, 5)]
    assert [(b, g.guess) for _, b, g in inner_asks(c, 140.0)] == [(140.0, 7), (140.0, 5)]


@pytest.mark.parametrize("text", ["p3c4", "p4c4", "p3c5n"])
def test_a_strategy_offered_is_mended_by_the_classes_the_rounds_know_cheaper(text):
    from mastermind.core.tree import StrategyTree, build_tree
    from mastermind.engines.exact.anytime import RootState, RoundSearch
    from mastermind.engines.exact.backends import ThreadBackend

    table = CodeTable(Rules.parse(text))
    solver = ExactSolver(table)
    backend = ThreadBackend(1)
    try:
        rounds = RoundSearch(solver, backend)
        state = rounds.run(solver.cands, UNLIMITED, solver.group)
    finally:
        backend.close()
    assert state.proven and state.tree is not None
    best = next(g for g in state.guesses if g.exact and g.lower == state.upper)
    # a poor strategy with the optimal first guess: the first candidate left, after it
    poor = build_tree(table, lambda cands, history: best.guess if not history else int(cands[0])).root
    poor_total = StrategyTree(table.rules, poor).stats(table).total
    assert poor_total > state.upper  # (else the test proves nothing)
    fresh = RootState(state.n, state.guesses, price=rounds.price)
    assert fresh.offer(poor_total, poor)
    # every class of that guess is exact: mended, the strategy is optimal, and replays to it
    assert fresh.upper == state.upper
    assert StrategyTree(table.rules, fresh.tree).stats(table).total == fresh.upper
    # a strategy offered again is mended no further, and one with another first guess not at all
    assert fresh.mend(fresh.upper, fresh.tree) == (fresh.upper, fresh.tree)
    other = table.n - 1 if best.guess != table.n - 1 else 0
    tree = build_tree(table, lambda cands, history: other if not history else int(cands[0])).root
    alone = RootState(state.n, [best], price=rounds.price)
    assert alone.mend(12345.0, tree) == (12345.0, tree)


def test_a_split_class_offers_its_cheapest_guess_whose_cost_is_known():
    from mastermind.engines.exact.anytime import ClassBound, GuessBound

    group = (np.zeros((1, 4), np.int8), np.zeros((1, 6), np.int8))
    c = ClassBound(np.arange(5, dtype=np.int32), group, 3, 9.0)
    assert c.cheapest() is None
    c.inner = [
        GuessBound(1, 0.0, floor=12.0, node=Node(1, 5)),
        GuessBound(2, 0.0, floor=11.0, node=Node(2, 5)),
    ]
    c.inner.append(GuessBound(3, 0.0, floor=10.0))  # (its cost not known: a bound only)
    assert c.cheapest() == (11.0, Node(2, 5))
    c.exact, c.node, c.lower = True, Node(4, 5), 10.0
    assert c.cheapest() == (10.0, Node(4, 5))


# p4c6 is slow (its oracle solves every guess of every split class: 19 s on a loaded
# machine); p3c5 and p4c5n split classes, raise guesses and check them the same way
@pytest.mark.parametrize("rules", [pytest.param("p4c6", marks=pytest.mark.slow), "p3c5", "p4c5n"])
def test_the_guesses_holding_a_split_class_rise_to_their_classes_own_bounds(rules):
    """In a run that may stop, the guesses on which a split class's bound rests, that earlier
    runs asked, are raised at once to their own cost plus each of their classes at its bound
    one level deeper (a unit asked for a share stops at its budget, leaving the classes it did
    not reach at their counting bounds). Never above what the guess truly costs; least first,
    until the least is a guess already raised, or one no earlier run asked (its unit in this
    run does as much)."""
    from mastermind.engines.exact.anytime import RoundSearch
    from mastermind.engines.exact.backends.threads import ThreadBackend

    table = CodeTable(Rules.parse(rules))
    solver = ExactSolver(table)
    oracle = solver.new_search()
    backend = ThreadBackend(1)
    try:
        rounds = RoundSearch(solver, backend, split_size=20)
        state = rounds.root(solver.cands, UNLIMITED, solver.group)
        rose = 0
        for g in state.guesses:
            for c in g.classes:
                if c.exact or not rounds.split(c):
                    continue
                before = {x.guess: x.lower for x in c.inner}
                class_before = c.lower
                rounds._floor_split(c)  # no guess asked before: none raised
                assert not c.floored and c.lower == class_before
                c.kept = {x.guess for x in c.inner}  # as if an earlier run had asked them all
                rounds._floor_split(c)
                for x in c.inner:
                    truth = float(oracle.solve(c.cands, c.left, INF, c.group, only=np.array([x.guess])))
                    assert before[x.guess] <= x.lower <= truth
                    assert (x.guess in c.floored) or x.lower == before[x.guess]
                least = min(c.inner, key=lambda x: x.lower)
                assert least.exact or least.guess in c.floored  # (the least was raised already)
                assert c.lower >= class_before
                rose += c.lower > class_before
    finally:
        backend.close()
    assert rose > 0
