"""The progress of a run of work units: units done out of those planned, and the root's bounds.

A progress object with ``report(fields)`` (see :mod:`mastermind.core.progress`) gets a line
per unit with its size, value and work, and the bounds proven so far; one with ``advance``
only is moved by one per unit; ``finish(fields)``, if it has it, gets the bounds the run ended
with. The status line is what a run stopped by Ctrl-C can say if it cannot stop in time.

>>> from mastermind.engines.exact.reporting import ProgressReporter
>>> reporter = ProgressReporter(None)
>>> reporter.total = 3
>>> reporter.improve(lower=40, upper=45)
>>> reporter.skip(2)
>>> reporter.status()
'stopped, not proven: lower bound 40, best strategy found 45 (2 of 3 work units done)'
"""

from __future__ import annotations

import time
from typing import Any

from mastermind.core.progress import Progress
from mastermind.engines.exact.search import INF
from mastermind.engines.exact.units import UnitResult


class ProgressReporter:
    """Counts the units of one run (``done`` of ``total``) and keeps the root's proven lower
    bound and best upper bound (``lower``, ``upper``) for the progress lines."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.done = 0
        self.total = 0
        self.lower: float = -INF
        self.upper: float = INF
        self.clock = time.perf_counter()

    def start(self, total: int | None, description: str) -> None:
        if self.progress is not None:
            self.progress.start(total, description)

    def improve(self, lower: float | None = None, upper: float | None = None) -> None:
        """A greater proven lower bound or a cheaper strategy on the root."""
        if lower is not None:
            self.lower = max(self.lower, lower)
        if upper is not None:
            self.upper = min(self.upper, upper)

    def unit_done(self, size: int, budget: float, result: UnitResult | None) -> None:
        """Count one unit (of ``size`` secrets, run under ``budget``; None: cut, not run)."""
        self.done += 1
        if self.progress is None:
            return
        report = getattr(self.progress, "report", None)
        if report is None:
            self.progress.advance(1)
            return
        fields = self.state()  # a report counts the unit too
        if result is not None:
            fields["unit"] = {
                "size": size,
                "value": _num(result.value),
                "exact": bool(result.proven and result.value < budget),
                "proven": result.proven,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 3),
                "reused": result.reused,
            }
        report(fields)

    def skip(self, n: int = 1) -> None:
        """Units planned but not needed (their bound reached the budget): settled, so done.
        (Units a stopped search did not reach are not done: the progress and the report of a
        stopped run count the same units.)"""
        for _ in range(n):
            self.unit_done(0, INF, None)

    def state(self) -> dict[str, Any]:
        """Units done and the bounds so far, as the progress lines report them."""
        return {
            "done": self.done,
            "steps": self.total,  # (work units; "total" is the guesses' in every JSON)
            "lower_bound": _num(self.lower),
            "upper_bound": _num(self.upper),
            "seconds": round(time.perf_counter() - self.clock, 3),
        }

    def settle(self, value: float, proven: bool, found: bool, upper: float) -> None:
        """The bounds the run ended with: an exact ``value`` (with a strategy when ``found``)
        when ``proven``, else a lower bound and the cost of the best strategy (``upper``)."""
        if proven:
            self.lower = value
            self.upper = value if found else INF
        else:
            self.lower = max(self.lower, value)
            self.upper = upper

    def finish(self, proven: bool) -> None:
        """The last line: the final bounds (the last unit's line may predate them)."""
        finish = getattr(self.progress, "finish", None)
        if finish is not None:
            finish({**self.state(), "proven": proven})

    def status(self) -> str:
        return (
            f"stopped, not proven: lower bound {_text(self.lower)}, best strategy found "
            f"{_text(self.upper)} ({self.done} of {self.total} work units done)"
        )


def _num(value: float | None) -> float | int | None:
    if value is None or value in (INF, -INF):
        return None
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _text(value: float | None) -> str:
    return "none yet" if value in (INF, -INF, None) else str(value)
