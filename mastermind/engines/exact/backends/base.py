"""What every backend is: a pool of workers for work units, handing back futures."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, InvalidStateError
from typing import Any

RETRIES = 3  # a unit whose worker died is run again this many times


def worker_count(jobs: int | None) -> int:
    """Workers for ``jobs`` (joblib's convention: -1 or 0 is every core, -2 all but one)."""
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    return max(1, jobs if jobs > 0 else cores + 1 + jobs)


class Backend:
    """A pool of workers for units; ``shares_memory``: units see this process's objects."""

    name = ""
    shares_memory = False

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    @property
    def slots(self) -> int:
        """Units the dispatcher keeps in flight where guesses are handed out one by one: one
        per worker, so that each starts with the best cost known when a worker frees up."""
        return self.jobs

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:  # pragma: no cover - abstract
        raise NotImplementedError

    def warm(self, rules_text: str) -> None:
        """Have every worker load the kernels and build the table of ``rules_text`` (threads
        share this process's, so there is nothing to do)."""

    def stop_run(self, run_id: str) -> None:
        """Stop the units of run ``run_id`` now running in other processes (threads see the
        run's flag; the processes backend is killed instead)."""

    def close(self, kill: bool = False) -> None:
        pass


_cancelling = threading.Lock()


def cancel_future(future: Future) -> None:
    """End a future no executor runs and whose unit will not answer, waking
    ``concurrent.futures.wait`` on it: cancelled if its unit has not started (otherwise
    ``wait`` would see it only at its timeout), failed with ``CancelledError`` if it has.

    The backends' own futures keep an executor's protocol: ``set_running_or_notify_cancel``
    when their unit is sent, so that ``cancel()`` withdraws only units not yet sent, as for
    a thread pool (a sent unit's answer is its partial result after a stop).
    """
    with _cancelling:  # once: reporting a cancellation twice is an error
        if getattr(future, "_state", None) == "CANCELLED":  # cancel() called, no one woken yet
            future.set_running_or_notify_cancel()
            return
        if future.done():
            return
        if future.cancel():
            future.set_running_or_notify_cancel()
            return
        try:
            future.set_exception(CancelledError())
        except InvalidStateError:  # its answer came meanwhile
            pass


def start_future(future: Future) -> bool:
    """Mark ``future`` running as its unit is sent (again, after a lost worker: it already
    is); False, with its waiters woken, if it was cancelled meanwhile."""
    return future.running() or future.set_running_or_notify_cancel()
