"""Handing work units out and taking their results back (mastermind.engines.exact.dispatch): the
checkpoint answers a unit it holds for any budget it settles and the backend runs the others;
finished units are checkpointed and counted once, as they finish; a stop withdraws the units
queued and answers each unit with the bound known before it; a failed unit is one error."""

from __future__ import annotations

import time
from concurrent.futures import Future

import numpy as np
import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable, Rules
from mastermind.core.tree import Node, StrategyTree
from mastermind.engines.exact.backends import Backend, ThreadBackend
from mastermind.engines.exact.checkpoint import Checkpoint
from mastermind.engines.exact.dispatch import CUT_SECONDS, Dispatcher
from mastermind.engines.exact.reporting import ProgressReporter
from mastermind.engines.exact.search import INF, UNLIMITED
from mastermind.engines.exact.solver import ExactSolver
from mastermind.engines.exact.units import SearchSpec, Unit, UnitResult

from .reference import reference_cost


class HeldBackend(Backend):
    """A backend whose units never run: their futures are the test's to complete."""

    name = "held"

    def __init__(self, shares_memory: bool = True) -> None:
        super().__init__(1)
        self.shares_memory = shares_memory
        self.futures: list[Future] = []
        self.units: list[Unit] = []
        self.stopped: list[str] = []
        self.closed: list[bool] = []

    def submit(self, fn, *args):
        self.units.append(args[-1])
        self.futures.append(Future())
        return self.futures[-1]

    def stop_run(self, run_id: str) -> None:
        self.stopped.append(run_id)

    def close(self, kill: bool = False) -> None:
        self.closed.append(kill)


class Lines:
    """A progress that reports: the fields of every unit's line."""

    def __init__(self) -> None:
        self.units: list[dict] = []

    def start(self, total, description=""):
        pass

    def report(self, fields):
        self.units.append(fields)


GROUP = (np.arange(3, dtype=np.int8)[None, :], np.arange(4, dtype=np.int8)[None, :])
SPEC = SearchSpec("p3c4r", False, 1, 0, 64)


def _dispatcher(backend, checkpoint=None, progress=None, token=None) -> Dispatcher:
    token = CancelToken() if token is None else token
    return Dispatcher(backend, SPEC, token, ProgressReporter(progress), checkpoint)


def _cands(i: int, n: int = 5) -> np.ndarray:
    return np.arange(n * i, n * i + n, dtype=np.int32)


def test_units_are_counted_when_they_finish_not_when_collected():
    """A unit that finishes while the search waits for an earlier, longer one shows on the
    progress line at once (a 1-worker run of 6x7n once showed nothing for 29 minutes)."""
    lines, backend = Lines(), HeldBackend()
    units = _dispatcher(backend, progress=lines)
    # (bounds at least their budgets: settled answers, so counted done)
    long_unit = units.submit(_cands(0, 20), UNLIMITED, 25, GROUP, None, 10)
    short_unit = units.submit(_cands(4), UNLIMITED, 9, GROUP, None, 5)
    backend.futures[1].set_result(UnitResult(12, True, None, nodes=7))
    units.take_finished()
    assert [u["unit"]["size"] for u in lines.units] == [5]  # before the long one is collected
    backend.futures[0].set_result(UnitResult(30, True, None, nodes=9))
    units.collect(long_unit)
    units.collect(short_unit)  # already counted: not twice
    assert [u["unit"]["size"] for u in lines.units] == [5, 20]
    assert [u["done"] for u in lines.units] == [1, 2]
    assert units.counters.nodes == 16 and units.counters.units == 2 and units.counters.reused == 0


def test_a_stop_withdraws_the_units_still_queued_and_keeps_nothing_of_them(tmp_path):
    """Stopped in a round of thousands of units, the search collected the queued ones one by
    one, each started only to stop at once and written to the checkpoint: a Ctrl-C of
    `optimal -r p5c6 --checkpoint DIR` took more than the second it is given, then was ended
    with no JSON and no bounds kept."""
    store = Checkpoint(tmp_path, {"rules": "p3c4"})
    token, backend = CancelToken(), HeldBackend()  # (futures never started: all queued)
    units = _dispatcher(backend, store, token=token)
    asked = [units.submit(_cands(i), UNLIMITED, 9, GROUP, None, 5) for i in range(3)]
    token.cancel()
    results = [units.collect(pending) for pending in asked]
    assert all(future.cancelled() for future in backend.futures)
    assert [(r.value, r.proven) for r in results] == [(5, False)] * 3  # their floors, nothing proven
    assert store.count() == 0  # nothing new to keep
    assert not store.was_cut(asked[0].key)
    # once stopped, a unit is not sent at all: its floor at once
    late = units.submit(_cands(5), UNLIMITED, 9, GROUP, None, 6)
    assert len(backend.futures) == 3 and units.collect(late) == UnitResult(6, False, None)


