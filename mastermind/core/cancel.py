"""Stopping long work from another thread: a cancel token with a flag, a deadline and a reason.

The caller of long work makes a :class:`CancelToken` and hands it down; whoever may stop the
work (a Ctrl-C handler, another thread) calls :meth:`CancelToken.cancel`. Compiled code polls
the token's :attr:`~CancelToken.flag`, a one-element uint8 array, and returns at once with
what it proved; Python loops call :meth:`~CancelToken.check`, which raises :class:`Stopped`.
A token made with a time limit cancels itself when the limit passes (reason "time limit").

There is no process-wide state here: a token stops the work it was given to, and the
tokens made from it (:meth:`~CancelToken.child`), nothing else.

>>> from mastermind.core.cancel import CancelToken
>>> token = CancelToken()
>>> token.cancelled, token.reason
(False, None)
>>> with token.child(time_limit=60) as child:
...     token.cancel()
...     child.cancelled, child.reason, int(child.flag[0])
(True, 'interrupted', 1)
>>> child.check()
Traceback (most recent call last):
...
mastermind.core.cancel.Stopped
"""

from __future__ import annotations

import math
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from mastermind.core.errors import MastermindError

if TYPE_CHECKING:  # the command line loads this module on every start: numpy only when used
    import numpy as np

INTERRUPTED = "interrupted"
TIME_LIMIT = "time limit"
ITERATION_LIMIT = "iteration limit"  # (the game value's column generation: its best replies)


class Stopped(Exception):
    """Work that polls a cancel token saw it cancelled (a time limit or Ctrl-C): callers report
    what they finished.

    >>> from mastermind.core.cancel import CancelToken, Stopped
    >>> token = CancelToken()
    >>> token.cancel("enough")
    >>> try:
    ...     token.check()
    ... except Stopped:
    ...     print("stopped:", token.reason)
    stopped: enough
    """


def check_time_limit(seconds: float | None) -> float | None:
    """``seconds`` when it is None or a positive finite number, else a one-line error.

    >>> from mastermind.core.cancel import check_time_limit
    >>> check_time_limit(2.5), check_time_limit(None)
    (2.5, None)
    >>> check_time_limit(0)
    Traceback (most recent call last):
    ...
    mastermind.core.errors.MastermindError: time limit must be a positive number of seconds, got 0
    """
    if seconds is not None and not (
        isinstance(seconds, (int, float))
        and not isinstance(seconds, bool)
        and math.isfinite(seconds)
        and seconds > 0
    ):
        raise MastermindError(f"time limit must be a positive number of seconds, got {seconds!r}")
    return seconds


