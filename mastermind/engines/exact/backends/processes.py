"""Work units in processes: loky's reusable executor (joblib's process engine)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from mastermind.engines.exact.backends.base import RETRIES, Backend, cancel_future


class ProcessBackend(Backend):
    """loky's reusable executor (joblib's process engine); a unit whose worker died is
    submitted again, up to three times."""

    name = "processes"

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self._executor()

    def _executor(self) -> Any:
        from joblib.externals.loky import get_reusable_executor

        return get_reusable_executor(max_workers=self.jobs, timeout=60)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        outer: Future = Future()
        self._attempt(outer, fn, args, RETRIES)
        return outer

    def warm(self, rules_text: str) -> None:
        from mastermind.engines.exact.units import warm_worker

        # loky starts every worker at once and warming takes a second or more, so each worker
        # takes one of these while the others are busy
        for future in [self._executor().submit(warm_worker, rules_text) for _ in range(self.jobs)]:
            future.result()

    def _attempt(self, outer: Future, fn: Callable[..., Any], args: tuple, left: int) -> None:
        from joblib.externals.loky.process_executor import (
            BrokenProcessPool,
            ShutdownExecutorError,
        )

        try:
            inner = self._executor().submit(fn, *args)
        except (BrokenProcessPool, ShutdownExecutorError, RuntimeError) as exc:
            outer.set_exception(exc)
            return

        def done(f: Future) -> None:
            if outer.done():
                return
            if f.cancelled():
                cancel_future(outer)
                return
            exc = f.exception()
            if exc is None:
                outer.set_result(f.result())
            elif isinstance(exc, BrokenProcessPool) and left > 0 and not outer.cancelled():
                # its worker died: run it again, from another thread (this callback runs in
                # the broken executor's own thread, which a new executor must first join)
                threading.Thread(target=self._attempt, args=(outer, fn, args, left - 1), daemon=True).start()
            else:
                outer.set_exception(exc)

        inner.add_done_callback(done)

    def close(self, kill: bool = False) -> None:
        if kill:
            self._executor().shutdown(wait=True, kill_workers=True)