def test_the_checkpoint_answers_a_unit_for_every_budget_its_answer_settles(tmp_path):
    store = Checkpoint(tmp_path, {"rules": "p3c4"})
    backend = HeldBackend()
    units = _dispatcher(backend, store)
    cands = _cands(0, 8)
    # a bound of 12 proven (asked for 12): kept as a bound
    first = units.submit(cands, UNLIMITED, 12, GROUP, None, 8)
    backend.futures[0].set_result(UnitResult(12, True, None, nodes=3))
    assert units.collect(first).value == 12
    assert store.get(first.key) == (12.0, False, None)
    # asked for no more than 12 again: answered by the checkpoint, whatever the budget
    for budget in (10, 12):
        again = units.submit(cands, UNLIMITED, budget, GROUP, None, 8)
        result = units.collect(again)
        assert (result.value, result.proven, result.tree, result.reused) == (12, True, None, True)
    assert len(backend.futures) == 1
    # asked for more: run again; its exact cost replaces the bound
    more = units.submit(cands, UNLIMITED, 20, GROUP, None, 12)
    assert len(backend.futures) == 2
    tree = Node(3, 8)
    backend.futures[1].set_result(UnitResult(15, True, tree, nodes=40))
    assert units.collect(more).value == 15
    assert store.get(more.key) == (15.0, True, tree)
    # exact: any budget above it has the tree, any below it a bound, and nothing runs
    above = units.collect(units.submit(cands, UNLIMITED, INF, GROUP, None, 12))
    below = units.collect(units.submit(cands, UNLIMITED, 14, GROUP, None, 12))
    assert (above.value, above.tree, above.reused) == (15, tree, True)
    assert (below.value, below.tree, below.reused) == (15, None, True)
    assert len(backend.futures) == 2
    # the same secrets with a guess fixed are another unit
    units.submit(cands, UNLIMITED, 20, GROUP, 3, 12)
    assert len(backend.futures) == 3 and backend.units[-1].guess == 3
    assert units.counters.units == 6 and units.counters.reused == 4 and units.counters.nodes == 43


def test_a_bound_kept_only_rises_and_an_exact_cost_stays(tmp_path):
    store = Checkpoint(tmp_path, {"rules": "p3c4"})
    backend = HeldBackend()
    units = _dispatcher(backend, store)
    cands = _cands(1, 6)
    asks = [(18, UnitResult(18, True, None)), (25, UnitResult(20, True, Node(1, 6)))]
    for budget, answer in asks:
        pending = units.submit(cands, UNLIMITED, budget, GROUP, None, 6)
        backend.futures[-1].set_result(answer)
        units.collect(pending)
    assert store.get(pending.key) == (20.0, True, Node(1, 6))
    # a unit stopped later (a bound below the cost) keeps the exact cost as it was
    units._store(pending.key, 30, UnitResult(19, False, None))
    assert store.get(pending.key) == (20.0, True, Node(1, 6))
    other = _cands(3, 6)
    lower = units.submit(other, UNLIMITED, 18, GROUP, None, 6)
    backend.futures[-1].set_result(UnitResult(18, True, None))
    units.collect(lower)
    units._store(lower.key, 10, UnitResult(11, False, None))  # less than what is kept: no news
    assert store.get(lower.key) == (18.0, False, None)


