"""Ctrl-C for the length of one command: searches stop and report, the rest unwinds, and a
watchdog thread ends whatever has not stopped within a fraction of a second.

Python delivers Ctrl-C as a ``KeyboardInterrupt`` raised wherever the main thread is, which is
not always somewhere that can act on it: inside compiled code it waits until the code
returns, and inside a callback or a finalizer (numba calls both while it compiles) Python
prints it as an "ignored" exception and carries on. So the signal also wakes a watchdog
thread, which tells running searches to stop, gives the command :data:`GRACE` seconds to
report, and then ends the process itself with exit code 130.

A Ctrl-C before the command's work begins (its start-up: imports, reading, the table) lets
it go on for :data:`START_GRACE` seconds: its work, once begun, sees the cancel at once and
reports (with ``--json``, its one object, where it used to say "interrupted" alone); a
command not at its work by then unwinds. A command waiting for a line typed unwinds at once.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from mastermind.core.cancel import CancelToken

T = TypeVar("T")

GRACE = 0.7  # seconds a command has after Ctrl-C to stop by itself
# seconds a command not yet at its work has after Ctrl-C to reach it: its work then stops at
# once and reports (with --json, its one object), rather than Ctrl-C unwinding its start-up
# (imports, reading, the table) with nothing but "interrupted"; else it unwinds then
START_GRACE = 0.55
# ... once it has said that it is stopping (closing a cluster, printing bounds), and while its
# start-up cannot look at the token (kernels loading: CancelToken.starting)
WIND_DOWN = 10.0


class _Watch:
    """What the watchdog knows of the work under a command's token (the token's
    :class:`~mastermind.core.cancel.Watcher`): whether work that stops by itself runs, how
    many blocks of it began, what it can say if it cannot stop in time, and whether it saw
    the cancel and is reporting."""

    def __init__(self) -> None:
        # (reentrant: the Ctrl-C handler reads it on the main thread, which may hold it)
        self._lock = threading.RLock()
        self.running = 0
        self.began = 0
        self._status: list[Callable[[], str]] = []
        self._winding_down = threading.Event()
        self.starting_up = 0  # blocks of start-up under way (see CancelToken.starting)
        self.awaiting = False  # work stopped early, its report on the way (see work_follows)

    def begin(self, status: Callable[[], str] | None) -> None:
        with self._lock:
            self.running += 1
            self.began += 1
            self.awaiting = False
            if status is not None:
                self._status.append(status)

    def end(self, status: Callable[[], str] | None) -> None:
        with self._lock:
            self.running -= 1
            if status is not None and status in self._status:
                self._status.remove(status)

    def wind_down(self) -> None:
        self._winding_down.set()

    def await_work(self) -> None:
        """Work stopped early and the rest follows (see :func:`work_follows`): a start-up
        until the next block begins."""
        with self._lock:
            self.awaiting = True

    def begin_start_up(self) -> None:
        with self._lock:
            self.starting_up += 1

    def end_start_up(self) -> None:
        with self._lock:
            self.starting_up -= 1

    @property
    def busy(self) -> bool:
        """Whether work that stops by itself when cancelled runs under the token, or is
        starting up to run (and then sees the cancel at once)."""
        with self._lock:
            return self.running > 0 or self.starting_up > 0 or self.awaiting

    @property
    def starting(self) -> bool:
        """Whether work is in a start-up that cannot look at the token (see
        :meth:`~mastermind.core.cancel.CancelToken.starting`), with none of it running yet:
        once a block runs, it sees the cancel itself and has the usual grace to report."""
        with self._lock:
            return (self.starting_up > 0 or self.awaiting) and self.running == 0

    @property
    def winding_down(self) -> bool:
        return self._winding_down.is_set()

    def status_lines(self) -> list[str]:
        """What the running work can say about what it has done so far."""
        with self._lock:
            callbacks = list(self._status)
        lines = []
        for callback in callbacks:
            try:
                lines.append(callback())
            except Exception:  # pragma: no cover - best effort while exiting
                pass
        return lines


class _Command:
    """One command under :func:`interrupt_handling` (or :func:`command_clock`): the token
    Ctrl-C cancels (made when the command first asks for it: a command answered from the
    result cache loads no numpy), when the command started and its ``--time-limit`` (see
    :func:`command_work`); the Ctrl-Cs counted, whether one came, and whether the command
    has returned."""

    def __init__(self) -> None:
        self._token: CancelToken | None = None
        self._lock = threading.Lock()
        self.watch = _Watch()
        self.start = time.monotonic()  # (see command_clock)
        self.limit: float | None = None  # its --time-limit
        self.interrupts = 0
        self.after_answer = 0  # Ctrl-Cs after it (see :func:`answered`)
        # a Ctrl-C came before its work: the blocks of work begun by then (see START_GRACE)
        self.deferred: int | None = None
        self.reading = 0  # waiting for a line typed (see :func:`reading_input`)
        self.signalling = threading.Lock()  # the watchdog's signal, or the command's end
        self.interrupted = threading.Event()
        self.finished = threading.Event()
        self.answered = threading.Event()  # its whole answer printed (see :func:`answered`)

    @property
    def token(self) -> CancelToken:
        with self._lock:
            if self._token is None:
                from mastermind.core.cancel import CancelToken

                self._token = CancelToken(watcher=self.watch)
                if self.interrupted.is_set():  # a token asked for after Ctrl-C is cancelled at once
                    self._token.cancel()
            return self._token

    def interrupt(self) -> None:
        """Ctrl-C: cancel the token, if the command has one (safe from any thread)."""
        self.interrupted.set()
        token = self._token
        if token is not None:
            token.cancel()

    @property
    def busy(self) -> bool:
        return self.watch.busy

    @property
    def began(self) -> int:
        """How many blocks of work that stops by itself began so far."""
        return self.watch.began

    @property
    def winding_down(self) -> bool:
        return self.watch.winding_down

    @property
    def starting(self) -> bool:
        return self.watch.starting

    def status_lines(self) -> list[str]:
        return self.watch.status_lines()


_commands: list[_Command] = []  # the commands under interrupt_handling, innermost last
# a command timed by command_clock outside interrupt_handling (another thread, a test)
_CLOCKED: ContextVar[_Command | None] = ContextVar("command", default=None)


def _current() -> _Command | None:
    return _CLOCKED.get() or (_commands[-1] if _commands else None)


@contextmanager
def command_clock(limit: float | None = None) -> Iterator[None]:
    """Marks the start of a command, before the imports and checks of its body, with its
    ``--time-limit`` (``limit``, which the lines saying that it stopped quote): the tokens
    of its work (:func:`command_work`) count their time limits from here. Under
    :func:`interrupt_handling`, the command is the one it handles Ctrl-C for; elsewhere,
    one of this block's own."""
    if not _commands or _CLOCKED.get() is not None:
        mark = _CLOCKED.set(_Command())
        try:
            _timed(_current(), limit)
            yield
        finally:
            _CLOCKED.reset(mark)
        return
    command = _commands[-1]
    saved = command.start, command.limit
    _timed(command, limit)
    try:
        yield
    finally:
        command.start, command.limit = saved


