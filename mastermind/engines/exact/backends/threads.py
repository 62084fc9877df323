"""Work units on threads of this process: the compiled search releases the GIL."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from mastermind.engines.exact.backends.base import Backend, cancel_future


class ThreadBackend(Backend):
    name = "threads"
    shares_memory = True

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="mastermind-unit")
        self._futures: weakref.WeakSet[Future] = weakref.WeakSet()  # those the caller still holds

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        future = self.pool.submit(fn, *args)
        self._futures.add(future)
        return future

    def close(self, kill: bool = False) -> None:
        # running units have been told to stop (their flag) and return within milliseconds
        self.pool.shutdown(wait=True, cancel_futures=True)
        # the pool drops the units it had not started without waking their waiters (those
        # cancelled before the shutdown too): ``wait`` would see them only at its timeout
        for future in list(self._futures):
            cancel_future(future)
