"""Handing work units to a backend and taking their results back.

The rounds of the search (:mod:`mastermind.engines.exact.anytime`) ask for units; the
:class:`Dispatcher`:

* submits each one to the backend, unless the checkpoint holds its answer (a unit is stored
  under its key, independent of its budget: an exact value below the budget, or a bound at
  least the budget, serves any later run; a bound below it is run again);
* checkpoints and counts each unit as soon as it finishes, in whatever order units finish, so
  that a killed run loses only the units still running and the progress line moves while
  the search waits for a long unit;
* waits for units in slices of 0.1 s, so that a cancel (Ctrl-C, a time limit) is seen at once;
  once cancelled, the units still queued are withdrawn and units on other processes are told
  to stop (their backend is closed);
* drops the units still out once the root is decided (:meth:`Dispatcher.drop`), the run's
  token left alone: the run ends proven, not stopped.
"""

from __future__ import annotations

import math
import uuid
from collections import deque
from collections.abc import Collection
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from mastermind.core.cancel import INTERRUPTED, CancelToken
from mastermind.core.errors import MastermindError
from mastermind.core.game import CodeTable
from mastermind.core.tree import Node
from mastermind.engines.exact.backends import Backend
from mastermind.engines.exact.checkpoint import Checkpoint
from mastermind.engines.exact.partition import Group
from mastermind.engines.exact.reporting import ProgressReporter
from mastermind.engines.exact.units import (
    SearchSpec,
    Unit,
    UnitResult,
    forget_run,
    run_unit,
    set_run_flag,
    set_run_memo,
    share_table,
)
from mastermind.engines.result import Counters

DECIDED = "root decided"
"""Why :meth:`Dispatcher.drop` stopped the units still out (their run goes on to its end)."""
POLL = 0.1  # seconds between looks at the cancel token while waiting for units
CUT_SECONDS = 10.0
"""A class whose unit a stop cut short after it ran this long is asked through its guesses
by the next run (see :meth:`Checkpoint.mark_cut`); the units queued behind it, cut before
they began, are not."""


@dataclass
class Pending:
    """A unit handed out: its future, key and budget, a lower bound known before it runs
    (``floor``: its plan's or its class's bound), its size, and whether it was counted on the
    progress line yet (when it finished, or when collected)."""

    future: Future
    key: str
    budget: float
    floor: float
    size: int
    reported: bool = False
    ran: bool = False  # run here, not answered by the checkpoint or a stop
    fixed_guess: bool = False  # a guess of a class (else the class as a whole)