def _timed(command: _Command | None, limit: float | None) -> None:
    assert command is not None
    command.start, command.limit = time.monotonic(), limit


def command_token() -> CancelToken:
    """The cancel token of the running command, which Ctrl-C cancels: what the command hands
    to the engines it runs (its time limit on a child: :func:`command_work`). Outside a
    command, a new token nothing cancels."""
    command = _current()
    if command is not None:
        return command.token
    from mastermind.core.cancel import CancelToken

    return CancelToken()


def command_work(time_limit: float | None = None) -> CancelToken:
    """The token of the running command's work: a child of its token (Ctrl-C), cancelled
    ``time_limit`` seconds (its ``--time-limit``, or less: a picture drawn after the work)
    after the command's start, not from now (reason "time limit"); outside a command, a
    new token with ``time_limit`` from now. Everything under it reads the time left from it
    (:meth:`~mastermind.core.cancel.CancelToken.remaining`). Close it (``with``)."""
    command = _current()
    if command is None:
        from mastermind.core.cancel import CancelToken

        return CancelToken(time_limit)
    return command.token.child(time_limit, start=command.start)


def interrupted() -> bool:
    """Whether Ctrl-C reached the running command."""
    command = _current()
    return command is not None and command.interrupted.is_set()


def limit_note(stopped: str | None) -> str:
    """For the line saying that work stopped: where the time limit stopped it, that the
    limit counts the whole command (its start-up, a file read, the compiling), with how long
    the command has run, since the work's own seconds may be far less ("stopped (time
    limit) after 0.07 s" under --time-limit 1 read as a limit not kept); else nothing."""
    words = _limit_words(stopped)
    return f" ({words})" if words else ""


