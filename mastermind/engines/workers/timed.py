"""Run functions in a child process with a wall-time limit, for solvers that cannot stop themselves.

The child is started with "spawn" (forking after numba's OpenMP threads started is unsafe) and
kept for the next job, so imports and cached kernels load once; a job past its time limit has
its child terminated, and the next job starts a fresh one.

A job that can stop itself and report (a checkpointed search) is submitted with a cancel
token: when the token is cancelled (Ctrl-C), the child's job is asked to stop, through a
token of its own, and given :data:`STOP_WAIT` seconds to answer with what it proved (and to
keep its checkpoint) before the child is ended.

>>> from mastermind.engines.workers.timed import TimedWorker
>>> with TimedWorker() as worker:
...     worker.run(pow, (2, 10), time_limit=60), worker.run(max, (3, 4), time_limit=60)
(1024, 4)
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import wait as wait_for_any
from typing import TYPE_CHECKING, Any

from mastermind.core.errors import MastermindError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from multiprocessing.synchronize import Event

    from mastermind.core.cancel import CancelToken

FOREVER = 2.0e6  # seconds: "no time limit" to a wait (the system's waits take at most 2**31 ms)
STARTUP_LIMIT = 120.0
PARENT_POLL = 0.5  # seconds between a worker's looks at whether its parent is still there
STOP_WAIT = 1.0  # seconds a job asked to stop has to answer (a 5x8 search: about half a second)
CANCEL_POLL = 0.05  # seconds between the parent's looks at a job's cancel token


@contextmanager
def _ctrl_c_ignored_by_new_processes() -> Iterator[None]:
    """Ctrl-C ignored while a child process starts: an ignored signal stays ignored in the
    new program (handled ones are reset), so a Ctrl-C while the child is still importing
    does not make it print a traceback of its own. The parent misses a Ctrl-C only in the
    milliseconds the start takes."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers (and only it runs Python's)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _exit_with(parent: int) -> None:
    """End this process when its parent is gone (a parent that exits without closing its
    workers, as after Ctrl-C, would otherwise leave this one computing for nobody)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)


def _relay_stop(stop: Event, token: CancelToken, done: threading.Event) -> None:
    """Cancel ``token`` when the parent sets ``stop``, until the job is ``done``."""
    while not done.is_set():
        if stop.wait(CANCEL_POLL):
            token.cancel()
            return


def _call(fn: Callable, args: tuple, stop: Event | None) -> Any:
    """``fn(*args)``; with ``stop``, ``fn(*args, cancel=token)``, the token cancelled when the
    parent asks the job to stop."""
    if stop is None:
        return fn(*args)
    from mastermind.core.cancel import CancelToken

    token, done = CancelToken(), threading.Event()
    relay = threading.Thread(target=_relay_stop, args=(stop, token, done), daemon=True)
    relay.start()
    try:
        return fn(*args, cancel=token)
    finally:
        done.set()
        relay.join()


def _serve(conn: Any, parent: int, stop: Event) -> None:
    # Ctrl-C reaches the whole process group; the parent decides, and ends this process
    # (otherwise the child prints its own traceback beside the parent's one-line report),
    # or asks a job that can stop to stop (``stop``)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    conn.send(("ready", None, 0.0))
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        fn, args, stoppable = job
        start = time.monotonic()
        try:
            value = _call(fn, args, stop if stoppable else None)
            conn.send(("ok", value, time.monotonic() - start))
        except MastermindError as exc:
            conn.send(("error", str(exc), 0.0))
        except BaseException:  # reported to the parent as one line
            conn.send(("crash", traceback.format_exc().strip().splitlines()[-1], 0.0))


class TimedWorker:
    """One child process that runs jobs one at a time, each with its own time limit."""

    def __init__(self) -> None:
        self._ctx = mp.get_context("spawn")
        self._proc: BaseProcess | None = None
        self._conn: Connection | None = None
        # the job under way: its function, deadline, time limit and cancel token (see submit)
        self._pending: tuple[Callable, float, float, CancelToken | None] | None = None
        self._stop: Event | None = None

    def _start(self) -> None:
        parent, child = self._ctx.Pipe(duplex=True)
        self._stop = self._ctx.Event()
        self._proc = self._ctx.Process(target=_serve, args=(child, os.getpid(), self._stop), daemon=True)
        with _ctrl_c_ignored_by_new_processes():
            self._proc.start()
        child.close()
        self._conn = parent
        # wait until the child has started (imports done), so time limits count solver time only;
        # a child that dies while starting is told at once, not after the whole limit
        try:
            waited = wait_for_any([parent, self._proc.sentinel], STARTUP_LIMIT)
        except BaseException:  # Ctrl-C while it starts: ended before its stop event is freed
            self.close(kill=True)
            raise
        try:
            ready = parent in waited and parent.recv()[0] == "ready"
        except EOFError:
            ready = False
        if not ready:
            code = None
            if waited:  # it ended (or closed its end): its exit code, once the system has it
                self._proc.join(1)
                code = self._proc.exitcode
            self.close(kill=True)
            if code is not None:
                raise MastermindError(f"the solver process ended as it started (exit code {code})")
            raise MastermindError(f"the solver process did not start within {STARTUP_LIMIT} s")

    def run(
        self, fn: Callable, args: tuple, time_limit: float, *, cancel: CancelToken | None = None
    ) -> Any | None:
        """``fn(*args)`` from the child, or ``None`` if it took more than ``time_limit`` seconds.

        A :class:`MastermindError` in the child is raised again here; any other failure
        becomes a MastermindError naming it. With ``cancel``, see :meth:`submit`.
        """
        self.submit(fn, args, time_limit, cancel=cancel)
        return self.result()

    def submit(
        self, fn: Callable, args: tuple, time_limit: float, *, cancel: CancelToken | None = None
    ) -> None:
        """Start ``fn(*args)`` in the child and return at once; :meth:`result` collects it.

        The time limit counts from now, so the parent can work meanwhile. With ``cancel``, the
        job is called as ``fn(*args, cancel=token)``, a token of the child's that is cancelled
        once ``cancel`` is: :meth:`result` then waits up to :data:`STOP_WAIT` seconds for
        what the job returns when stopped (mark ``cancel`` as running work, so that Ctrl-C
        cancels it rather than interrupting the wait).
        """
        if not time_limit > 0:
            raise MastermindError(f"time limit must be positive seconds, got {time_limit}")
        if self._pending is not None:
            raise RuntimeError("one job at a time: collect the result first")
        if self._proc is None or not self._proc.is_alive():
            self._start()
        assert self._conn is not None and self._stop is not None
        self._stop.clear()
        self._conn.send((fn, args, cancel is not None))
        self._pending = (fn, time.monotonic() + time_limit, time_limit, cancel)

    def result(self) -> Any | None:
        """The submitted job's value, or ``None`` when its time limit passed first.

        A job that finished while the parent was busy still counts as late if it ran
        longer than its limit, so results do not depend on how long the parent worked; a
        job stopped through its cancel token answers with what it returned when stopped.
        """
        if self._pending is None:
            raise RuntimeError("no job submitted")
        fn, deadline, time_limit, cancel = self._pending
        self._pending = None
        assert self._conn is not None
        try:
            done, stopped = self._wait(deadline, cancel)
        except BaseException:  # Ctrl-C while waiting: the job is abandoned, end its child now
            self.close(kill=True)
            raise
        if not done:
            self.close(kill=True)
            return None
        try:
            kind, value, elapsed = self._conn.recv()
        except EOFError:
            code = self._proc.exitcode if self._proc is not None else None
            self.close(kill=True)
            raise MastermindError(
                f"{getattr(fn, '__name__', 'job')} stopped without an answer "
                f"(exit code {code}); out of memory?"
            ) from None
        if kind == "ok":
            return value if elapsed <= time_limit or stopped else None
        if kind == "error":
            raise MastermindError(value)
        raise MastermindError(f"{getattr(fn, '__name__', 'job')} failed: {value}")

    def _wait(self, deadline: float, cancel: CancelToken | None) -> tuple[bool, bool]:
        """Whether the job answered before ``deadline``, and whether it was asked to stop
        (``cancel`` cancelled: it then has :data:`STOP_WAIT` seconds, whatever the deadline)."""
        assert self._conn is not None and self._stop is not None
        if cancel is None:
            return self._conn.poll(max(0.0, deadline - time.monotonic())), False
        while True:
            left = deadline - time.monotonic()
            if cancel.cancelled:
                if self._conn.poll(0):  # (answered before the stop: as any answer)
                    return True, False
                break
            if left <= 0:
                return self._conn.poll(0), False
            if self._conn.poll(min(left, CANCEL_POLL)):
                return True, False
        self._stop.set()
        cancel.wind_down()  # (the caller's Ctrl-C waits for the job's report)
        return self._conn.poll(STOP_WAIT), True

    def close(self, kill: bool = False) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if self._pending is not None:  # a job still running: do not wait for it
            kill = True
            self._pending = None
        if proc is None or conn is None:
            return
        if not kill and proc.is_alive():
            try:
                conn.send(None)
            except (BrokenPipeError, OSError):
                pass
            proc.join(5)
        if proc.is_alive():
            proc.terminate()
            proc.join(5)
        if proc.is_alive():  # pragma: no cover
            proc.kill()
            proc.join()
        conn.close()
        # the stop event's semaphores are unlinked when it is freed, so only once the child is
        # gone (a child still starting would fail to open them, with a traceback); one still
        # held when the process leaves by os._exit (after Ctrl-C) makes the resource tracker
        # warn of leaked semaphores
        self._stop = None

    def __enter__(self) -> TimedWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wait_for(seconds: float | None) -> float:
    """A job's time limit for ``seconds`` left (None: no limit), as :meth:`TimedWorker.submit`
    takes it: finite, and at least a moment (a job given none is late at once).

    >>> from mastermind.engines.workers.timed import FOREVER, wait_for
    >>> wait_for(None) == FOREVER, wait_for(2.5), wait_for(0.0)
    (True, 2.5, 0.001)
    """
    return FOREVER if seconds is None else min(max(seconds, 1e-3), FOREVER)


def run_with_time_limit(fn: Callable, args: tuple, time_limit: float) -> Any | None:
    """One job in a fresh child: ``fn(*args)`` or ``None`` past ``time_limit`` seconds."""
    with TimedWorker() as worker:
        return worker.run(fn, args, time_limit)
