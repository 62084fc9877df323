"""A run of rows (``table``'s games, ``results``' tables): each row with a time limit of its
own within the run's cancel token, the rows' solver jobs in one child process.

The run's token carries the whole run's time limit and Ctrl-C; each row gets a child of it
(:class:`RowTime`) with the row's time limit, so a row reads the time it has left from one
place, and a row cut short by the run's limit says so (:attr:`RowTime.cut`).

>>> from mastermind.core.cancel import CancelToken
>>> from mastermind.engines.workers.rows import run_rows
>>> run = run_rows([1, 2, 3], lambda n, clock: n * n, token=CancelToken(), row_time_limit=60)
>>> run.rows, run.stopped
([1, 4, 9], None)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from mastermind.core.cancel import INTERRUPTED, CancelToken, Stopped, StopReason

if TYPE_CHECKING:
    from mastermind.engines.workers.timed import TimedWorker

T = TypeVar("T")
R = TypeVar("R")


class RowTime:
    """One row's time: a child of the run's token with the row's ``limit`` (seconds, None:
    none), cancelled at that limit (reason "time limit") or with the run's token.

    >>> from mastermind.core.cancel import CancelToken
    >>> from mastermind.engines.workers.rows import RowTime
    >>> run = CancelToken(10.0)
    >>> clock = RowTime(run, 60.0)
    >>> clock.cut, 9.0 < clock.remaining() <= 10.0
    (True, True)
    >>> clock.close(); run.close()
    """

    def __init__(self, run: CancelToken, limit: float | None) -> None:
        self.run, self.limit = run, limit
        self.start = time.monotonic()
        left = run.remaining()
        # (given less than its time: what was left of the run's)
        self.cut = left is not None and (limit is None or left < limit)
        self.token = run.child(limit)

    def remaining(self) -> float | None:
        """Seconds left of the row (None: no limit; 0 once past)."""
        return self.token.remaining()

    def elapsed(self) -> float:
        """Seconds since the row's time began."""
        return time.monotonic() - self.start

    def close(self) -> None:
        self.token.close()

    def __enter__(self) -> RowTime:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class Rows(Generic[T, R]):
    """What a run of rows did: the ``rows`` finished, in order; why it ``stopped`` (None: every
    row done); the item it was at when it stopped (None: it stopped between rows or
    finished), and whether that item's row had ``begun`` (not: the stop came before it);
    and the Ctrl-C that stopped it (a subclass of ``KeyboardInterrupt`` may say what the row
    kept); ``closing``: it came after every row, as the run's worker closed."""

    rows: list[R] = field(default_factory=list)
    stopped: StopReason | str | None = None
    at: T | None = None
    interrupt: KeyboardInterrupt | None = None
    begun: bool = True
    closing: bool = False


def run_rows(
    items: Iterable[T],
    row: Callable[[T, RowTime], R],
    *,
    token: CancelToken,
    row_time_limit: float | None,
    worker: TimedWorker | None = None,
    finished: Callable[[R], bool] = lambda r: True,
    kept: Callable[[R], None] = lambda r: None,
) -> Rows[T, R]:
    """``row(item, clock)`` for each item in turn, ``clock`` the row's :class:`RowTime`, until
    ``token`` is cancelled (the run's time limit, Ctrl-C).

    Before each row, a cancelled token stops the run (its reason). Whatever stops the run
    ends ``worker``'s child at once. A Ctrl-C in a row
    (``KeyboardInterrupt``: the row could not stop and report) ends ``worker``'s child and
    stops the run as interrupted, the row unfinished; a row that raises
    :class:`~mastermind.core.cancel.Stopped` once ``token`` is cancelled stops it too, the
    row unfinished. A row done once ``token`` is cancelled that is not ``finished`` (cut short
    by the run's time limit) stops the run after it, the row kept. A row that fails (any
    other exception) ends ``worker``'s child and the error goes up. ``kept(row)`` is called
    once a row is in the run (a progress bar's step: a Ctrl-C that the step lets through
    finds the row kept, where one taken before it lost the row).
    """
    run: Rows[T, R] = Rows()
    item: T | None = None
    try:
        for item in items:
            if token.cancelled:
                return _stopped(worker, Rows(run.rows, token.reason, item, begun=False))
            with RowTime(token, row_time_limit) as clock:
                try:
                    done = row(item, clock)
                except Stopped:  # (the run's token stopped work that had nothing to report)
                    if not token.cancelled:
                        raise
                    return _stopped(worker, Rows(run.rows, token.reason, item))
            run.rows.append(done)
            item = None  # (between rows)
            kept(done)
            if token.cancelled and not finished(done):  # (cut short by the run's time limit)
                return _stopped(worker, Rows(run.rows, token.reason))
    except KeyboardInterrupt as exc:
        return _stopped(worker, Rows(run.rows, INTERRUPTED, item, exc))
    except BaseException:
        _stopped(worker, run)
        raise
    return run


def _stopped(worker: TimedWorker | None, run: Rows[T, R]) -> Rows[T, R]:
    """``run``, its worker's child ended at once: a run that stops has nothing more for it,
    and a graceful exit takes a second (more than a Ctrl-C gives a command to report)."""
    if worker is not None:
        worker.close(kill=True)
    return run