def _limit_words(stopped: str | None) -> str:
    from mastermind.core.cancel import StopReason

    command = _current()
    if stopped != StopReason.TIME_LIMIT or command is None or command.limit is None:
        return ""
    so_far = time.monotonic() - command.start
    return f"--time-limit {command.limit:g} s counts the whole command: {so_far:.2f} s so far"


def stopped_text(reason: str | None) -> str:
    """``stopped (REASON)``, as the lines saying that work stopped begin, with
    :func:`limit_note` inside the brackets ("stopped (time limit) (--time-limit ...)" read
    as two asides)."""
    words = _limit_words(reason)
    return f"stopped ({reason}{'; ' + words if words else ''})"


POLL = 0.05  # seconds between looks at the cancel token while work that cannot stop runs


def unless_cancelled(work: Callable[[], T], cancel: CancelToken, name: str) -> T | None:
    """``work()``, for work that cannot be stopped (a strategy file read and replayed, the
    lower bounds), in a thread of its own: its value, or None as soon as ``cancel`` is
    cancelled, the thread left to finish unheeded (a daemon, ended with the process). Its
    exception, if it raises one first, is raised here.

    >>> from mastermind.app.interrupts import unless_cancelled
    >>> from mastermind.core.cancel import CancelToken
    >>> unless_cancelled(lambda: 6 * 7, CancelToken(), "answer")
    42
    """
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # (raised again in the command's thread)
            failed.append(exc)

    worker = threading.Thread(target=run, name=name, daemon=True)
    worker.start()
    while worker.is_alive() and not cancel.cancelled:
        worker.join(POLL)
    if failed:
        raise failed[0]
    return done[0] if done else None


@contextmanager
def unwind_on_interrupt() -> Iterator[None]:
    """Inside the block, work that the command's Ctrl-C stopped with nothing to report
    (:class:`~mastermind.core.cancel.Stopped`) unwinds as Ctrl-C does (``KeyboardInterrupt``);
    stopped for another reason (a time limit), it goes on as ``Stopped``."""
    from mastermind.core.cancel import Stopped

    try:
        yield
    except Stopped:
        if interrupted():
            raise KeyboardInterrupt from None
        raise


def answered() -> None:
    """The running command has printed its whole answer (its one JSON object): a first
    Ctrl-C from now on changes nothing, as the answer may say that nothing stopped (it gave
    exit code 130 and "interrupted" after a complete report)."""
    command = _current()
    if command is not None:
        command.answered.set()


@contextmanager
def reading_input() -> Iterator[None]:
    """Inside the block, the command waits for a line typed: Ctrl-C unwinds at once, as
    nothing runs that would stop by itself and report; and one that came before (deferred:
    see :data:`START_GRACE`) unwinds as the block begins."""
    command = _current()
    if command is None:
        yield
        return
    if command.deferred is not None:
        raise KeyboardInterrupt
    command.reading += 1
    try:
        yield
    finally:
        command.reading -= 1


def work_follows() -> None:
    """Work of the running command stopped early (the score table's build) and the rest of
    its work follows, which sees the cancel at once and reports: until that work begins, a
    Ctrl-C waits for it as for a start-up (its set-up in between, imports and kernels, gave
    "interrupted" alone when it outlasted the watchdog's GRACE)."""
    command = _current()
    if command is not None:
        command.watch.await_work()


def stop_if_interrupted(stopped: str | None) -> None:
    """Unwind as Ctrl-C does (``KeyboardInterrupt``) when work that had nothing partial to
    report stopped because of it (``stopped``: the reason it gives, None if it finished)."""
    from mastermind.core.cancel import StopReason

    if stopped == StopReason.INTERRUPTED:
        raise KeyboardInterrupt


