"""Where work units run: threads, processes (loky, joblib's engine) or a Dask cluster.

Every backend hands back :class:`concurrent.futures.Future` objects, so that the driver waits
on them the same way. Units are submitted one at a time as the search reaches them (a unit's
budget is the best cost known when it starts, and units come from results of earlier ones),
which is why this module uses each engine's futures API (``ThreadPoolExecutor``, loky's
``get_reusable_executor`` as joblib uses it, ``distributed.Client.submit``) rather than
``joblib.Parallel``, which takes a fixed list of calls; ``joblib.Parallel`` runs the
fixed list of first guesses of ``solve_by_first_guess``.

* threads: the compiled search releases the GIL, so threads run in parallel and share the
  score table; a stop flag reaches them at once.
* processes: loky workers rebuild the score table once each; stopping kills them; a worker
  that dies has its units run again.
* dask: a ``LocalCluster`` of ``jobs`` worker processes, or the cluster behind
  ``scheduler``; Dask itself runs again the tasks of a worker that dies.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from mastermind.core.errors import MastermindError

BACKENDS = ("threads", "processes", "dask")
RETRIES = 3
WORKER_WAIT = 10  # seconds a scheduler given by address has to show a worker
MAX_BATCH = 4  # units per Dask task when many wait (a round trip costs about 10 ms here)


def worker_count(jobs: int | None) -> int:
    """Workers for ``jobs`` (joblib's convention: -1 or 0 is every core, -2 all but one)."""
    cores = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return cores
    return max(1, jobs if jobs > 0 else cores + 1 + jobs)


def check_backend(name: str) -> str:
    if name not in BACKENDS:
        raise MastermindError(f"unknown backend {name!r}: choose one of {', '.join(BACKENDS)}")
    return name


SCHEDULER_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def check_scheduler(address: str, backend: str = "dask") -> str:
    """A Dask scheduler address, refused before any work unless it has the form
    ``[PROTOCOL://]HOST:PORT`` (whether it answers is known only when connecting).

    >>> check_scheduler("tcp://10.0.0.5:8786"), check_scheduler("localhost:8786")
    ('tcp://10.0.0.5:8786', 'localhost:8786')
    >>> check_scheduler("garbage")
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: --scheduler must be an address such as ...
    """
    if backend != "dask":
        raise MastermindError("--scheduler needs --backend dask")
    protocol, _, rest = address.rpartition("://")
    host, colon, port = rest.rpartition(":")
    well_formed = (
        address.isprintable()
        and not any(c.isspace() for c in address)
        and (protocol == "" or protocol in SCHEDULER_PROTOCOLS)
        and (
            protocol == "inproc"  # an in-process address names no port
            or (bool(colon) and host != "" and port.isascii() and port.isdigit() and 0 < int(port) < 65536)
        )
    )
    if not well_formed:
        raise MastermindError(f"--scheduler must be an address such as tcp://10.0.0.5:8786, got {address!r}")
    return address


class Backend:
    """A pool of workers for units; ``shares_memory``: units see this process's objects."""

    name = ""
    shares_memory = False

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    @property
    def slots(self) -> int:
        """Units the driver keeps in flight where it hands out guesses one by one: one per
        worker, so that each starts with the best cost known when a worker frees up."""
        return self.jobs

    def submit(self, fn, *args) -> Future:  # pragma: no cover - abstract
        raise NotImplementedError

    def warm(self, rules_text: str) -> None:
        """Have every worker load the kernels and build the table of ``rules_text`` (threads
        share this process's, so there is nothing to do)."""

    def close(self, kill: bool = False) -> None:
        pass


class ThreadBackend(Backend):
    name = "threads"
    shares_memory = True

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="mastermind-unit")

    def submit(self, fn, *args) -> Future:
        return self.pool.submit(fn, *args)

    def close(self, kill: bool = False) -> None:
        # running units have been told to stop (their flag) and return within milliseconds
        self.pool.shutdown(wait=True, cancel_futures=True)


class ProcessBackend(Backend):
    """loky's reusable executor (joblib's process engine); a unit whose worker died is
    submitted again, up to three times."""

    name = "processes"

    def __init__(self, jobs: int) -> None:
        super().__init__(jobs)
        self._executor()

    def _executor(self):
        from joblib.externals.loky import get_reusable_executor

        return get_reusable_executor(max_workers=self.jobs, timeout=60)

    def submit(self, fn, *args) -> Future:
        outer: Future = Future()
        self._attempt(outer, fn, args, RETRIES)
        return outer

    def warm(self, rules_text: str) -> None:
        from mastermind.engines.exact.units import warm_worker

        # loky starts every worker at once and warming takes a second or more, so each worker
        # takes one of these while the others are busy
        for future in [self._executor().submit(warm_worker, rules_text) for _ in range(self.jobs)]:
            future.result()

    def _attempt(self, outer: Future, fn, args, left: int) -> None:
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
                outer.cancel()
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


