"""Child-process time limits: results come back, slow jobs are stopped, errors stay one line."""

import time

import pytest

from mastermind.core.errors import MastermindError
from mastermind.engines.models.timed import TimedWorker, run_with_time_limit


def _fail(message):
    raise MastermindError(message)


def _slow_value(seconds, value):
    time.sleep(seconds)
    return value


def _crash():
    raise ZeroDivisionError("boom")


def test_result_timeout_and_reuse():
    with TimedWorker() as worker:
        assert worker.run(sum, ([1, 2, 3],), time_limit=60) == 6
        start = time.perf_counter()
        assert worker.run(time.sleep, (30,), time_limit=1) is None
        assert time.perf_counter() - start < 15
        assert worker.run(max, (3, 9), time_limit=60) == 9  # a fresh child after the kill


def test_errors_come_back_as_one_line():
    with pytest.raises(MastermindError, match="bad thing"):
        run_with_time_limit(_fail, ("bad thing",), 60)
    with pytest.raises(MastermindError, match="ZeroDivisionError: boom"):
        run_with_time_limit(_crash, (), 60)
    with pytest.raises(MastermindError, match="time limit"):
        run_with_time_limit(sum, ([],), 0)


def test_submit_lets_the_parent_work_meanwhile():
    with TimedWorker() as worker:
        worker.run(sum, ([],), time_limit=60)  # child started and warm
        start = time.perf_counter()
        worker.submit(_slow_value, (1.5, "done"), time_limit=60)
        time.sleep(1.5)  # the parent's own work
        assert worker.result() == "done"
        assert time.perf_counter() - start < 2.9  # both waits overlapped
        worker.submit(time.sleep, (30,), time_limit=0.5)
        time.sleep(1)
        start = time.perf_counter()
        assert worker.result() is None  # deadline counted from submit: no further wait
        assert time.perf_counter() - start < 5
