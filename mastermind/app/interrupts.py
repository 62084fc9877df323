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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mastermind.core.cancel import CancelToken

GRACE = 0.7  # seconds a command has after Ctrl-C to stop by itself
# seconds a command not yet at its work has after Ctrl-C to reach it: its work then stops at
# once and reports (with --json, its one object), rather than Ctrl-C unwinding its start-up
# (imports, reading, the table) with nothing but "interrupted"; else it unwinds then
START_GRACE = 0.55
WIND_DOWN = 10.0  # ... once it has said that it is stopping (closing a cluster, printing bounds)


class _Command:
    """One command under :func:`interrupt_handling`: the token Ctrl-C cancels (made when the
    command first asks for it: a command answered from the result cache loads no numpy),
    the Ctrl-Cs counted, whether one came, and whether the command has returned."""

    def __init__(self) -> None:
        self._token: CancelToken | None = None
        self._lock = threading.Lock()
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

                self._token = CancelToken()
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
        """Whether work that stops by itself when cancelled runs under the token."""
        token = self._token
        return token is not None and token.busy

    @property
    def began(self) -> int:
        """How many blocks of such work began so far (0: none, or no token yet)."""
        token = self._token
        return 0 if token is None else token.began

    @property
    def winding_down(self) -> bool:
        token = self._token
        return token is not None and token.winding_down

    def status_lines(self) -> list[str]:
        token = self._token
        return [] if token is None else token.status_lines()


_commands: list[_Command] = []  # the commands running, innermost last


def command_token() -> CancelToken:
    """The cancel token of the running command, which Ctrl-C cancels: what the command hands
    to the engines it runs. Outside a command, a new token nothing cancels."""
    if _commands:
        return _commands[-1].token
    from mastermind.core.cancel import CancelToken

    return CancelToken()


def interrupted() -> bool:
    """Whether Ctrl-C reached the running command."""
    return bool(_commands) and _commands[-1].interrupted.is_set()


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
    if _commands:
        _commands[-1].answered.set()


@contextmanager
def reading_input() -> Iterator[None]:
    """Inside the block, the command waits for a line typed: Ctrl-C unwinds at once, as
    nothing runs that would stop by itself and report; and one that came before (deferred:
    see :data:`START_GRACE`) unwinds as the block begins."""
    command = _commands[-1] if _commands else None
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


def stop_if_interrupted(stopped: str | None) -> None:
    """Unwind as Ctrl-C does (``KeyboardInterrupt``) when work that had nothing partial to
    report stopped because of it (``stopped``: the reason it gives, None if it finished)."""
    if stopped == "interrupted":
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
        unwound = began = False
        while time.monotonic() < deadline or (
            command.winding_down and time.monotonic() < deadline + WIND_DOWN
        ):
            time.sleep(0.02)
            if command.finished.is_set():
                return
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
