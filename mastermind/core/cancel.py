"""Stopping long work from another thread: a cancel token with a flag, a deadline and a reason.

The caller of long work makes a :class:`CancelToken` and hands it down; whoever may stop the
work (a Ctrl-C handler, another thread) calls :meth:`CancelToken.cancel`. Compiled code polls
the token's :attr:`~CancelToken.flag`, a one-element uint8 array, and returns at once with
what it proved; Python loops call :meth:`~CancelToken.check`, which raises :class:`Stopped`.
A token made with a time limit cancels itself when the limit passes
(:attr:`StopReason.TIME_LIMIT`). The token is the one place a time limit is kept: work
under it reads what is left with :meth:`~CancelToken.remaining`, and gives a part of it a
limit of its own with :meth:`~CancelToken.child`.

There is no process-wide state here: a token stops the work it was given to, and the
tokens made from it (:meth:`~CancelToken.child`), nothing else.

>>> from mastermind.core.cancel import CancelToken
>>> token = CancelToken()
>>> token.cancelled, token.reason
(False, None)
>>> with token.child(time_limit=60) as child:
...     token.cancel()
...     child.cancelled, str(child.reason), int(child.flag[0])
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
from typing import TYPE_CHECKING, Protocol

from mastermind.core.choices import Choice
from mastermind.core.errors import MastermindError

if TYPE_CHECKING:  # the command line loads this module on every start: numpy only when used
    import numpy as np


class StopReason(Choice):
    """Why work stopped before it finished. A str, so that JSON output and text show the
    value itself (``"time limit"``), and it compares equal to it.

    >>> from mastermind.core.cancel import StopReason
    >>> StopReason.TIME_LIMIT == "time limit", f"stopped ({StopReason.INTERRUPTED})"
    (True, 'stopped (interrupted)')
    >>> import json; json.dumps({"stopped": StopReason.ITERATION_LIMIT})
    '{"stopped": "iteration limit"}'
    >>> {StopReason.TIME_LIMIT: 1}["time limit"], StopReason("time limit") is StopReason.TIME_LIMIT
    (1, True)
    """

    INTERRUPTED = "interrupted"  # Ctrl-C, or whoever cancelled the token without a reason
    TIME_LIMIT = "time limit"
    ITERATION_LIMIT = "iteration limit"  # (the game value's column generation: its best replies)


INTERRUPTED = StopReason.INTERRUPTED
TIME_LIMIT = StopReason.TIME_LIMIT
ITERATION_LIMIT = StopReason.ITERATION_LIMIT


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


class Watcher(Protocol):
    """Whoever stops the work and cannot always wait for it (the command line's Ctrl-C
    watchdog): told when work that stops by itself begins and ends under a token (with a
    line of what it has done so far), and when it saw the cancel and is reporting."""

    def begin(self, status: Callable[[], str] | None) -> None: ...

    def end(self, status: Callable[[], str] | None) -> None: ...

    def wind_down(self) -> None: ...

    def begin_start_up(self) -> None: ...

    def end_start_up(self) -> None: ...


class CancelToken:
    """A request to stop, shared between the work and whoever may stop it.

    ``flag``: the one-element uint8 array compiled code polls (set when cancelled).
    ``deadline``: the monotonic time at which the token cancels itself (None: no limit; a
    child's is the earlier of its own and its parent's); ``time_limit`` counts from ``start``
    (a :func:`time.monotonic` moment, default now). ``reason``: why it was cancelled (a
    :class:`StopReason`, or what :meth:`cancel` was given), None while it is not.
    ``watcher``: told of the work that runs under the token and those made from it (see
    :meth:`running`).

    A token with a time limit runs a timer thread until the limit passes or the token is
    closed (``with token:`` closes it at the end of the block).

    >>> from mastermind.core.cancel import CancelToken, StopReason
    >>> import time
    >>> with CancelToken(time_limit=0.05) as token:
    ...     time.sleep(0.2)
    ...     token.cancelled, token.reason is StopReason.TIME_LIMIT
    (True, True)
    """

    def __init__(
        self,
        time_limit: float | None = None,
        *,
        parent: CancelToken | None = None,
        start: float | None = None,
        watcher: Watcher | None = None,
    ) -> None:
        import numpy as np

        check_time_limit(time_limit)
        self.flag: np.ndarray = np.zeros(1, dtype=np.uint8)
        self._lock: threading.RLock = threading.RLock() if parent is None else parent._lock
        self.watcher: Watcher | None = watcher if parent is None else parent.watcher
        self._parent = parent
        self._children: weakref.WeakSet[CancelToken] = weakref.WeakSet()
        self._reason: StopReason | str | None = None
        now = time.monotonic()
        own = None if time_limit is None else (now if start is None else start) + time_limit
        inherited = None if parent is None else parent.deadline
        self.deadline: float | None = min((d for d in (own, inherited) if d is not None), default=None)
        self._timer: threading.Timer | None = None
        if parent is not None:
            with self._lock:
                parent._children.add(self)
                # (a parent past its deadline counts as cancelled, its timer fired or not)
                if parent.cancelled:
                    self._cancel(parent.reason or INTERRUPTED)
        if own is not None and not self.flag[0]:
            if own <= now:
                self._cancel(TIME_LIMIT)
            else:
                self._timer = threading.Timer(own - now, self.cancel, args=(TIME_LIMIT,))
                self._timer.daemon = True
                self._timer.start()

    # ---- stopping ------------------------------------------------------------------------
    def cancel(self, reason: StopReason | str = INTERRUPTED) -> None:
        """Ask the work to stop (safe from any thread and from a signal handler); the first
        reason given is kept. The tokens made from this one are cancelled too."""
        with self._lock:
            self._cancel(reason)

    def _cancel(self, reason: StopReason | str) -> None:
        if self._reason is None:
            known = {r.value: r for r in StopReason}
            self._reason = known.get(reason, reason)  # ("time limit" given: the StopReason)
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
    def cancel_requested(self) -> bool:
        """Whether the token was cancelled or its deadline passed, whatever its flag says now
        (work that holds the flag back while it finishes, see ``StrategySearch._found``)."""
        if self._reason is not None:
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    @property
    def reason(self) -> StopReason | str | None:
        """Why the token was cancelled; :attr:`StopReason.INTERRUPTED` when its flag was set
        directly."""
        if not self.cancelled:
            return None
        return self._reason or INTERRUPTED

    @property
    def interrupted(self) -> bool:
        """Whether the token was cancelled as Ctrl-C does (not by a time limit)."""
        return self.reason == INTERRUPTED

    def check(self) -> None:
        """Raise :class:`Stopped` once cancelled (for Python loops)."""
        if self.cancelled:
            raise Stopped()

    def remaining(self, least: float = 0.0) -> float | None:
        """Seconds left before the deadline (None without one), at least ``least`` (0 once it
        has passed; a moment for an engine that refuses 0 seconds)."""
        return None if self.deadline is None else max(least, self.deadline - time.monotonic())

    # ---- tokens made from this one ----------------------------------------------------------
    def child(self, time_limit: float | None = None, *, start: float | None = None) -> CancelToken:
        """A token cancelled with this one, and by its own ``time_limit`` (seconds from
        ``start``, default now) if given: the work under it can be stopped alone. Close it
        (``with``) to stop its timer."""
        return CancelToken(time_limit, parent=self, start=start)

    def close(self) -> None:
        """Stop the timer; the token stays as it is (cancelled or not)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._parent is not None:
            with self._lock:
                self._parent._children.discard(self)

    def __enter__(self) -> CancelToken:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- telling whoever stops the work (see Watcher) ----------------------------------------
    @contextmanager
    def running(self, status: Callable[[], str] | None = None) -> Iterator[CancelToken]:
        """Mark work that polls this token as running for the block (it stops by itself once
        cancelled), with a ``status`` line of what it has done so far, for a watcher that
        cannot wait for it to stop."""
        watcher = self.watcher
        if watcher is None:
            yield self
            return
        watcher.begin(status)
        try:
            yield self
        finally:
            watcher.end(status)

    def wind_down(self) -> None:
        """Say that the work saw the cancel and is reporting (closing workers, printing
        bounds): a watcher waiting for it to stop may give it more time."""
        if self.watcher is not None:
            self.watcher.wind_down()

    @contextmanager
    def starting(self) -> Iterator[CancelToken]:
        """Mark the start-up of work that then polls this token, for the block: steps that
        cannot look at the token (loading compiled kernels). A watcher that
        cannot wait for work to stop gives it time to end the block (bounded by the watcher),
        after which the work sees the cancel and reports."""
        watcher = self.watcher
        if watcher is None:
            yield self
            return
        watcher.begin_start_up()
        try:
            yield self
        finally:
            watcher.end_start_up()

    def __repr__(self) -> str:
        state = f"cancelled ({self.reason})" if self.cancelled else "active"
        return f"<CancelToken {state}>"
