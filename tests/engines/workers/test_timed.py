"""Child-process time limits: results come back, slow jobs are stopped and say so, errors stay
one line. No wall-clock asserts: a job that the limit failed to stop never ends, and the
test hangs instead of passing."""

import os
import time
from pathlib import Path

import pytest

from mastermind.core.errors import MastermindError
from mastermind.engines.workers.timed import TimedWorker, run_with_time_limit


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
        "from mastermind.engines.workers.timed import TimedWorker\n"
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


def _until_cancelled(path, cancel=None):
    """Run until the token the worker gives is cancelled (``path`` written once started)."""
    Path(path).write_text("started")
    while not cancel.cancelled:
        time.sleep(0.01)
    return ("stopped", cancel.reason, os.getpid())


def _until_done(cancel=None):
    return "cancelled" if cancel.cancelled else "not cancelled"


def _deaf(path, cancel=None):
    """A job given a token that never looks at it."""
    Path(path).write_text("started")
    _forever()


def _wait_started(path):
    while not Path(path).exists():
        time.sleep(0.01)


class _Watcher:
    """Whoever cancelled the token (the Ctrl-C watchdog), told that the work is reporting."""

    winding_down = False

    def begin(self, status):
        pass

    def end(self, status):
        pass

    def wind_down(self):
        self.winding_down = True


def _asked_to_stop(worker, job, path):
    """Start ``job`` with a cancel token, cancel it once started; its answer (None: ended)
    and the token's watcher."""
    from mastermind.core.cancel import CancelToken

    token = CancelToken(watcher=_Watcher())
    worker.submit(job, (str(path),), 600, cancel=token)
    _wait_started(path)
    token.cancel()
    return worker.result(), token.watcher


def test_a_job_given_a_cancel_token_is_asked_to_stop_and_its_answer_comes_back(tmp_path, monkeypatch):
    from mastermind.core.cancel import CancelToken
    from mastermind.engines.workers import timed

    monkeypatch.setattr(timed, "STOP_WAIT", 60.0)  # (a loaded machine answers late, not never)
    with TimedWorker() as worker:
        pid = worker.run(os.getpid, (), time_limit=60)
        answer, watcher = _asked_to_stop(worker, _until_cancelled, tmp_path / "a")
        assert answer == ("stopped", "interrupted", pid)  # (the same child, not ended)
        assert watcher.winding_down  # (a Ctrl-C's watchdog waits for the answer)
        # not cancelled, the job runs as any other, its own token untouched
        assert worker.run(_until_done, (), 60, cancel=CancelToken()) == "not cancelled"
        assert worker.run(os.getpid, (), time_limit=60) == pid


def test_a_job_that_does_not_stop_when_asked_is_ended(tmp_path, monkeypatch):
    from mastermind.engines.workers import timed

    monkeypatch.setattr(timed, "STOP_WAIT", 0.3)
    with TimedWorker() as worker:
        pid = worker.run(os.getpid, (), time_limit=60)
        assert _asked_to_stop(worker, _deaf, tmp_path / "b")[0] is None
        assert _gone(pid) or _zombie(pid)
        assert worker.run(max, (1, 2), time_limit=60) == 2  # (a fresh child)


def _die_as_it_starts(conn, parent, stop):
    os._exit(3)


def test_a_child_that_dies_as_it_starts_is_told_with_its_exit_code(monkeypatch):
    """Not "did not start within 120 s", which it was told before (and a child that died
    before it took its end of the pipe was waited for the whole 120 s)."""
    from mastermind.engines.workers import timed

    monkeypatch.setattr(timed, "_serve", _die_as_it_starts)
    with TimedWorker() as worker, pytest.raises(MastermindError, match="ended as it started .exit code 3"):
        worker.run(max, (1, 2), time_limit=60)


@pytest.mark.integration
def test_a_parent_that_leaves_at_once_after_closing_its_worker_leaks_nothing():
    """The Ctrl-C path closes the worker, then leaves by os._exit (freeing a big search
    takes seconds): multiprocessing's resource tracker must find nothing left to clean up
    (it said "5 leaked semaphore objects", the stop event's, after every Ctrl-C of results)."""
    import subprocess
    import sys

    code = (
        "import os\n"
        "from mastermind.engines.workers.timed import TimedWorker\n"
        "if __name__ == '__main__':\n"
        "    worker = TimedWorker()\n"
        "    print(worker.run(pow, (2, 10), time_limit=60), flush=True)\n"
        "    worker.close(kill=True)\n"
        "    os._exit(130)\n"
    )
    # (the output is read to its end, so the tracker, which shares stderr, has ended too)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert (done.returncode, done.stdout) == (130, "1024\n")
    assert "leaked" not in done.stderr, done.stderr
