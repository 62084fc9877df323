"""``--time-limit`` as the time left: the whole command, counted from its start.

What the commands, the comparisons and the publisher share (below them all: no import cycle).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

FOREVER = 2.0e6  # seconds: "no time limit" to a wait (the system's waits take at most 2**31 ms)


def _now() -> float:
    """The clock every deadline reads (one name, so that tests move it alone, not
    ``time.monotonic`` for the whole process)."""
    return time.monotonic()


_COMMAND_START: ContextVar[float | None] = ContextVar("command_start", default=None)
"""When the command running in this context began (None: outside any command)."""


@contextmanager
def command_clock() -> Iterator[None]:
    """Marks the start of a command, before the imports and checks of its body: every
    :meth:`Deadline.of_command` made while it runs counts from here (the shared command
    wrapper holds it, so no command has to make its deadline first)."""
    mark = _COMMAND_START.set(_now())
    try:
        yield
    finally:
        _COMMAND_START.reset(mark)


class Deadline:
    """A time limit as the time left, counted from ``start`` (default: now).

    >>> Deadline(None).left() is None, 0 < Deadline(5.0).left() <= 5.0
    (True, True)
    """

    def __init__(self, seconds: float | None, *, start: float | None = None) -> None:
        self.seconds = seconds
        self.start = _now() if start is None else start
        self.end = None if seconds is None else self.start + seconds

    @classmethod
    def of_command(cls, seconds: float | None) -> Deadline:
        """``--time-limit``: the whole command, counted from its start (see
        :func:`command_clock`; from now outside a command)."""
        return cls(seconds, start=_COMMAND_START.get())

    def elapsed(self) -> float:
        return _now() - self.start

    def left(self, least: float = 1e-3) -> float | None:
        """Seconds left (at least ``least``, for engines that refuse 0), None without a limit."""
        return None if self.end is None else max(self.end - _now(), least)

    def passed(self) -> bool:
        return self.end is not None and _now() >= self.end

    def token(self) -> Any:
        """A cancel token for the command's work: cancelled by Ctrl-C (a child of the
        command's token) and at this deadline (reason "time limit"); close it (``with``)."""
        from mastermind.app.interrupts import command_token

        return command_token().child(self.left())
