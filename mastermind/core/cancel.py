"""Stopping long work from another thread: Ctrl-C, time limits.

A running search owns a stop flag (a one-element uint8 array that compiled code polls) and
registers it here while it runs; :func:`interrupt` (called by the command line when Ctrl-C
arrives) sets every registered flag, so that compiled searches return at once with what they
proved. Commands may also register a ``status`` line: what to print if they cannot stop in
time.

>>> flag = new_flag()
>>> with running(flag):
...     bool(flag[0])
False
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line loads this module on every start: numpy only when used
    import numpy as np

_lock = threading.Lock()
_flags: dict[int, np.ndarray] = {}
_status: list[Callable[[], str]] = []
interrupted = threading.Event()
winding_down = threading.Event()  # a command saw the stop and is reporting: give it time
finished = threading.Event()  # the command has returned
_interrupts = [0]


def new_flag() -> np.ndarray:
    """A fresh stop flag (set with ``flag[0] = 1``)."""
    import numpy as np

    return np.zeros(1, dtype=np.uint8)


@contextmanager
def running(flag: np.ndarray, status: Callable[[], str] | None = None) -> Iterator[np.ndarray]:
    """Register ``flag`` (and a status line) while the block runs; a flag registered after
    an interrupt is set at once."""
    with _lock:
        _flags[id(flag)] = flag
        if status is not None:
            _status.append(status)
        if interrupted.is_set():
            flag[0] = 1
    try:
        yield flag
    finally:
        with _lock:
            _flags.pop(id(flag), None)
            if status is not None and status in _status:
                _status.remove(status)


def busy() -> bool:
    """True while a registered search runs (it will stop by itself on :func:`interrupt`)."""
    with _lock:
        return bool(_flags)


def count_interrupt() -> int:
    """Count one Ctrl-C of this command; returns how many there were."""
    with _lock:
        _interrupts[0] += 1
        return _interrupts[0]


def interrupt() -> None:
    """Set every registered stop flag (safe from any thread)."""
    with _lock:
        interrupted.set()
        for flag in _flags.values():
            flag[0] = 1


def status_lines() -> list[str]:
    """What the running commands can say about the work done so far."""
    with _lock:
        callbacks = list(_status)
    lines = []
    for callback in callbacks:
        try:
            lines.append(callback())
        except Exception:  # pragma: no cover - best effort while exiting
            pass
    return lines


def reset() -> None:
    """Forget an earlier interrupt (a new command starts)."""
    interrupted.clear()
    winding_down.clear()
    finished.clear()
    _interrupts[0] = 0
