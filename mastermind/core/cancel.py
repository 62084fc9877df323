"""Stopping long work from another thread: Ctrl-C, time limits.

A running search owns a stop flag (a one-element uint8 array that compiled code polls) and
registers it here while it runs; :func:`interrupt` (called by the command line when Ctrl-C
arrives) sets every registered flag, so that compiled searches return at once with what they
proved. Commands may also register a ``status`` line: what to print if they cannot stop in time.
:func:`deadline_flag` gives a flag that a time limit sets; Python loops that poll a flag
raise :class:`Stopped`.

>>> flag = new_flag()
>>> with running(flag):
...     bool(flag[0])
False
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line loads this module on every start: numpy only when used
    import numpy as np

_lock = threading.Lock()
_flags: dict[int, tuple[np.ndarray, int]] = {}  # id -> (flag, times registered: blocks nest)
_status: list[Callable[[], str]] = []
interrupted = threading.Event()
winding_down = threading.Event()  # a command saw the stop and is reporting: give it time
finished = threading.Event()  # the command has returned
_interrupts = [0]


class Stopped(Exception):
    """Work that polls a stop flag saw it set (a time limit or Ctrl-C): callers report what
    they finished."""


def new_flag() -> np.ndarray:
    """A fresh stop flag (set with ``flag[0] = 1``)."""
    import numpy as np

    return np.zeros(1, dtype=np.uint8)


@contextmanager
def running(flag: np.ndarray, status: Callable[[], str] | None = None) -> Iterator[np.ndarray]:
    """Register ``flag`` (and a status line) while the block runs; a flag registered after
    an interrupt is set at once."""
    with _lock:
        _flags[id(flag)] = (flag, _flags.get(id(flag), (flag, 0))[1] + 1)
        if status is not None:
            _status.append(status)
        if interrupted.is_set():
            flag[0] = 1
    try:
        yield flag
    finally:
        with _lock:
            count = _flags.pop(id(flag), (flag, 1))[1] - 1
            if count > 0:
                _flags[id(flag)] = (flag, count)
            if status is not None and status in _status:
                _status.remove(status)


@contextmanager
def deadline_flag(
    time_limit: float | None, flag: np.ndarray | None = None
) -> Iterator[tuple[np.ndarray, float | None]]:
    """A stop flag (``flag`` or a new one) that is set when ``time_limit`` seconds have passed;
    yields it with the deadline (monotonic time, None without a limit)."""
    flag = new_flag() if flag is None else flag
    if time_limit is None:
        yield flag, None
        return
    deadline = time.monotonic() + time_limit
    timer = threading.Timer(time_limit, lambda: flag.__setitem__(0, 1))
    timer.daemon = True
    timer.start()
    try:
        yield flag, deadline
    finally:
        timer.cancel()


def check(flag: np.ndarray | None) -> None:
    """Raise :class:`Stopped` when ``flag`` is set (for Python loops polling their flag)."""
    if flag is not None and flag[0]:
        raise Stopped()


def reason(deadline: float | None = None) -> str:
    """Why work stopped: "interrupted" (Ctrl-C) or "time limit"."""
    if interrupted.is_set() or deadline is None:
        return "interrupted"
    return "time limit"


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
        for flag, _ in _flags.values():
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