def _watch_interrupts(reader: socket.socket, farewell: str, command: _Command) -> None:
    """The safety net: the signal's byte arrives here even while the main thread cannot run
    Python's handler. Running searches are told to stop at once; a command that has not
    exited after GRACE seconds is ended here, with whatever its searches can say."""
    while True:
        try:
            data = reader.recv(64)
        except OSError:
            return
        if not data:
            return  # the command finished
        if signal.SIGINT not in data or command.answered.is_set():
            continue  # (after the whole answer: the handler's to judge)
        command.interrupt()
        start = time.monotonic()
        deadline = start + GRACE
        unwound = began = starting = False
        while (
            time.monotonic() < deadline
            or (command.winding_down and time.monotonic() < deadline + WIND_DOWN)
            or (command.starting and time.monotonic() < start + WIND_DOWN)
        ):
            time.sleep(0.02)
            if command.finished.is_set():
                return
            if command.starting:
                starting = True
            elif starting:  # its start-up (kernels loading) ended: as long to report
                starting = False
                deadline = max(deadline, time.monotonic() + GRACE)
            if command.answered.is_set():  # its whole answer is out: it ends by itself, unless
                deadline = max(deadline, start + WIND_DOWN)  # it hangs (then ended all the same)
                continue
            if not began and command.deferred is not None and command.began != command.deferred:
                began = True  # its work began after a deferred Ctrl-C: as long to report
                deadline = max(deadline, time.monotonic() + GRACE)
            if (
                not unwound
                and time.monotonic() >= start + START_GRACE
                and command.deferred is not None
                and command.began == command.deferred
                and not command.busy
            ):
                # still not at its work (or blocked reading a line): unwind as Ctrl-C does
                # (a signal of its own, which also ends a wait for input)
                unwound = True
                with command.signalling:
                    if command.finished.is_set():
                        return
                    signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        if hasattr(sys.stderr, "isatty") and sys.stderr.isatty():
            print(file=sys.stderr)  # after the ^C the terminal echoed
        for line in command.status_lines():
            print(line, file=sys.stderr)
        print(farewell, file=sys.stderr, flush=True)
        os._exit(130)


def _sigint_handler(command: _Command):
    def on_sigint(signum, frame) -> None:
        if command.finished.is_set():
            return  # (the watchdog's signal, late: the command has ended)
        if command.answered.is_set():
            command.after_answer += 1
            if command.after_answer > 1:
                raise KeyboardInterrupt  # a second Ctrl-C: do not wait
            return
        command.interrupts += 1
        if command.interrupts > 1:
            raise KeyboardInterrupt  # a second Ctrl-C (or the watchdog's): do not wait
        command.interrupt()
        if command.reading:
            raise KeyboardInterrupt  # waiting for a line typed: the person wants out now
        if not command.busy:
            if command.began:
                # between blocks of its work (a table between rows): unwound at once, to
                # report what it did; deferred, it went on with the next block until the
                # watchdog's signal, and had too little of its second left to report
                raise KeyboardInterrupt
            # nothing stops by itself yet: the command goes on to its work, which stops at
            # once and reports, unless it has not begun within START_GRACE (the watchdog)
            command.deferred = command.began

    return on_sigint


def _quiet_about_interrupts(previous):
    """An unraisable-exception hook that drops a KeyboardInterrupt: Python could not raise
    it where it arrived (a callback, a finalizer), and the watchdog acts on the Ctrl-C."""

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)

    return hook


@contextmanager
def interrupt_handling(farewell: str = "interrupted") -> Iterator[None]:
    """Ctrl-C for the length of the block (the main thread only): the command's cancel token
    (:func:`command_token`) is cancelled, so that searches stop within a fraction of a second
    and report, everything else unwinds; the watchdog ends the rest, printing the running
    work's status lines and then ``farewell``. Each block has a token of its own."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    command = _Command()
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        old_handler = signal.signal(signal.SIGINT, _sigint_handler(command))
    except (ValueError, OSError):  # pragma: no cover - no signals here
        reader.close()
        writer.close()
        yield
        return
    _commands.append(command)
    old_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_about_interrupts(old_hook)
    watcher = threading.Thread(
        target=_watch_interrupts, args=(reader, farewell, command), daemon=True, name="mastermind-ctrl-c"
    )
    watcher.start()
    try:
        yield
    finally:
        with command.signalling:  # (no signal of the watchdog's comes after this)
            command.finished.set()
        _commands.remove(command)
        sys.unraisablehook = old_hook
        signal.signal(signal.SIGINT, old_handler)
        signal.set_wakeup_fd(old_fd)
        writer.close()
        watcher.join(timeout=1)
        reader.close()