class DaskBackend(Backend):
    """Units as Dask tasks on a LocalCluster of ``jobs`` processes or on ``scheduler``."""

    name = "dask"

    def __init__(self, jobs: int, scheduler: str | None = None) -> None:
        super().__init__(jobs)
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise MastermindError(
                "--backend dask needs Dask: pip install 'mastermind-strategies[cluster]'"
            ) from exc
        self.cluster = None
        self.scheduler = scheduler
        import dask

        # units are handed out as workers free up, so there is nothing to steal; the worker's
        # sampling profiler (every 10 ms) slows short units. Workers of a LocalCluster get this
        # configuration from their nanny; a cluster started apart keeps its own.
        # Dask's nanny sets MALLOC_TRIM_THRESHOLD_=65536 in its workers, which also fixes
        # glibc's mmap threshold at 128 KiB: every larger scratch array of the search then
        # comes fresh from the kernel, page faults included (p4c8: 46 s instead of 42 s)
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
                )
                self.client = Client(self.cluster)
            else:
                self.client = Client(scheduler, timeout="5s")
        except (OSError, ValueError, TypeError) as exc:  # unreachable, or not an address at all
            if self.cluster is not None:
                self.cluster.close()
            self._config.__exit__(None, None, None)
            where = scheduler if scheduler is not None else "a local cluster"
            raise MastermindError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
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
            workers = self.client.scheduler_info().get("workers", {})
            self.jobs = max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))
        self._futures: set = set()
        self._loop: Any = self.client.loop  # the client's event loop (tornado), where answers are fetched
        # units wait here, not on the scheduler, which would assign every waiting task to a
        # worker ahead of time: a long unit then holds up the ones queued behind it while
        # another worker idles. Two per worker thread in flight: one running, one ready to
        # start (a round trip to the scheduler takes about 10 ms here)
        self._waiting: deque = deque()
        self._in_flight = 0
        self._lock = threading.Lock()

    @property
    def slots(self) -> int:
        """Two per worker: one running, one waiting on its worker, so that a worker that
        finishes a unit does not sit idle for the round trip to the driver (about 10 ms);
        the waiting unit's budget may be a little less tight."""
        return 2 * self.jobs

    def submit(self, fn, *args) -> Future:
        outer: Future = Future()
        with self._lock:
            self._waiting.append((outer, fn, args))
        self._pump()
        return outer

    def _pump(self) -> None:
        while True:
            with self._lock:
                if self._in_flight >= 2 * self.jobs or not self._waiting:
                    return
                # a wave of many units goes out in batches: one round trip for several
                size = max(1, min(MAX_BATCH, len(self._waiting) // (2 * self.jobs)))
                batch: list[tuple[Future, Any, tuple]] = []
                while self._waiting and len(batch) < size:
                    outer, fn, args = self._waiting.popleft()
                    if not outer.cancelled():
                        batch.append((outer, fn, args))
                if not batch:
                    continue
                self._in_flight += 1
            task = self.client.submit(run_calls, [(fn, args) for _, fn, args in batch], pure=False)
            self._futures.add(task)
            outers = [outer for outer, _, _ in batch]
            self._loop.add_callback(self._fetch, task, outers)  # thread-safe; runs the coroutine

    async def _fetch(self, task, outers: list[Future]) -> None:
        """Wait for a task and fetch its answers on the client's event loop, as Dask's own
        ``as_completed`` does: each task's answers arrive as soon as they are ready, instead
        of one task after another through the single thread that runs ``add_done_callback``
        callbacks (about 11 ms a task there, 9 ms here)."""
        try:
            answers = await task._result()
        except BaseException as exc:  # cancelled, or failed as a whole (its worker died thrice)
            answers = None if task.status == "cancelled" else [(False, exc)] * len(outers)
        self._futures.discard(task)
        with self._lock:
            self._in_flight -= 1
        for i, outer in enumerate(outers):
            if outer.done():
                continue
            if answers is None:
                outer.cancel()
                continue
            ok, value = answers[i]
            if ok:
                outer.set_result(value)
            else:
                outer.set_exception(value)
        self._pump()

    def warm(self, rules_text: str) -> None:
        from mastermind.engines.exact.units import warm_worker

        workers = list(self.client.scheduler_info().get("workers", {}))
        tasks = [
            self.client.submit(warm_worker, rules_text, workers=[w], allow_other_workers=False, pure=False)
            for w in workers
        ]
        self.client.gather(tasks)

    def close(self, kill: bool = False) -> None:
        try:
            with self._lock:
                waiting, self._waiting = list(self._waiting), deque()
            for outer, _, _ in waiting:
                outer.cancel()
            if self._futures:
                self.client.cancel(list(self._futures))
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
            self._config.__exit__(None, None, None)


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


def make_backend(name: str, jobs: int, scheduler: str | None = None) -> Backend:
    """The backend ``name`` with ``jobs`` workers (``scheduler``: an existing Dask cluster)."""
    check_backend(name)
    if scheduler is not None:
        check_scheduler(scheduler, name)
    if name == "threads":
        return ThreadBackend(jobs)
    if name == "processes":
        return ProcessBackend(jobs)
    return DaskBackend(jobs, scheduler)