class _Family:
    """What a token shares with every token made from it: a lock, whether work is running
    under any of them (and what it can say if it cannot stop in time), whether that work saw
    the cancel and is reporting."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.running = 0
        self.began = 0  # blocks of work begun under the family (see :meth:`CancelToken.began`)
        self.status: list[Callable[[], str]] = []
        self.winding_down = threading.Event()


class CancelToken:
    """A request to stop, shared between the work and whoever may stop it.

    ``flag``: the one-element uint8 array compiled code polls (set when cancelled).
    ``deadline``: the monotonic time at which the token cancels itself (None: no limit; a
    child's is the earlier of its own and its parent's). ``reason``: why it was cancelled
    ("interrupted", "time limit", or what :meth:`cancel` was given), None while it is not.

    A token with a time limit runs a timer thread until the limit passes or the token is
    closed (``with token:`` closes it at the end of the block).

    >>> from mastermind.core.cancel import CancelToken
    >>> import time
    >>> with CancelToken(time_limit=0.05) as token:
    ...     time.sleep(0.2)
    ...     token.cancelled, token.reason
    (True, 'time limit')
    """

    def __init__(self, time_limit: float | None = None, *, parent: CancelToken | None = None) -> None:
        import numpy as np

        check_time_limit(time_limit)
        self.flag: np.ndarray = np.zeros(1, dtype=np.uint8)
        self._family: _Family = _Family() if parent is None else parent._family
        self._parent = parent
        self._children: weakref.WeakSet[CancelToken] = weakref.WeakSet()
        self._reason: str | None = None
        own = None if time_limit is None else time.monotonic() + time_limit
        inherited = None if parent is None else parent.deadline
        self.deadline: float | None = min((d for d in (own, inherited) if d is not None), default=None)
        self._timer: threading.Timer | None = None
        if parent is not None:
            with self._family.lock:
                parent._children.add(self)
                # (a parent past its deadline counts as cancelled, its timer fired or not)
                if parent.cancelled:
                    self._cancel(parent.reason or INTERRUPTED)
        if time_limit is not None and not self.flag[0]:
            self._timer = threading.Timer(time_limit, self.cancel, args=(TIME_LIMIT,))
            self._timer.daemon = True
            self._timer.start()

    # ---- stopping ------------------------------------------------------------------------
    def cancel(self, reason: str = INTERRUPTED) -> None:
        """Ask the work to stop (safe from any thread and from a signal handler); the first
        reason given is kept. The tokens made from this one are cancelled too."""
        with self._family.lock:
            self._cancel(reason)

    def _cancel(self, reason: str) -> None:
        if self._reason is None:
            self._reason = reason
        self.flag[0] = 1
        for child in list(self._children):
            child._cancel(reason)

    @property
    def cancelled(self) -> bool:
        """True once cancelled, or once the deadline has passed (even before the timer fires)."""
        if not self.flag[0] and self.deadline is not None and time.monotonic() >= self.deadline:
            self.cancel(TIME_LIMIT)
        return bool(self.flag[0])

    @property
    def reason(self) -> str | None:
        """Why the token was cancelled; "interrupted" when its flag was set directly."""
        if not self.cancelled:
            return None
        return self._reason or INTERRUPTED

    def check(self) -> None:
        """Raise :class:`Stopped` once cancelled (for Python loops)."""
        if self.cancelled:
            raise Stopped()

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without one; 0 once it has passed)."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    # ---- tokens made from this one ----------------------------------------------------------
    def child(self, time_limit: float | None = None) -> CancelToken:
        """A token cancelled with this one, and by its own ``time_limit`` (seconds) if given:
        the work under it can be stopped alone. Close it (``with``) to stop its timer."""
        return CancelToken(time_limit, parent=self)

    def close(self) -> None:
        """Stop the timer; the token stays as it is (cancelled or not)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._parent is not None:
            with self._family.lock:
                self._parent._children.discard(self)

    def __enter__(self) -> CancelToken:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- for whoever stops the work ---------------------------------------------------------
    @contextmanager
    def running(self, status: Callable[[], str] | None = None) -> Iterator[CancelToken]:
        """Mark work that polls this token as running for the block (it stops by itself once
        cancelled: see :attr:`busy`), with a ``status`` line of what it has done so far, for a
        caller that cannot wait for it to stop."""
        family = self._family
        with family.lock:
            family.running += 1
            family.began += 1
            if status is not None:
                family.status.append(status)
        try:
            yield self
        finally:
            with family.lock:
                family.running -= 1
                if status is not None and status in family.status:
                    family.status.remove(status)

    @property
    def busy(self) -> bool:
        """True while work under this token or one of its family runs (see :meth:`running`)."""
        with self._family.lock:
            return self._family.running > 0

    @property
    def began(self) -> int:
        """How many blocks of work (:meth:`running`) began under this token's family: a caller
        that cancelled it sees whether work began since, and stopped by itself."""
        with self._family.lock:
            return self._family.began

    def status_lines(self) -> list[str]:
        """What the running work can say about what it has done so far."""
        with self._family.lock:
            callbacks = list(self._family.status)
        lines = []
        for callback in callbacks:
            try:
                lines.append(callback())
            except Exception:  # pragma: no cover - best effort while exiting
                pass
        return lines

    def wind_down(self) -> None:
        """Say that the work saw the cancel and is reporting (closing workers, printing
        bounds): a caller waiting for it to stop may give it more time."""
        self._family.winding_down.set()

    @property
    def winding_down(self) -> bool:
        return self._family.winding_down.is_set()

    def __repr__(self) -> str:
        state = f"cancelled ({self.reason})" if self.cancelled else "active"
        return f"<CancelToken {state}>"
