"""Where work units run: threads, processes (loky, joblib's engine) or a Dask cluster.

Every backend hands back :class:`concurrent.futures.Future` objects, so that the dispatcher
waits on them the same way. Units are submitted one at a time as the search reaches them (a
unit's budget is the best cost known when it starts, and units come from results of earlier
ones), which is why the backends use each engine's futures API (``ThreadPoolExecutor``,
loky's ``get_reusable_executor`` as joblib uses it, Dask actors) rather than
``joblib.Parallel``, which takes a fixed list of calls; ``joblib.Parallel`` runs the
fixed list of first guesses of ``solve_by_first_guess``.

* threads (:mod:`.threads`): the compiled search releases the GIL, so threads run in
  parallel and share the score table; a cancel reaches them at once (they poll its flag).
* processes (:mod:`.processes`): loky workers rebuild the score table once each; stopping
  kills them; a worker that dies has its units run again.
* dask (:mod:`.dask`, which imports Dask only when used): a ``LocalCluster`` of ``jobs``
  worker processes, or the cluster behind ``scheduler``, one actor per worker running the
  units; the units of a worker that dies are run again by the others.

>>> from mastermind.engines.exact.backends import make_backend
>>> backend = make_backend("threads", 2)
>>> backend.submit(sum, [1, 2]).result(), backend.slots
(3, 2)
>>> backend.close()
"""

from __future__ import annotations

from mastermind.engines.exact.backends.base import Backend, cancel_future, worker_count
from mastermind.engines.exact.backends.processes import ProcessBackend
from mastermind.engines.exact.backends.threads import ThreadBackend
from mastermind.engines.exact.options import BACKENDS, BackendName, check_backend, check_scheduler

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendName",
    "ProcessBackend",
    "ThreadBackend",
    "cancel_future",
    "check_backend",
    "check_scheduler",
    "make_backend",
    "worker_count",
]


def make_backend(name: str, jobs: int, scheduler: str | None = None) -> Backend:
    """The backend ``name`` with ``jobs`` workers (``scheduler``: an existing Dask cluster)."""
    check_backend(name)
    if scheduler is not None:
        check_scheduler(scheduler, name)
    if name == "threads":
        return ThreadBackend(jobs)
    if name == "processes":
        return ProcessBackend(jobs)
    from mastermind.engines.exact.backends.dask import DaskBackend

    return DaskBackend(jobs, scheduler)
