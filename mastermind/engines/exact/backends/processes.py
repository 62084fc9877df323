"""Work units in processes: loky's reusable executor (joblib's process engine)."""

from __future__ import annotations

import functools
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from typing import Any

from mastermind.engines.exact.backends.base import RETRIES, Backend, cancel_future, start_future
from mastermind.engines.exact.backends.worker_setup import ignore_interrupts

QUEUE_WAIT = 0.2  # seconds at most for loky's manager thread to take the units just sent


class ProcessBackend(Backend):
    """loky's reusable executor (joblib's process engine); a unit whose worker died is
    submitted again, up to three times.

    Units wait here, and loky holds at most two per worker, which its queue of calls always
    takes at once: loky's manager thread fails (a KeyError traceback) when a stop kills the
    workers while ids of units are still queued for that queue.

    The executor is taken once, and again only by the thread that runs a lost unit again
    (its pool broken): loky's callbacks run in its manager thread, where asking loky for its
    executor would join that very thread (a broken pool) or wait for a shutdown that waits
    for it (a stop).
    """

    name = "processes"

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self._lock = threading.Lock()
        self._waiting: deque = deque()  # (future, fn, args, tries left)
        self._in_loky = 0  # units handed to loky and not finished
        self._sending = 0  # units between the lock and loky's submit
        self._closed = False
        self._killed = False
        self._renewing = False  # a thread is replacing the broken pool
        self._pool = self._executor()

    def _executor(self) -> Any:
        from joblib.externals.loky import get_reusable_executor

        return get_reusable_executor(max_workers=self.jobs, timeout=60, initializer=ignore_interrupts)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        outer: Future = Future()
        with self._lock:
            self._waiting.append((outer, fn, args, RETRIES))
        self._pump()
        return outer

    def warm(self, rules_text: str) -> None:
        from mastermind.engines.exact.units import warm_worker

        # loky starts every worker at once and warming takes a second or more, so each worker
        # takes one of these while the others are busy
        for future in [self._pool.submit(warm_worker, rules_text) for _ in range(self.jobs)]:
            future.result()

    def _pump(self) -> None:
        """Hand waiting units to loky while it holds fewer than two per worker (any thread;
        a loop, not a recursion, through units that fail to be sent)."""
        while True:
            with self._lock:
                if self._closed or self._renewing or not self._waiting or self._in_loky >= 2 * self.jobs:
                    return
                item = self._waiting.popleft()
                if not start_future(item[0]):  # withdrawn before it was sent
                    continue
                self._in_loky += 1
                self._sending += 1
                pool = self._pool
            self._send(pool, item)

    def _send(self, pool: Any, item: tuple) -> None:
        """Submit one unit to ``pool`` (counted in ``_sending`` until then)."""
        from joblib.externals.loky.process_executor import BrokenProcessPool, ShutdownExecutorError

        outer, fn, args, left = item
        try:
            inner = pool.submit(fn, *args)
        except (BrokenProcessPool, ShutdownExecutorError, RuntimeError) as exc:
            with self._lock:
                self._sending -= 1
            self._lost(pool, item, exc)
            return
        with self._lock:
            self._sending -= 1
        inner.add_done_callback(functools.partial(self._done, pool, item))

    def _done(self, pool: Any, item: tuple, inner: Future) -> None:
        """A unit has left loky (in loky's manager thread)."""
        from joblib.externals.loky.process_executor import BrokenProcessPool

        outer = item[0]
        error = None if inner.cancelled() else inner.exception()
        if inner.cancelled() or self._closed:  # (killed by a stop: not run again)
            self._finish(outer, cancel=True)
        elif error is None:
            self._finish(outer, value=inner.result())
        elif isinstance(error, BrokenProcessPool):
            self._lost(pool, item, error)
        else:
            self._finish(outer, exc=error)
        self._pump()

    def _lost(self, pool: Any, item: tuple, error: BaseException) -> None:
        """A unit whose pool broke (its worker died, or another unit's): first in line again,
        with one try less, once a new pool is there; its error when it has no try left.
        (The caller sends the next units: a loop, not a recursion.)"""
        from joblib.externals.loky.process_executor import BrokenProcessPool

        outer, fn, args, left = item
        if self._closed or left <= 0 or not isinstance(error, BrokenProcessPool) or outer.done():
            self._finish(outer, exc=CancelledError() if self._closed else error)
            return
        with self._lock:
            self._in_loky -= 1
            self._waiting.appendleft((outer, fn, args, left - 1))
            renew = pool is self._pool and not self._renewing
            if renew:
                self._renewing = True
        if renew:  # (not in loky's manager thread: see the class)
            threading.Thread(target=self._renew, daemon=True, name="mastermind-loky-renew").start()

    def _renew(self) -> None:
        """A new pool for the broken one, then the waiting units sent to it."""
        pool = None if self._closed else self._executor()
        with self._lock:
            if pool is not None and not self._closed:
                self._pool = pool
            self._renewing = False
        self._pump()

    def _finish(
        self, outer: Future, value: Any = None, exc: BaseException | None = None, cancel: bool = False
    ) -> None:
        """A unit has left loky for good: its outcome handed on."""
        with self._lock:
            self._in_loky -= 1
        if cancel or isinstance(exc, CancelledError):
            cancel_future(outer)
        elif not outer.done():
            try:
                if exc is not None:
                    outer.set_exception(exc)
                else:
                    outer.set_result(value)
            except Exception:  # (ended meanwhile by a close)
                pass

    def close(self, kill: bool = False) -> None:
        with self._lock:
            self._closed = True
            waiting, self._waiting = list(self._waiting), deque()
        for outer, _, _, _ in waiting:
            cancel_future(outer)
        if kill and not self._killed:
            self._killed = True
            _wait_until(lambda: self._sending == 0)  # a submit under way: its id in the queue
            ids = getattr(self._pool, "_work_ids", None)  # (private: loky has no public view)
            _wait_until(lambda: ids is None or ids.empty())
            self._pool.shutdown(wait=True, kill_workers=True)


def _wait_until(done: Callable[[], bool]) -> None:
    """Wait until ``done()``, for at most :data:`QUEUE_WAIT` seconds.

    What for: a kill that finds the id of a unit loky's manager thread has not yet taken
    into its queue of calls fails in that thread (a KeyError traceback; loky 3.4/3.5). With
    at most two units per worker the thread takes them as soon as it wakes, a few
    milliseconds after they are sent."""
    end = time.monotonic() + QUEUE_WAIT
    while not done() and time.monotonic() < end:
        time.sleep(0.002)
