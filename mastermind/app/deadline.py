"""``--time-limit`` as the time left: the whole command, counted from its start.

What the commands, the comparisons and the publisher share (below them all: no import cycle).
"""

from __future__ import annotations

import time
from typing import Any

FOREVER = 2.0e6  # seconds: "no time limit" to a wait (the system's waits take at most 2**31 ms)


class Deadline:
    """``--time-limit`` as the time left: the whole command, counted from its start.

    >>> Deadline(None).left() is None, 0 < Deadline(5.0).left() <= 5.0
    (True, True)
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.start = time.monotonic()
        self.end = None if seconds is None else self.start + seconds

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def left(self, least: float = 1e-3) -> float | None:
        """Seconds left (at least ``least``, for engines that refuse 0), None without a limit."""
        return None if self.end is None else max(self.end - time.monotonic(), least)

    def passed(self) -> bool:
        return self.end is not None and time.monotonic() >= self.end

    def token(self) -> Any:
        """A cancel token for the command's work: cancelled by Ctrl-C (a child of the
        command's token) and at this deadline (reason "time limit"); close it (``with``)."""
        from mastermind.app.interrupts import command_token

        return command_token().child(self.left())
