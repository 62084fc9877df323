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


@pytest.mark.integration
def test_the_worker_ends_with_its_parent():
    """A parent that dies without closing its worker (killed, or ended by the Ctrl-C
    watchdog's immediate exit) leaves no child computing for nobody."""
    import subprocess
    import sys

    code = (
        "import time\n"
        "from mastermind.engines.models.timed import TimedWorker\n"
        "worker = TimedWorker()\n"
        "worker.submit(time.sleep, (120,), 200)\n"
        "print(worker._proc.pid, flush=True)\n"
        "time.sleep(120)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    worker = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    while not _gone(worker) and not _zombie(worker):  # no timing assert: hangs if it stays
        time.sleep(0.05)


def _zombie(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True
