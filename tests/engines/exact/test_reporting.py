"""The progress of a run of work units (mastermind.engines.exact.reporting): units counted once
each, bounds that only improve, one line per unit to a progress that reports, one step to one
that only advances, the final bounds, and the status a stopped run gives."""

from __future__ import annotations

from typing import Any

import pytest

from mastermind.engines.exact.reporting import ProgressReporter
from mastermind.engines.exact.search import INF
from mastermind.engines.exact.units import UnitResult


class Lines:
    """A progress that reports: every line's fields, and the last one's."""

    def __init__(self) -> None:
        self.started: list[tuple[int | None, str]] = []
        self.lines: list[dict[str, Any]] = []
        self.end: dict[str, Any] | None = None

    def start(self, total: int | None, description: str = "") -> None:
        self.started.append((total, description))

    def advance(self, n: int = 1) -> None:
        raise AssertionError("a progress that reports is not advanced")

    def report(self, fields: dict[str, Any]) -> None:
        self.lines.append(fields)

    def finish(self, fields: dict[str, Any]) -> None:
        self.end = fields


class Bar:
    """A progress that only advances (no report, no finish)."""

    def __init__(self) -> None:
        self.steps = 0

    def start(self, total: int | None, description: str = "") -> None:
        pass

    def advance(self, n: int = 1) -> None:
        self.steps += n


def test_bounds_only_improve():
    reporter = ProgressReporter(None)
    assert (reporter.lower, reporter.upper) == (-INF, INF)
    reporter.improve(lower=40, upper=50)
    reporter.improve(lower=38, upper=52)  # (weaker: ignored)
    assert (reporter.lower, reporter.upper) == (40, 50)
    reporter.improve(upper=45)
    reporter.improve(lower=42)
    assert (reporter.lower, reporter.upper) == (42, 45)
    assert reporter.state()["lower_bound"] == 42 and reporter.state()["upper_bound"] == 45


def test_each_unit_done_is_one_line_with_its_answer_and_the_bounds():
    lines = Lines()
    reporter = ProgressReporter(lines)
    reporter.start(3, "optimal: work units")
    reporter.total = 3
    reporter.improve(lower=20.0)
    # exact below its budget; a bound at its budget; taken from a checkpoint
    reporter.unit_done(5, 12.0, UnitResult(11.0, True, None, nodes=7, seconds=0.12345))
    reporter.unit_done(9, 15.0, UnitResult(15.0, True, None, nodes=30))
    reporter.unit_done(4, 9.0, UnitResult(8.5, True, None, reused=True))
    assert lines.started == [(3, "optimal: work units")]
    assert [line["done"] for line in lines.lines] == [1, 2, 3]
    assert all(line["steps"] == 3 and line["lower_bound"] == 20 for line in lines.lines)
    assert all(line["upper_bound"] is None for line in lines.lines)  # (no strategy yet)
    units = [line["unit"] for line in lines.lines]
    assert [(u["size"], u["value"], u["exact"], u["nodes"], u["reused"]) for u in units] == [
        (5, 11, True, 7, False),
        (9, 15, False, 30, False),
        (4, 8.5, True, 0, True),
    ]
    assert units[0]["seconds"] == 0.123 and isinstance(units[0]["value"], int)
    # a unit a stop cut short: a bound, not proven, never exact
    reporter.unit_done(6, 50.0, UnitResult(30.0, False, None))
    assert lines.lines[-1]["unit"]["exact"] is False and lines.lines[-1]["unit"]["proven"] is False
    assert reporter.done == 4


def test_a_progress_that_only_advances_moves_one_step_per_unit():
    bar = Bar()
    reporter = ProgressReporter(bar)
    reporter.unit_done(5, 12.0, UnitResult(11.0, True, None))
    reporter.skip(3)
    assert bar.steps == 4 and reporter.done == 4
    reporter.finish(True)  # (no finish: nothing to call)
    silent = ProgressReporter(None)  # no progress at all: counted all the same
    silent.unit_done(5, 12.0, UnitResult(11.0, True, None))
    silent.skip(2)
    assert silent.done == 3


def test_skipped_units_are_done_without_an_answer():
    lines = Lines()
    reporter = ProgressReporter(lines)
    reporter.total = 5
    reporter.skip(2)
    assert [line["done"] for line in lines.lines] == [1, 2]
    assert all("unit" not in line for line in lines.lines)


@pytest.mark.parametrize(
    ("settled", "bounds"),
    [
        ((44.0, True, True, 44.0), (44, 44)),  # proven, with its strategy
        ((44.0, True, False, INF), (44, None)),  # proven without a strategy
        ((41.0, False, True, 47.0), (41, 47)),  # stopped: the bound rises, the best found stands
        ((30.0, False, True, 47.0), (40, 47)),  # stopped below what was proven: no lower
    ],
)
def test_the_last_line_gives_the_bounds_the_run_settled_on(settled, bounds):
    lines = Lines()
    reporter = ProgressReporter(lines)
    reporter.total = 2
    reporter.improve(lower=40, upper=48)
    reporter.unit_done(3, 9.0, UnitResult(8.0, True, None))
    reporter.settle(*settled)
    reporter.finish(settled[1])
    assert lines.end is not None
    assert (lines.end["lower_bound"], lines.end["upper_bound"]) == bounds
    assert lines.end["proven"] is settled[1] and lines.end["done"] == 1 and lines.end["steps"] == 2


def test_the_status_of_a_stopped_run_says_what_it_proved():
    reporter = ProgressReporter(None)
    assert reporter.status() == (
        "stopped, not proven: lower bound none yet, best strategy found none yet (0 of 0 work units done)"
    )
    reporter.total = 7
    reporter.improve(lower=100.0, upper=104.5)
    reporter.skip(4)
    assert reporter.status() == (
        "stopped, not proven: lower bound 100.0, best strategy found 104.5 (4 of 7 work units done)"
    )
