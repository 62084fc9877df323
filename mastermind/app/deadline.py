"""``--time-limit`` as the time left: the whole command, counted from its start.

What the commands, the comparisons and the publisher share (below them all: no import cycle).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

FOREVER = 2.0e6  # seconds: "no time limit" to a wait (the system's waits take at most 2**31 ms)


def _now() -> float:
    """The clock every deadline reads (one name, so that tests move it alone, not
    ``time.monotonic`` for the whole process)."""
    return time.monotonic()


@dataclass(frozen=True)
class _Command:
    """The command running in this context: when it began, and its ``--time-limit``."""

    start: float
    limit: float | None = None


_COMMAND: ContextVar[_Command | None] = ContextVar("command", default=None)
"""The command running in this context (None: outside any command)."""


@contextmanager
def command_clock(limit: float | None = None) -> Iterator[None]:
    """Marks the start of a command, before the imports and checks of its body: every
    :meth:`Deadline.of_command` made while it runs counts from here (the shared command
    wrapper holds it, so no command has to make its deadline first). ``limit``: the
    command's ``--time-limit``, which the lines saying that it stopped quote."""
    mark = _COMMAND.set(_Command(_now(), limit))
    try:
        yield
    finally:
        _COMMAND.reset(mark)


def limit_note(stopped: str | None) -> str:
    """For the line saying that work stopped: where the time limit stopped it, that the
    limit counts the whole command (its start-up, a file read, the compiling), with how long
    the command has run, since the work's own seconds may be far less ("stopped (time
    limit) after 0.07 s" under --time-limit 1 read as a limit not kept); else nothing."""
    command = _COMMAND.get()
    if stopped != "time limit" or command is None or command.limit is None:
        return ""
    so_far = _now() - command.start
    return f" (--time-limit {command.limit:g} s counts the whole command: {so_far:.2f} s so far)"


def stopped_text(reason: str | None) -> str:
    """``stopped (REASON)``, as the lines saying that work stopped begin, with
    :func:`limit_note`."""
    return f"stopped ({reason}){limit_note(reason)}"


class Deadline:
    """A time limit as the time left, counted from ``start`` (default: now).

    >>> from mastermind.app.deadline import Deadline
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
        command = _COMMAND.get()
        return cls(seconds, start=None if command is None else command.start)

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
