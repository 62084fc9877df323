"""Background work in a thread of its own: lowering that thread's scheduling priority, so
that on a busy core it takes only what the other threads leave (Linux schedules each thread
by its own nice value; elsewhere the priority is per process, and is left as it is).

The scheduler gives a nice-0 thread 1024 shares against 110 for nice 10: beside one busy
thread of the usual priority on the same core, a thread at nice 10 gets about a tenth of it,
and on an idle core all of it.
"""

from __future__ import annotations

import os
import sys
import threading


def lower_thread_priority(niceness: int) -> bool:
    """Raise the nice value of the calling thread (never of the whole process) by
    ``niceness``; whether it could (False: another system, or not allowed)."""
    if niceness <= 0 or not sys.platform.startswith("linux"):
        return False
    tid = threading.get_native_id()
    try:
        now = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, now + niceness))
    except OSError:
        return False
    return True
