"""A duty cycle for background work that shares a core with the work that matters more: the
work calls :meth:`DutyCycle.tick` now and then, and each call past a short burst rests the
thread long enough that it works only ``share`` of the wall time. A cancel wakes it at once.

>>> clock = iter([0.0, 0.5, 0.5]).__next__
>>> rests = []
>>> duty = DutyCycle(0.25, clock=clock, rest=rests.append)
>>> duty.tick()  # 0.5 s of work at a quarter share: 1.5 s of rest
>>> rests
[1.5]
"""

from __future__ import annotations

import time
from collections.abc import Callable

from mastermind.core.cancel import CancelToken
from mastermind.core.errors import MastermindError

BURST = 0.05
"""Seconds of work between rests: short, so that the share holds over any second, long
enough that the clock is read rarely."""


class DutyCycle:
    """Work at most ``share`` (0 < share <= 1) of the wall time; 1: never rest. ``token``: a
    cancel that ends a rest early. ``clock`` and ``rest`` are the monotonic clock and the
    sleep (replaced in tests)."""

    def __init__(
        self,
        share: float,
        token: CancelToken | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        rest: Callable[[float], None] | None = None,
    ) -> None:
        if not (0 < share <= 1):
            raise MastermindError(f"a share of the time must be in (0, 1], got {share}")
        self.share = share
        self.token = token
        self._clock = clock
        self._rest = self._wait if rest is None else rest
        self._since = clock()
        self.rested = 0.0

    def tick(self) -> None:
        """Rest if the work since the last rest passed a burst."""
        if self.share >= 1:
            return
        worked = self._clock() - self._since
        if worked < BURST:
            return
        pause = worked * (1 - self.share) / self.share
        self._rest(pause)
        self.rested += pause
        self._since = self._clock()

    def _wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while self.token is None or not self.token.cancelled:
            left = end - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 0.02))
