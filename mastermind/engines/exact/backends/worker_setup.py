"""What a worker process of this run does first: leave Ctrl-C to the run's own process.

Ctrl-C at a terminal reaches every process of the foreground group, the workers of a
local pool or cluster too. A worker that took it would die mid-unit, and its pool would
report the loss with tracebacks (loky's manager thread, Dask's scheduler), while the run's
own process is already stopping the units and reporting what they proved.
"""

from __future__ import annotations

import signal
from typing import Any


def ignore_interrupts() -> None:
    """Ignore SIGINT in this process (a worker's main thread: loky's initializer)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run by each worker of a local cluster as it starts."""
    ignore_interrupts()
