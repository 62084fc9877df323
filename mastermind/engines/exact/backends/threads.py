"""Work units on threads of this process: the compiled search releases the GIL."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from mastermind.engines.exact.backends.base import Backend


class ThreadBackend(Backend):
    name = "threads"
    shares_memory = True

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="mastermind-unit")

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self.pool.submit(fn, *args)

    def close(self, kill: bool = False) -> None:
        # running units have been told to stop (their flag) and return within milliseconds
        self.pool.shutdown(wait=True, cancel_futures=True)
