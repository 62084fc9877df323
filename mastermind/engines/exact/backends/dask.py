"""The Dask backend: work units on a LocalCluster or on a cluster given by its scheduler's
address, run by one actor per worker (see :class:`DaskBackend` for why actors)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, InvalidStateError, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from mastermind.core.errors import MastermindError
from mastermind.engines.exact.backends import worker_setup
from mastermind.engines.exact.backends.base import RETRIES, Backend, cancel_future, start_future
from mastermind.engines.exact.options import SchedulerError

WORKER_WAIT = 10  # seconds a scheduler given by address has to show a worker
WORKER_LOOK = 5.0  # seconds between looks for workers that joined a running cluster
MAX_BATCH = 4  # units per call to a worker when many wait (one round trip for several)
DRAIN = 0.5  # seconds a closing run waits for the calls in flight (stopped units answer fast)
# what awaiting a worker raises when it is gone or the run closes (a cancelled await is a
# BaseException, which the event loop would otherwise log with a traceback)
_GONE = (Exception, asyncio.CancelledError)


class DaskBackend(Backend):
    """Units on a LocalCluster of ``jobs`` processes or on the cluster behind ``scheduler``,
    run by one :class:`UnitRunner` actor per worker.

    Why actors and not tasks: the search sends its units one at a time as budgets become
    known, hundreds a second on small subproblems, and a Dask task costs several times the
    processor time of an actor call (client, scheduler, worker) and a round trip through the
    scheduler, while an actor call goes from this process straight to its worker (the
    measurements: benchmarks/NOTES.md). Actors are not run again by Dask
    when their worker dies, so this backend does it: the units of a lost worker go to the
    others, and a runner is started on every worker that has none (a restarted one too).
    """

    name = "dask"

    def __init__(self, jobs: int, scheduler: str | None = None) -> None:
        super().__init__(jobs)
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise MastermindError(
                "the dask backend needs Dask: pip install 'mastermind-strategies[cluster]'"
            ) from exc
        self.cluster = None
        self.scheduler = scheduler
        import dask

        # the worker's sampling profiler (every 10 ms) slows short units. Workers of a
        # LocalCluster get this configuration from their nanny; a cluster started apart keeps
        # its own. Dask's nanny sets MALLOC_TRIM_THRESHOLD_=65536 in its workers, which also
        # fixes glibc's mmap threshold at 128 KiB: every larger scratch array of the search
        # then comes fresh from the kernel, page faults included (benchmarks/NOTES.md)
        environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}))
        environ.pop("MALLOC_TRIM_THRESHOLD_", None)
        self._config = dask.config.set(
            {"distributed.worker.profile.enabled": False, "distributed.nanny.pre-spawn-environ": environ}
        )
        try:
            if scheduler is None:
                self.cluster = LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                    preload=[worker_setup.__name__],  # Ctrl-C is the run's, not its workers'
                )
                self.client = Client(self.cluster)
            else:
                self.client = Client(scheduler, timeout="5s")
        except (OSError, ValueError, TypeError) as exc:  # unreachable, or not an address at all
            if self.cluster is not None:
                self.cluster.close()
            self._config.__exit__(None, None, None)
            if scheduler is not None:
                raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
            raise MastermindError(f"cannot start a local Dask cluster: {exc}") from None
        if scheduler is not None:
            try:  # a scheduler without workers would leave the run waiting for ever
                self.client.wait_for_workers(1, timeout=WORKER_WAIT)
            except TimeoutError:
                self.client.close()
                self._config.__exit__(None, None, None)
                raise MastermindError(
                    f"the Dask scheduler at {scheduler} has no workers (waited {WORKER_WAIT} s): "
                    f"start some with: dask worker {scheduler}"
                ) from None
        self._loop: Any = self.client.loop  # the client's event loop (tornado): calls and answers
        self._lock = threading.Lock()
        self._runners: dict[str, _Runner] = {}  # worker address -> its runner
        self._rules: str | None = None  # what a runner loads when it starts
        # units wait here, not on the workers, except one per worker thread sent ahead: a
        # worker that finishes a unit then starts the next without waiting for the round trip
        self._waiting: deque = deque()  # (future, fn, args, tries left)
        self._calls: dict[int, tuple[_Runner, list]] = {}  # call id -> its runner and batch
        self._ids = itertools.count()
        self._replacing = False
        self._looked = time.monotonic()
        self._closed = False
        self._taking_back = 0  # take-back calls in flight
        self._gone: SchedulerError | None = None  # set once the scheduler is lost for good

    @property
    def slots(self) -> int:
        """Two per worker thread: one running, one waiting on its worker, so that a worker that
        finishes a unit does not sit idle for the round trip to the dispatcher; the
        waiting unit's budget may be a little less tight."""
        return 2 * self.jobs

    def warm(self, rules_text: str) -> None:
        self._rules = rules_text
        self._start_runners()

    def _start_runners(self) -> None:
        """A runner on every worker, each loading the kernels and the table (this thread)."""
        workers = self.client.scheduler_info().get("workers", {})
        pending = [(self._runner_future(a, info), a, _threads(info)) for a, info in workers.items()]
        self._add_runners([_Runner(future, future.result(), a, n) for future, a, n in pending])

    def _runner_future(self, address: str, info: dict) -> Any:
        return self.client.submit(
            UnitRunner,
            _threads(info),
            self._rules,
            workers=[address],
            allow_other_workers=False,
            actor=True,
            pure=False,
        )

    def _add_runners(self, runners: list[_Runner]) -> None:
        with self._lock:
            for runner in runners:
                self._runners[runner.address] = runner
            self.jobs = max(1, sum(r.threads for r in self._runners.values()))

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        if not self._runners:
            self._start_runners()
        outer: Future = Future()
        with self._lock:
            if self._gone is not None:
                outer.set_exception(self._gone)
                return outer
            self._waiting.append((outer, fn, args, RETRIES))
        self._pump()
        return outer

    def _pump(self) -> None:
        """Send waiting units to runners with room (any thread)."""
        while True:
            with self._lock:
                if self._closed or not self._waiting:
                    return
                runner = min(self._runners.values(), key=_Runner.load, default=None)
                if runner is None or runner.in_flight >= 2 * runner.threads:
                    return
                # a wave of many units goes out in batches: one round trip for several
                size = max(1, min(MAX_BATCH, len(self._waiting) // (2 * self.jobs)))
                batch: list[tuple[Future, Any, tuple, int]] = []
                while self._waiting and len(batch) < size:
                    item = self._waiting.popleft()
                    if start_future(item[0]):  # (not withdrawn before it was sent)
                        batch.append(item)
                if not batch:
                    continue
                self._send(runner, batch)

    def _send(self, runner: _Runner, batch: list) -> None:
        """Call ``runner`` with ``batch`` (the lock held). A runner whose worker is known to
        be lost refuses the call at once ("Worker holding Actor was lost"): its units wait
        again as a lost worker's do. Raised out of the pump, that error left the batch's
        units started and unanswered, and the run waited for ever (a lost scheduler with its
        workers, under load)."""
        call_id = next(self._ids)
        try:
            call = runner.actor.run(call_id, [(fn, args) for _, fn, args, _ in batch])
        except _GONE as exc:
            self._lost(runner, batch, exc)
            return
        runner.in_flight += 1
        self._calls[call_id] = (runner, batch)
        self._loop.add_callback(self._answer, call_id, call)  # thread-safe

    async def _answer(self, call_id: int, call: Any) -> None:
        """Hand a call's answers to the units' futures, on the client's event loop."""
        try:
            answers = await call
            error = None
        except _GONE as exc:  # its worker is gone, or the run closes
            answers, error = None, exc
        with self._lock:
            runner, batch = self._calls.pop(call_id)
            runner.in_flight -= 1
            if error is not None and not self._closed:
                self._lost(runner, batch, error)
                batch = []
            elif answers is None and not self._closed:  # taken back unstarted: first in line
                self._waiting.extendleft(reversed(batch))
                batch = []
        for (outer, _, _, _), (ok, value) in zip(batch, answers or ()):
            if outer.done():
                continue
            try:
                if ok:
                    outer.set_result(value)
                else:
                    outer.set_exception(value)
            except InvalidStateError:  # ended meanwhile by a close whose wait for it ran out
                pass
        if self._closed:
            for outer, _, _, _ in batch:
                cancel_future(outer)
            return
        with self._lock:
            if time.monotonic() - self._looked > WORKER_LOOK:
                self._find_workers()
        self._pump()
        await self._rebalance(runner)

    def _lost(self, runner: _Runner, batch: list, error: BaseException) -> None:
        """A runner's worker died: its units wait again, first in line (the lock held)."""
        if self._runners.get(runner.address) is runner:
            del self._runners[runner.address]
        for outer, fn, args, tries in reversed(batch):
            if self._gone is not None:
                _fail(outer, self._gone)
            elif tries <= 0:
                outer.set_exception(error)
            else:
                self._waiting.appendleft((outer, fn, args, tries - 1))
        self._find_workers()

    def _find_workers(self) -> None:
        """Look for workers without a runner (the lock held): a dead one's replacement, or
        one that joined the cluster after the run started."""
        if not self._replacing and not self._closed:
            self._replacing = True
            self._looked = time.monotonic()
            self._loop.add_callback(self._replace)

    async def _replace(self) -> None:
        """Start runners on the workers that have none (a nanny restarts a dead worker; a
        cluster may grow during a run)."""
        looks = 0
        try:
            while not self._closed:  # with no runner left, until a worker (re)appears
                looks += 1
                try:
                    info = await self.client.scheduler.identity(n_workers=-1)
                except _GONE:  # the scheduler is gone, or closing
                    if self.client.status in ("closing", "closed") and not self._closed:
                        self._scheduler_lost()  # the client gave up reconnecting: for good
                        return
                    await asyncio.sleep(0.1 if looks < 600 else 1.0)
                    continue
                missing = {a: w for a, w in info.get("workers", {}).items() if a not in self._runners}
                started = []
                for address, worker in missing.items():
                    future = self._runner_future(address, worker)
                    try:
                        started.append(_Runner(future, await future, address, _threads(worker)))
                    except _GONE:  # gone again meanwhile
                        pass
                self._add_runners(started)
                if self._runners:
                    break
                await asyncio.sleep(0.1 if looks < 600 else 1.0)
        finally:
            self._replacing = False
        self._pump()

    def _scheduler_lost(self) -> None:
        """The scheduler is gone and the client has given up reconnecting (its timeout, 5 s):
        no worker can be found again, so every unit waiting, and every unit sent from now on,
        fails with one error naming the scheduler. The run ends (exit 2, one line) rather
        than waiting for ever; its checkpoint keeps every unit finished before, and the same
        command run again with a new scheduler and workers goes on from there."""
        with self._lock:
            self._gone = SchedulerError(
                f"lost the Dask scheduler at {self.scheduler or 'the local cluster'}: the run cannot go "
                "on; a checkpoint keeps every finished unit: start a scheduler and workers and run "
                "the same command again to continue"
            )
            waiting, self._waiting = list(self._waiting), deque()
        for outer, _, _, _ in waiting:
            _fail(outer, self._gone)

    async def _rebalance(self, idle: _Runner) -> None:
        """A runner with room while another holds a unit it has not started: that unit is
        taken back (its call answers None) and sent again, to the runner with room; a unit
        sent ahead must not wait behind a long one while a worker idles."""
        with self._lock:
            if self._waiting or idle.in_flight >= idle.threads or self._closed:
                return
            busy = max(self._runners.values(), key=_Runner.load, default=None)
            if busy is None or busy.in_flight <= busy.threads:
                return
            self._taking_back += 1
        try:
            await busy.actor.take_back()
        except _GONE:  # its worker is gone: its calls fail anyway
            pass
        finally:
            with self._lock:
                self._taking_back -= 1

    def stop_run(self, run_id: str) -> None:
        """Units would run to their end: on a cluster that goes on after this run, and in
        the workers of its own, which cannot exit while a unit runs."""
        with self._lock:
            runners = list(self._runners.values())
        deadline = time.monotonic() + 1.0  # for all of them: a stop must stay quick
        for call in [r.actor.stop(run_id) for r in runners]:
            try:
                call.result(timeout=max(0.01, deadline - time.monotonic()))
            except Exception:  # a worker already gone has nothing to stop
                pass

    def close(self, kill: bool = False) -> None:
        try:
            with self._lock:
                self._closed = True  # nothing more is sent
                waiting, self._waiting = list(self._waiting), deque()
            for outer, _, _, _ in waiting:
                cancel_future(outer)
            # closing the client releases the actors: a call still on its way would then
            # reach a worker without its actor, which Dask logs as an error with a traceback
            self._drain(time.monotonic() + DRAIN)
            with self._lock:
                calls = [item for _, batch in self._calls.values() for item in batch]
            for outer, _, _, _ in calls:
                cancel_future(outer)
            self.client.close()
            with _quiet_dask(kill and self.cluster is not None):
                if kill:
                    self._kill_workers()
                if self.cluster is not None:
                    self.cluster.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()  # (at once if closed already)
            self._config.__exit__(None, None, None)

    def _kill_workers(self) -> None:
        """End the workers of this run's own cluster at once (a stop: their units are
        abandoned), rather than the second or two a graceful close takes."""
        if self.cluster is None:
            return  # a cluster given by address goes on after the run
        for nanny in list(self.cluster.workers.values()):
            pid = getattr(nanny, "pid", None)
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # already gone
                    pass

    def _drain(self, deadline: float) -> None:
        """Wait until no call is in flight, or until ``deadline``."""
        while time.monotonic() < deadline:
            with self._lock:
                if not self._calls and not self._taking_back:
                    return
            time.sleep(0.005)


def _fail(future: Future, error: BaseException) -> None:
    """End ``future`` with ``error``, unless it has ended meanwhile."""
    try:
        future.set_exception(error)
    except InvalidStateError:
        pass


@contextmanager
def _quiet_dask(quiet: bool) -> Iterator[None]:
    """Dask's own logs silenced for the block: the scheduler of a cluster whose workers a
    stop killed logs their closed connections, with tracebacks."""
    if not quiet:
        yield
        return
    names = ["distributed"] + [n for n in logging.Logger.manager.loggerDict if n.startswith("distributed.")]
    loggers = [logging.getLogger(n) for n in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


@dataclass
class _Runner:
    """The dispatcher's view of one worker's :class:`UnitRunner`."""

    future: Any  # the actor's Dask future: holding it keeps the actor alive
    actor: Any
    address: str
    threads: int
    in_flight: int = 0  # calls sent and not answered

    def load(self) -> float:
        return self.in_flight / self.threads


def _threads(info: dict) -> int:
    return max(1, int(info.get("nthreads", 1)))


class UnitRunner:
    """Runs units in a Dask worker, one actor per worker, on threads of its own (the compiled
    search releases the GIL); a call waiting for a thread can be taken back."""

    def __init__(self, threads: int, rules: str | None) -> None:
        if rules is not None:
            from mastermind.engines.exact.units import warm_worker

            warm_worker(rules)
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="mastermind-unit")
        self.queued: dict[int, Future] = {}

    async def run(self, call_id: int, calls: list) -> list[tuple[bool, object]] | None:
        """The answers of ``calls`` (see :func:`run_calls`), or None if taken back."""
        future = self.pool.submit(run_calls, calls)
        self.queued[call_id] = future
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            return None
        finally:
            self.queued.pop(call_id, None)

    async def take_back(self) -> int | None:
        """The id of the newest call not yet started, withdrawn; None if all have started."""
        for call_id, future in reversed(list(self.queued.items())):
            if future.cancel():
                return call_id
        return None

    async def stop(self, run_id: str) -> None:
        """Stop the units of run ``run_id`` running in this worker (the run's flag)."""
        from mastermind.engines.exact.units import run_flag

        run_flag(run_id)[0] = 1


def run_calls(calls: list) -> list[tuple[bool, object]]:
    """Run a batch of ``(fn, args)`` in a worker: ``(True, result)`` or ``(False, exception)``
    for each, so that one failing unit does not hide the others' answers."""
    out: list[tuple[bool, object]] = []
    for fn, args in calls:
        try:
            out.append((True, fn(*args)))
        except Exception as exc:  # handed back to the unit's own future
            out.append((False, exc))
    return out
