"""Ctrl-C for the length of one command: searches stop and report, the rest unwinds, and a
watchdog thread ends whatever has not stopped within a fraction of a second.

Python delivers Ctrl-C as a ``KeyboardInterrupt`` raised wherever the main thread is, which is
not always somewhere that can act on it: inside compiled code it waits until the code
returns, and inside a callback or a finalizer (numba calls both while it compiles) Python
prints it as an "ignored" exception and carries on. So the signal also wakes a watchdog
thread, which tells running searches to stop, gives the command :data:`GRACE` seconds to
report, and then ends the process itself with exit code 130.
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

GRACE = 0.7  # seconds a command has after Ctrl-C to stop by itself
WIND_DOWN = 10.0  # ... once it has said that it is stopping (closing a cluster, printing bounds)


def _watch_interrupts(reader: socket.socket, farewell: str) -> None:
    """The safety net: the signal's byte arrives here even while the main thread cannot run
    Python's handler. Running searches are told to stop at once; a command that has not
    exited after GRACE seconds is ended here, with whatever its searches can say."""
    from mastermind.core import cancel

    while True:
        try:
            data = reader.recv(64)
        except OSError:
            return
        if not data:
            return  # the command finished
        if signal.SIGINT not in data:
            continue
        cancel.interrupt()
        deadline = time.monotonic() + GRACE
        while time.monotonic() < deadline or (
            cancel.winding_down.is_set() and time.monotonic() < deadline + WIND_DOWN
        ):
            time.sleep(0.02)
            if cancel.finished.is_set():
                return
        if hasattr(sys.stderr, "isatty") and sys.stderr.isatty():
            print(file=sys.stderr)  # after the ^C the terminal echoed
        for line in cancel.status_lines():
            print(line, file=sys.stderr)
        print(farewell, file=sys.stderr, flush=True)
        os._exit(130)


def _on_sigint(signum, frame) -> None:
    from mastermind.core import cancel

    if cancel.count_interrupt() > 1:
        raise KeyboardInterrupt  # a second Ctrl-C: do not wait
    cancel.interrupt()
    if not cancel.busy():
        raise KeyboardInterrupt  # nothing stops by itself: unwind now


def _quiet_about_interrupts(previous):
    """An unraisable-exception hook that drops a KeyboardInterrupt: Python could not raise
    it where it arrived (a callback, a finalizer), and the watchdog acts on the Ctrl-C."""

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)

    return hook


@contextmanager
def interrupt_handling(farewell: str = "interrupted") -> Iterator[None]:
    """Ctrl-C for the length of the block (the main thread only): searches stop within a
    fraction of a second and report, everything else unwinds; the watchdog ends the rest,
    printing the running commands' status lines and then ``farewell``."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from mastermind.core import cancel

    cancel.reset()
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        old_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        old_handler = signal.signal(signal.SIGINT, _on_sigint)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        reader.close()
        writer.close()
        yield
        return
    old_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_about_interrupts(old_hook)
    watcher = threading.Thread(
        target=_watch_interrupts, args=(reader, farewell), daemon=True, name="mastermind-ctrl-c"
    )
    watcher.start()
    try:
        yield
    finally:
        cancel.finished.set()
        sys.unraisablehook = old_hook
        signal.signal(signal.SIGINT, old_handler)
        signal.set_wakeup_fd(old_fd)
        writer.close()
        watcher.join(timeout=1)
        reader.close()