def test_answers_are_settled_against_what_was_known_before():
    backend = HeldBackend()
    units = _dispatcher(backend)
    # an exact cost whose tree a stop kept from being built is only a lower bound
    no_tree = units.submit(_cands(0), UNLIMITED, 30, GROUP, None, 17)
    backend.futures[-1].set_result(UnitResult(21, True, None))
    assert units.collect(no_tree) == UnitResult(21, False, None)
    # a stopped unit's bound below what was known before counts as that
    stopped = units.submit(_cands(1), UNLIMITED, 30, GROUP, None, 17)
    backend.futures[-1].set_result(UnitResult(9, False, None, nodes=4))
    assert units.collect(stopped) == UnitResult(17, False, None, nodes=4)
    # a proven answer stands as it is
    proven = units.submit(_cands(2), UNLIMITED, 30, GROUP, None, 17)
    backend.futures[-1].set_result(UnitResult(19, True, Node(8, 5)))
    assert units.collect(proven) == UnitResult(19, True, Node(8, 5))
    assert units.counters.units == 1  # (only that one is done)


def test_a_unit_cut_short_after_running_long_is_marked_for_the_next_run(tmp_path):
    store = Checkpoint(tmp_path, {"rules": "p3c4"})
    backend = HeldBackend()
    units = _dispatcher(backend, store)
    answers = {
        "long": (None, UnitResult(7, False, None, seconds=CUT_SECONDS)),
        "short": (None, UnitResult(7, False, None, seconds=CUT_SECONDS / 2)),
        "guess": (2, UnitResult(7, False, None, seconds=CUT_SECONDS)),  # (a guess of a class)
        "proven": (None, UnitResult(40, True, None, seconds=CUT_SECONDS * 3)),
    }
    keys = {}
    for i, (name, (guess, answer)) in enumerate(answers.items()):
        pending = units.submit(_cands(i), UNLIMITED, 40, GROUP, guess, 5)
        backend.futures[-1].set_result(answer)
        units.collect(pending)
        keys[name] = pending.key
    assert [name for name, key in keys.items() if store.was_cut(key)] == ["long"]
    assert units.was_cut(_cands(0), UNLIMITED, GROUP)
    assert not units.was_cut(_cands(1), UNLIMITED, GROUP)
    assert not _dispatcher(backend).was_cut(_cands(0), UNLIMITED, GROUP)  # (no checkpoint)


def test_what_the_checkpoint_knows_of_a_class_and_its_count_as_reused(tmp_path):
    store = Checkpoint(tmp_path, {"rules": "p3c4"})
    lines, backend = Lines(), HeldBackend()
    units = _dispatcher(backend, store, progress=lines)
    assert units.known(_cands(0), UNLIMITED, GROUP) is None
    for i, answer in ((0, UnitResult(11, True, Node(4, 5))), (1, UnitResult(30, True, None))):
        pending = units.submit(_cands(i), UNLIMITED, 30, GROUP, None, 5)
        backend.futures[-1].set_result(answer)
        units.collect(pending)
    assert units.known(_cands(0), UNLIMITED, GROUP) == (11.0, Node(4, 5))
    assert units.known(_cands(1), UNLIMITED, GROUP) == (30.0, None)  # a bound only
    assert units.known(_cands(0), UNLIMITED, GROUP, guess=4) is None  # (another unit)
    assert _dispatcher(backend).known(_cands(0), UNLIMITED, GROUP) is None
    before = units.counters
    units.restored(5, 11.0, Node(4, 5))
    assert (units.counters.units - before.units, units.counters.reused - before.reused) == (1, 1)
    assert units.reporter.total == 1 and lines.units[-1]["unit"]["reused"] is True


def test_a_failed_unit_is_one_error_naming_it_unless_the_run_was_stopped():
    backend = HeldBackend()
    units = _dispatcher(backend)
    pending = units.submit(_cands(0), UNLIMITED, 30, GROUP, None, 5)
    backend.futures[-1].set_exception(MemoryError("no room"))
    with pytest.raises(MastermindError, match="a work unit failed: MemoryError: no room"):
        units.collect(pending)
    token = CancelToken()
    stopped = _dispatcher(backend, token=token)
    pending = stopped.submit(_cands(0), UNLIMITED, 30, GROUP, None, 5)
    backend.futures[-1].set_exception(RuntimeError("worker lost"))
    token.cancel()
    assert stopped.collect(pending) == UnitResult(5, False, None)  # its floor: the stop's doing


