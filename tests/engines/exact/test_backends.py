"""The backends' futures keep an executor's protocol: a unit not yet sent can be withdrawn,
and its waiters wake at once; a unit sent cannot, and keeps its answer; closing after a stop
ends every future."""

from __future__ import annotations

import time
from concurrent.futures import CancelledError, wait

import pytest

from mastermind.engines.exact.backends import make_backend

UNITS = 8  # more than any backend sends ahead with one worker


def _started(future, seconds=30.0):
    """Wait (without a time assertion) until ``future``'s unit is sent."""
    end = time.monotonic() + seconds
    while not (future.running() or future.done()) and time.monotonic() < end:
        time.sleep(0.01)
    return future.running() or future.done()


@pytest.fixture(params=["threads", "processes", pytest.param("dask", marks=pytest.mark.integration)])
def backend(request):
    if request.param == "dask":
        pytest.importorskip("distributed", reason="the cluster extra (dask[distributed]) is not installed")
    pool = make_backend(request.param, 1)
    yield pool
    pool.close(kill=True)


def test_a_unit_not_sent_is_withdrawn_and_its_waiters_wake(backend):
    futures = [backend.submit(time.sleep, 0.3) for _ in range(UNITS)]
    assert _started(futures[0])
    last = futures[-1]
    assert last.cancel()
    done, _ = wait([last], timeout=30)
    assert last in done and last.cancelled()  # (before: seen only when its backend dropped it)
    assert not futures[0].cancel()  # sent: it runs to its answer
    assert futures[0].result(timeout=60) is None


def test_closing_after_a_stop_ends_every_future(backend):
    futures = [backend.submit(time.sleep, 0.3) for _ in range(UNITS)]
    assert _started(futures[0])
    for future in futures[1:]:
        future.cancel()  # what a stop does: withdraw the units not sent
    backend.close(kill=True)
    _, not_done = wait(futures, timeout=30)
    assert not not_done
    for future in futures:
        try:
            future.result(timeout=0)
        except CancelledError:
            pass


def test_a_unit_that_kills_its_worker_leaves_no_future_open():
    """A unit that ends its worker process is run again up to three times; the units beside
    it are run again too, and every future ends. (Loky's callbacks asked loky for its
    executor in its own manager thread: the units waiting failed with "cannot join current
    thread", and with hundreds waiting the recursion overflowed and a future never ended.)"""
    import os

    from joblib.externals.loky.process_executor import BrokenProcessPool

    pool = make_backend("processes", 1)
    try:
        futures = [pool.submit(os._exit, 3)] + [pool.submit(abs, -i) for i in range(40)]
        _, not_done = wait(futures, timeout=300)
        assert not not_done
        assert isinstance(futures[0].exception(), BrokenProcessPool)
        for i, future in enumerate(futures[1:]):
            error = future.exception()
            assert future.result() == i if error is None else isinstance(error, BrokenProcessPool)
        assert sum(f.exception() is None for f in futures[1:]) >= 30  # those after it ran
    finally:
        pool.close(kill=True)
