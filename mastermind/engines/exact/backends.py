"""Where work units run: threads, processes (loky, joblib's engine) or a Dask cluster.

Every backend hands back :class:`concurrent.futures.Future` objects, so that the driver waits
on them the same way. Units are submitted one at a time as the search reaches them (a unit's
budget is the best cost known when it starts, and units come from results of earlier ones),
which is why this module uses each engine's futures API (``ThreadPoolExecutor``, loky's
``get_reusable_executor`` as joblib uses it, Dask actors) rather than
``joblib.Parallel``, which takes a fixed list of calls; ``joblib.Parallel`` runs the
fixed list of first guesses of ``solve_by_first_guess``.

* threads: the compiled search releases the GIL, so threads run in parallel and share the
  score table; a stop flag reaches them at once.
* processes: loky workers rebuild the score table once each; stopping kills them; a worker
  that dies has its units run again.
* dask (:mod:`.cluster`): a ``LocalCluster`` of ``jobs`` worker processes, or the cluster
  behind ``scheduler``, one actor per worker running the units; the units of a worker that
  dies are run again by the others.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from mastermind.core.errors import MastermindError

BACKENDS = ("threads", "processes", "dask")
RETRIES = 3


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

    def stop_run(self, run_id: str) -> None:
        """Stop the units of run ``run_id`` now running in other processes (threads see the
        run's flag; the processes backend is killed instead)."""

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


_cancelling = threading.Lock()


def cancel_future(future: Future) -> None:
    """Cancel a future no executor runs, waking ``concurrent.futures.wait`` on it (which
    otherwise sees a cancelled future only when an executor reports it, or at its timeout)."""
    with _cancelling:  # once: reporting a cancellation twice is an error
        if not future.done() and future.cancel():
            future.set_running_or_notify_cancel()


def make_backend(name: str, jobs: int, scheduler: str | None = None) -> Backend:
    """The backend ``name`` with ``jobs`` workers (``scheduler``: an existing Dask cluster)."""
    check_backend(name)
    if scheduler is not None:
        check_scheduler(scheduler, name)
    if name == "threads":
        return ThreadBackend(jobs)
    if name == "processes":
        return ProcessBackend(jobs)
    from mastermind.engines.exact.cluster import DaskBackend

    return DaskBackend(jobs, scheduler)
