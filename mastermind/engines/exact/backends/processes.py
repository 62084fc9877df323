"""Work units in processes: loky's reusable executor (joblib's process engine)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from mastermind.engines.exact.backends.base import RETRIES, Backend, cancel_future, start_future
from mastermind.engines.exact.backends.worker_setup import ignore_interrupts


class ProcessBackend(Backend):
    """loky's reusable executor (joblib's process engine); a unit whose worker died is
    submitted again, up to three times.

    Units wait here, and loky holds at most two per worker, which its queue of calls always
    takes at once: loky's manager thread fails (a KeyError traceback) when a stop kills the
    workers while ids of units are still queued for that queue.
    """

    name = "processes"

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self._lock = threading.Lock()
        self._waiting: deque = deque()  # (future, fn, args, tries left)
        self._in_loky = 0  # units handed to loky and not finished
        self._closed = False
        self._executor()

    def _executor(self) -> Any:
        from joblib.externals.loky import get_reusable_executor

        return get_reusable_executor(max_workers=self.jobs, timeout=60, initializer=ignore_interrupts)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        outer: Future = Future()
        with self._lock:
            self._waiting.append((outer, fn, args, RETRIES))
        self._pump()
        return outer

    def _pump(self) -> None:
        """Hand waiting units to loky while it holds fewer than two per worker (any thread)."""
        while True:
            with self._lock:
                if self._closed or not self._waiting or self._in_loky >= 2 * self.jobs:
                    return
                outer, fn, args, left = self._waiting.popleft()
                if not start_future(outer):  # withdrawn before it was sent
                    continue
                self._in_loky += 1
            self._attempt(outer, fn, args, left)

    def warm(self, rules_text: str) -> None:
        from mastermind.engines.exact.units import warm_worker

        # loky starts every worker at once and warming takes a second or more, so each worker
        # takes one of these while the others are busy
        for future in [self._executor().submit(warm_worker, rules_text) for _ in range(self.jobs)]:
            future.result()

    def _attempt(self, outer: Future, fn: Callable[..., Any], args: tuple, left: int) -> None:
        """Run one unit in loky (counted in ``_in_loky`` until its future is settled)."""
        from joblib.externals.loky.process_executor import (
            BrokenProcessPool,
            ShutdownExecutorError,
        )

        try:
            inner = self._executor().submit(fn, *args)
        except (BrokenProcessPool, ShutdownExecutorError, RuntimeError) as exc:
            self._settle(outer, exc=exc)
            return

        def done(f: Future) -> None:
            if outer.done():
                self._settle(outer)
            elif f.cancelled():
                self._settle(outer, cancel=True)
            elif f.exception() is None:
                self._settle(outer, value=f.result())
            elif self._closed:  # killed by a stop: not run again
                self._settle(outer, cancel=True)
            elif isinstance(f.exception(), BrokenProcessPool) and left > 0 and not outer.cancelled():
                # its worker died: run it again, from another thread (this callback runs in
                # the broken executor's own thread, which a new executor must first join)
                threading.Thread(target=self._attempt, args=(outer, fn, args, left - 1), daemon=True).start()
            else:
                self._settle(outer, exc=f.exception())

        inner.add_done_callback(done)

    def _settle(
        self, outer: Future, value: Any = None, exc: BaseException | None = None, cancel: bool = False
    ) -> None:
        """A unit has left loky: hand its outcome on, then the next units to loky."""
        with self._lock:
            self._in_loky -= 1
        if not outer.done():
            if cancel:
                cancel_future(outer)
            elif exc is not None:
                outer.set_exception(exc)
            else:
                outer.set_result(value)
        self._pump()

    def close(self, kill: bool = False) -> None:
        with self._lock:
            self._closed = True
            waiting, self._waiting = list(self._waiting), deque()
        for outer, _, _, _ in waiting:
            cancel_future(outer)
        if kill:
            executor = self._executor()
            _wait_until_queued(executor)
            executor.shutdown(wait=True, kill_workers=True)


QUEUE_WAIT = 0.2  # seconds at most for loky's manager thread to take the units just sent


def _wait_until_queued(executor: Any) -> None:
    """Wait until loky's manager thread has taken every unit sent into its queue of calls:
    a kill that finds the id of a unit not yet taken fails in that thread (a KeyError
    traceback; loky 3.4/3.5). With at most two units per worker the thread takes them as
    soon as it wakes, a few milliseconds after they are sent."""
    ids = getattr(executor, "_work_ids", None)  # (private: loky has no public view of it)
    end = time.monotonic() + QUEUE_WAIT
    while ids is not None and not ids.empty() and time.monotonic() < end:
        time.sleep(0.002)