class Dispatcher:
    """The units of one search over ``backend`` (their search set up by ``spec``), polling
    ``cancel``; ``checkpoint``: where finished units are kept and found again."""

    def __init__(
        self,
        backend: Backend,
        spec: SearchSpec,
        cancel: CancelToken,
        reporter: ProgressReporter,
        checkpoint: Checkpoint | None = None,
        memo: object | None = None,
    ) -> None:
        self.backend = backend
        self.memo = memo  # shared by the units of this process's threads (None: each its own)
        self.spec = spec
        self.token = cancel
        self.reporter = reporter
        self.checkpoint = checkpoint
        self.run_id = uuid.uuid4().hex
        self.counters = Counters()
        self._finished: deque[Pending] = deque()  # units whose future is done, to checkpoint and count
        # what this run stored per unit (a class asked again for more is stored again)
        self._stored: dict[str, tuple[float, bool]] = {}
        self._queued: dict[int, Future] = {}  # the futures handed out and not collected yet
        self._withdrawn = False  # whether the stop withdrew the units still queued
        # what units on threads poll: cancelled with the run's token, or alone by drop()
        self._units_token = CancelToken(parent=cancel)
        self.dropped = False

    # ---- a run ---------------------------------------------------------------------------------
    def start_run(self, table: CodeTable) -> None:
        """Before the first unit: units on threads share this process's score ``table`` and
        see the cancel token's flag as their run's flag."""
        if self.backend.shares_memory:
            share_table(table)
            set_run_flag(self.run_id, self._units_token.flag)
            if self.memo is not None:
                set_run_memo(self.run_id, self.memo)

    def end_run(self) -> None:
        """After the last unit: the units finished meanwhile are counted."""
        self.take_finished()
        forget_run(self.run_id)

    def stopping(self) -> bool:
        """Whether the run is cancelled (saying so: the run is winding down). The first time,
        the units queued and not started are withdrawn: each would start only to find the
        stop and be collected one by one (5x6 stopped in a round of 6077 units, 3200 of them
        queued: more than the 10 s a Ctrl-C waits for a run winding down)."""
        if not self.token.cancelled:
            return False
        self.token.wind_down()
        if not self._withdrawn:
            self._withdrawn = True
            for future in list(self._queued.values()):
                future.cancel()  # (False, and nothing done, for a unit already running)
        return True

    def drop(self, rest: Collection[Pending]) -> None:
        """Stop every unit handed out and not collected (``rest``: those of the round), the
        run's token left alone: the root is decided, and what they would prove is not needed
        (6x7n's last round ran on for an hour of both cores after its root met the
        strategy's total). Units queued are withdrawn, units on threads see their flag, and
        units in other processes are stopped with their backend, which the run does not use
        again. They are not waited for, and those of ``rest`` not counted yet are no longer
        planned: the progress of a proven run ends with every unit planned done."""
        self.take_finished()
        unneeded = [pending for pending in rest if not pending.reported]
        for pending in unneeded:
            pending.reported = True  # (one that finishes all the same is kept, not counted)
        self.reporter.total -= len(unneeded)
        self.dropped = True
        for future in list(self._queued.values()):
            future.cancel()  # (False, and nothing done, for a unit already running)
        self._queued.clear()
        self._units_token.cancel(DECIDED)
        if not self.backend.shares_memory:  # other processes do not see the flag
            self.backend.stop_run(self.run_id)
            self.backend.close(kill=True)

    # ---- units ---------------------------------------------------------------------------------
    def known(
        self, cands: np.ndarray, r: int, group: Group, guess: int | None = None
    ) -> tuple[float, Node | None] | None:
        """What the checkpoint knows of the unit ``cands`` (``r`` guesses left, ``guess`` first
        if not None), asked for nothing: its exact cost with its tree, or a proven bound with
        None (None: nothing kept, or no checkpoint)."""
        if self.checkpoint is None:
            return None
        cands = np.ascontiguousarray(cands, dtype=np.int32)
        unit = Unit(cands, int(r), 0.0, group[0], group[1], None if guess is None else int(guess))
        stored = self.checkpoint.get(unit.key())
        if stored is None:
            return None
        value, exact, tree = stored
        return (value, tree) if exact and tree is not None else (value, None)

    def was_cut(self, cands: np.ndarray, r: int, group: Group) -> bool:
        """Whether a run stopped while the class ``cands`` (``r`` guesses left) ran as one
        unit (see :meth:`Checkpoint.mark_cut`); False without a checkpoint."""
        if self.checkpoint is None:
            return False
        unit = Unit(np.ascontiguousarray(cands, dtype=np.int32), int(r), 0.0, group[0], group[1], None)
        return self.checkpoint.was_cut(unit.key())

    def restored(self, size: int, value: float, tree: Node | None) -> None:
        """Count a class whose answer the root took from the checkpoint (see :meth:`known`)
        as a unit reused, in the report and on the progress line."""
        self.counters += Counters(0, 0, 1, 1)
        self.reporter.total += 1
        budget = value + 1 if tree is not None else value
        self.reporter.unit_done(size, budget, UnitResult(value, True, tree, reused=True))

    def submit(
        self, cands: np.ndarray, r: int, budget: float, group: Group, guess: int | None, floor: float
    ) -> Pending:
        """Hand out the unit ``cands`` with ``r`` guesses left under ``budget`` (``guess``: its
        first guess, if fixed; ``floor``: a lower bound known beforehand): the checkpoint's
        answer, or a new run."""
        unit = Unit(
            np.ascontiguousarray(cands, dtype=np.int32),
            int(r),
            float(budget),
            group[0],
            group[1],
            None if guess is None else int(guess),
        )
        key = unit.key()
        stored = self.checkpoint.get(key) if self.checkpoint is not None else None
        future: Future = Future()
        ran = False
        if stored is not None:
            value, exact, tree = stored
            if exact and value < budget and tree is not None:
                future.set_result(UnitResult(value, True, tree, reused=True))
            elif value >= budget:  # an exact value or a bound, at least this budget either way
                future.set_result(UnitResult(value, True, None, reused=True))
            else:
                stored = None  # a bound below this budget: run it again
        if stored is None:
            if self.stopping() or self.dropped:
                future.set_result(UnitResult(float(floor), False, None))
            else:
                future = self.backend.submit(run_unit, self.spec, self.run_id, unit)
                self._queued[id(future)] = future
                ran = True
        pending = Pending(
            future, key, float(budget), float(floor), len(cands), ran=ran, fixed_guess=guess is not None
        )
        if ran:
            # checkpointed and counted as soon as it finishes, not when the search gets to it
            # (units finish in any order): a kill then loses only the units still running,
            # and the progress line moves while the search waits for a long unit
            future.add_done_callback(partial(self._queue_finished, pending))
        return pending

    def collect(self, pending: Pending) -> UnitResult:
        """The result of ``pending``, waited for (a stopped run's: its floor, not proven)."""
        future = pending.future
        # (a stop seen here withdraws the units still queued: waited for one by one, each
        # started only to stop at once, and a stopped round waited for them all)
        self.stopping()
        if not future.done():
            self.wait({future})
        self._queued.pop(id(future), None)
        if future.cancelled():  # withdrawn by the stop before it started
            pending.ran = False
        try:
            result = future.result(timeout=0) if future.done() and not future.cancelled() else None
        except Exception as exc:
            if not self.stopping():
                raise MastermindError(f"a work unit failed: {type(exc).__name__}: {exc}") from exc
            result = None
        if result is None:
            result = UnitResult(pending.floor, False, None)
        self.take_finished()  # this one too, if it ran: lines come in the order units finish
        result = _settled(pending, result)
        if (
            self.checkpoint is not None
            and pending.ran
            and not pending.fixed_guess
            and not result.proven
            and result.seconds >= CUT_SECONDS
        ):
            self.checkpoint.mark_cut(pending.key)
        # a unit a stop cut short is not done (its nodes count all the same): the progress and
        # the report of a stopped run count the same units
        self.counters += Counters(result.nodes, result.memo_hits, int(result.proven), int(result.reused))
        # (a unit the stop kept from starting proved nothing new: no write for it at the stop)
        if self.checkpoint is not None and (result.proven or pending.ran):
            self._store(pending.key, pending.budget, result)
        if not pending.reported and result.proven:
            pending.reported = True
            self.reporter.unit_done(pending.size, pending.budget, result)
        return result

    def wait(self, futures: Collection[Future]) -> set[Future]:
        """Wait for at least one future (or a stop), polling so that Ctrl-C and the deadline
        are seen within a fraction of a second."""
        while True:
            self.take_finished()
            try:
                done, _ = wait(futures, timeout=POLL, return_when=FIRST_COMPLETED)
            except KeyboardInterrupt:
                self.token.cancel(INTERRUPTED)
                done = set()
            if done:
                return done
            if self.stopping():
                if not self.backend.shares_memory:  # other processes do not see the flag
                    self.backend.stop_run(self.run_id)
                    self.backend.close(kill=True)
                done, _ = wait(futures, timeout=1.0)
                return set(futures) if not done else done

    # ---- finished units ------------------------------------------------------------------------
    def _queue_finished(self, pending: Pending, future: Future) -> None:
        self._finished.append(pending)  # any thread; the search's thread takes it

    def take_finished(self) -> None:
        """Checkpoint and count the units finished since the last call (their callbacks
        queue them)."""
        while self._finished:
            pending = self._finished.popleft()
            future = pending.future
            if future.cancelled() or future.exception() is not None:
                continue
            result = _settled(pending, future.result())
            if self.checkpoint is not None:
                self._store(pending.key, pending.budget, result)
            if not pending.reported and result.proven:
                pending.reported = True
                self.reporter.unit_done(pending.size, pending.budget, result)

    def _store(self, key: str, budget: float, result: UnitResult) -> None:
        # a unit a stop cut short still proved its value as a bound, which the round raised
        # its class to: kept too, so that a continued run starts where this one was
        if result.reused or not math.isfinite(result.value):
            return
        exact = result.proven and result.value < budget
        if exact and result.tree is None:
            return
        before = self._stored.get(key)
        if before is not None and (before[1] or (not exact and result.value <= before[0])):
            return  # no news: an exact cost stays, a bound only rises
        self._stored[key] = (float(result.value), exact)
        assert self.checkpoint is not None
        self.checkpoint.put(key, result.value, exact, result.tree)


def _settled(pending: Pending, result: UnitResult) -> UnitResult:
    """The result as the search uses it: an exact value without its tree (a stopped build)
    is only a lower bound; a lower bound is at least what was known before."""
    if result.proven and result.value < pending.budget and result.tree is None:
        return replace(result, value=max(result.value, pending.floor), proven=False)
    if not result.proven and result.value < pending.floor:
        return replace(result, value=pending.floor, tree=None)
    return result
