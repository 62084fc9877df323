"""Child-process time limits: results come back, slow jobs are stopped and say so, errors stay
one line. No wall-clock asserts: a job that the limit failed to stop never ends, and the
test hangs instead of passing."""

import os
import time
from pathlib import Path

import pytest

from mastermind.core.errors import MastermindError
from mastermind.engines.models.timed import TimedWorker, run_with_time_limit


def _fail(message):
    raise MastermindError(message)


def _forever():
    while True:
        time.sleep(0.05)


def _wait_for(path, value):
    """Finish only once the parent has written ``path``: proof that both run at once."""
    while not Path(path).exists():
        time.sleep(0.01)
    return value


def _crash():
    raise ZeroDivisionError("boom")


def _gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_result_timeout_and_reuse():
    with TimedWorker() as worker:
        assert worker.run(sum, ([1, 2, 3],), time_limit=60) == 6
        pid = worker.run(os.getpid, (), time_limit=60)
        assert pid != os.getpid()
        assert worker.run(_forever, (), time_limit=0.5) is None  # stopped: None says "no result"
        assert _gone(pid)  # the child that ran the job was killed, not left behind
        assert worker.run(max, (3, 9), time_limit=60) == 9  # a fresh child after the kill
        assert worker.run(os.getpid, (), time_limit=60) != pid


def test_errors_come_back_as_one_line():
    with pytest.raises(MastermindError, match="bad thing"):
        run_with_time_limit(_fail, ("bad thing",), 60)
    with pytest.raises(MastermindError, match="ZeroDivisionError: boom"):
        run_with_time_limit(_crash, (), 60)
    with pytest.raises(MastermindError, match="time limit"):
        run_with_time_limit(sum, ([],), 0)


def test_submit_lets_the_parent_work_meanwhile(tmp_path):
    flag = tmp_path / "parent-was-here"
    with TimedWorker() as worker:
        worker.submit(_wait_for, (str(flag), "done"), time_limit=600)
        flag.write_text("x")  # the parent's own work, while the child waits for it
        assert worker.result() == "done"
        worker.submit(_forever, (), time_limit=0.5)
        assert worker.result() is None  # the deadline stops a job that never ends
        assert worker.run(max, (1, 2), time_limit=60) == 2


def test_the_child_leaves_ctrl_c_to_the_parent():
    """Ctrl-C at a terminal reaches the child too; the parent decides (and ends the child), so
    the child neither dies with its own traceback nor drops the job it runs."""
    import signal

    with TimedWorker() as worker:
        worker.run(pow, (2, 3), time_limit=60)  # started
        os.kill(worker._proc.pid, signal.SIGINT)
        assert worker.run(pow, (2, 10), time_limit=60) == 1024