def test_a_stop_tells_units_on_other_processes_and_wakes_the_waiter():
    token = CancelToken()
    backend = HeldBackend(shares_memory=False)  # (the units' processes do not see the flag)
    units = _dispatcher(backend, token=token)
    pending = units.submit(_cands(0), UNLIMITED, 30, GROUP, None, 5)
    backend.futures[0].set_running_or_notify_cancel()  # sent: it cannot be withdrawn
    token.cancel()
    assert units.wait({pending.future}) == {pending.future}  # (its unit never answers)
    assert backend.stopped == [units.run_id] and backend.closed == [True]
    assert units.collect(pending) == UnitResult(5, False, None)


@pytest.mark.parametrize("text", ["p2c4", "p3c3"])
def test_units_run_on_threads_answer_as_the_plain_search_does(text):
    table = CodeTable(Rules.parse(text))
    solver = ExactSolver(table)
    spec = SearchSpec(str(table.rules), False, 1, 0, table.n)
    group = (
        np.arange(table.rules.pegs, dtype=np.int8)[None, :],
        np.arange(table.rules.colors, dtype=np.int8)[None, :],
    )
    scores = table.scores
    assert scores is not None
    row = scores[0]
    classes = [
        np.flatnonzero(row == a).astype(np.int32) for a in np.unique(row) if a != table.rules.win_index
    ]
    backend = ThreadBackend(2)
    units = Dispatcher(backend, spec, CancelToken(), ProgressReporter(None))
    units.start_run(solver.table)
    try:
        sent = [(c, units.submit(c, UNLIMITED, INF, group, None, 0)) for c in classes]
        for cands, pending in sent:
            result = units.collect(pending)
            truth = reference_cost(table, cands.tolist())
            assert result.proven and result.value == truth and result.tree is not None
            assert StrategyTree(table.rules, result.tree).depths(table, cands).sum() == truth
    finally:
        units.end_run()
        backend.close()
    assert units.counters.units == len(classes) and units.counters.nodes > 0


def test_a_drop_stops_the_units_out_and_leaves_the_run_alone():
    """Once the root is decided the rest of a round is dropped: the units queued are
    withdrawn, those in other processes are stopped with their backend, and the run's token
    is not cancelled (the run ends proven, not stopped)."""
    token = CancelToken()
    backend = HeldBackend(shares_memory=False)
    units = _dispatcher(backend, token=token)
    running = units.submit(_cands(0), UNLIMITED, 30, GROUP, None, 5)
    queued = units.submit(_cands(1), UNLIMITED, 30, GROUP, None, 5)
    backend.futures[0].set_running_or_notify_cancel()  # sent: it cannot be withdrawn
    units.reporter.total = 3  # (the round counts what it asks: these two and one collected)
    units.drop([running, queued])
    assert queued.future.cancelled() and not running.future.cancelled()
    assert units.reporter.total == 1  # (no longer planned: a proven run ends with all done)
    assert backend.stopped == [units.run_id] and backend.closed == [True]
    assert not token.cancelled and not units.stopping()
    # nothing more is sent: a unit asked now gets its floor at once
    late = units.submit(_cands(2), UNLIMITED, 30, GROUP, None, 6)
    assert len(backend.futures) == 2 and units.collect(late) == UnitResult(6, False, None)


def test_a_drop_stops_a_unit_running_on_a_thread_and_not_the_run():
    """A unit of minutes (the whole of 5x6) stops as soon as it is dropped, short of proof,
    while the run's token stays as it was."""
    table = CodeTable(Rules.parse("p5c6"))
    spec = SearchSpec(str(table.rules), False, 1, 0, table.n)
    group = (
        np.arange(table.rules.pegs, dtype=np.int8)[None, :],
        np.arange(table.rules.colors, dtype=np.int8)[None, :],
    )
    token, backend = CancelToken(), ThreadBackend(1)
    units = Dispatcher(backend, spec, token, ProgressReporter(None))
    units.start_run(table)
    try:
        pending = units.submit(table.all_codes.astype(np.int32), UNLIMITED, INF, group, None, 0)
        while not pending.future.running() and not pending.future.done():
            time.sleep(0.01)  # (a unit not started yet would be withdrawn, not stopped)
        units.drop([pending])
        result = pending.future.result(timeout=120)  # (minutes, had it not stopped)
    finally:
        units.end_run()
        backend.close()
    assert not result.proven
    assert not token.cancelled
