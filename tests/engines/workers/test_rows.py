"""The one loop of timed rows (``table``, ``results``): each row a time of its own within the
run's token; a row that times out, one that fails, Ctrl-C in a row and between rows, and the
run's time limit cutting a row. No test here depends on how fast the machine is: a time
limit is awaited (its token's cancel), never raced."""

import time

import pytest

from mastermind.core.cancel import INTERRUPTED, TIME_LIMIT, CancelToken, StopReason
from mastermind.core.errors import MastermindError
from mastermind.engines.workers.rows import Rows, RowTime, run_rows
from mastermind.engines.workers.timed import TimedWorker, wait_for


def test_every_row_done_in_order():
    with CancelToken() as token:
        run = run_rows(["a", "b", "c"], lambda item, clock: item.upper(), token=token, row_time_limit=60)
    assert run == Rows(["A", "B", "C"], None, None, None)


def test_a_row_that_times_out_stops_alone_and_the_next_row_gets_its_own_time():
    """Each row's token is cancelled at the row's limit (reason "time limit"); the run's is
    not, and the next row starts with a fresh time."""
    seen = []

    def row(item: str, clock: RowTime) -> str:
        assert not clock.token.cancelled  # (a fresh time for every row)
        while not clock.token.cancelled:  # the row's work, polling its token until its time is up
            time.sleep(0.005)
        seen.append((item, clock.token.reason, clock.cut))
        return f"{item} open"

    with CancelToken() as token:
        run = run_rows(["p4c7", "p5c8"], row, token=token, row_time_limit=0.05)
        assert not token.cancelled
    assert run.rows == ["p4c7 open", "p5c8 open"] and run.stopped is None
    assert seen == [("p4c7", TIME_LIMIT, False), ("p5c8", TIME_LIMIT, False)]


def test_a_job_past_the_rows_time_in_the_child_leaves_the_worker_for_the_next_row():
    """The row's job (a solver that cannot stop itself) past the row's time: None, its child
    ended; the next row's job runs in a fresh child."""

    def row(item: str, clock: RowTime):
        if item == "slow":  # (its limit: what is left of the row's, far less than the sleep)
            return worker.run(time.sleep, (3600,), wait_for(min(clock.remaining() or 0.2, 0.2)))
        return worker.run(pow, (2, 10), wait_for(clock.remaining()))

    with TimedWorker() as worker, CancelToken() as token:
        run = run_rows(["slow", "quick"], row, token=token, row_time_limit=600, worker=worker)
    assert run.rows == [None, 1024] and run.stopped is None


def test_a_row_that_fails_ends_the_child_and_the_error_goes_up():
    with TimedWorker() as worker, CancelToken() as token:
        worker.run(pow, (2, 3), 600)  # (a child started)
        with pytest.raises(MastermindError, match="failed"):
            run_rows(
                ["12", "not a number", "7"],
                lambda text, clock: worker.run(int, (text,), wait_for(clock.remaining())),
                token=token,
                row_time_limit=600,
                worker=worker,
            )
        assert worker._proc is None  # (ended: the next job starts a fresh child)
        assert worker.run(pow, (2, 4), 600) == 16


def test_ctrl_c_in_a_row_ends_the_child_and_stops_the_run_with_the_rows_done():
    def row(item: int, clock: RowTime) -> int:
        if item == 3:
            raise KeyboardInterrupt  # (Ctrl-C while the row's job runs)
        return item * item

    with TimedWorker() as worker, CancelToken() as token:
        worker.run(pow, (2, 3), 600)
        run = run_rows([1, 2, 3, 4], row, token=token, row_time_limit=600, worker=worker)
        assert worker._proc is None
    assert run.rows == [1, 4] and run.stopped is INTERRUPTED and run.at == 3
    assert isinstance(run.interrupt, KeyboardInterrupt)


def test_ctrl_c_between_rows_stops_before_the_next_row():
    """The token cancelled (as Ctrl-C does, in-process) once a row is done: no row begins
    after it."""
    begun = []

    def row(item: str, clock: RowTime) -> str:
        begun.append(item)
        if item == "p2c3":
            token.cancel()  # (Ctrl-C as the row ends)
        return item

    with TimedWorker() as worker, CancelToken() as token:
        worker.run(pow, (2, 3), 600)  # (a child started: ended at once when the run stops,
        # as a graceful exit takes longer than Ctrl-C gives the command to report)
        run = run_rows(["p2c2", "p2c3", "p2c4"], row, token=token, row_time_limit=600, worker=worker)
        assert worker._proc is None
    assert begun == ["p2c2", "p2c3"]
    assert run.rows == ["p2c2", "p2c3"] and run.stopped == StopReason.INTERRUPTED and run.at == "p2c4"


@pytest.mark.parametrize("finished", [True, False])
def test_a_row_the_runs_time_limit_cut_stops_the_run_after_it_unless_it_finished(finished):
    """The run's deadline passing during a row: an unfinished row is kept and the run stops
    after it; a finished one lets the loop go on to its check before the next row."""

    def row(item: int, clock: RowTime) -> tuple[int, bool]:
        if item == 1:
            token.cancel(TIME_LIMIT)  # (the run's deadline, passed during the row)
        return item, finished

    with CancelToken() as token:
        run = run_rows([0, 1, 2], row, token=token, row_time_limit=600, finished=lambda r: r[1])
    assert run.rows == [(0, finished), (1, finished)] and run.stopped is TIME_LIMIT
    assert run.at == (2 if finished else None)  # (stopped before row 2 began, or after row 1)


def test_a_row_stopped_by_the_runs_token_is_not_kept():
    """A row with nothing to report once the run's token is cancelled (it raises Stopped):
    the run stops at it, the row unfinished."""

    def row(item: int, clock: RowTime) -> int:
        if item == 1:
            token.cancel(TIME_LIMIT)
            clock.token.check()  # (the row's token: cancelled with the run's)
        return item

    with CancelToken() as token:
        run = run_rows([0, 1, 2], row, token=token, row_time_limit=None)
    assert run.rows == [0] and run.stopped is TIME_LIMIT and run.at == 1


def test_a_rows_time_is_cut_by_what_is_left_of_the_runs():
    with CancelToken(10.0) as run:
        with RowTime(run, 60.0) as long, RowTime(run, 5.0) as short, RowTime(run, None) as free:
            assert long.cut and not short.cut and free.cut
            assert long.token.deadline == run.deadline and short.remaining() <= 5.0
    with CancelToken() as unlimited, RowTime(unlimited, 5.0) as row, RowTime(unlimited, None) as free:
        assert not row.cut and not free.cut and free.remaining() is None


def test_each_row_is_kept_before_its_step_and_a_ctrl_c_at_the_step_keeps_it():
    """`table --json` stopped by Ctrl-C as its bar stepped past the first row printed no row:
    the step came before the row was in the run (test_table_prints_the_rows_finished)."""
    steps: list[int] = []

    def step(done: int) -> None:
        steps.append(done)
        if done == 4:
            raise KeyboardInterrupt

    run = run_rows([1, 2, 3], lambda n, clock: n * n, token=CancelToken(), row_time_limit=None, kept=step)
    assert steps == [1, 4] and run.rows == [1, 4] and run.stopped == INTERRUPTED
    assert run.at is None  # (stopped between rows: none unfinished)
