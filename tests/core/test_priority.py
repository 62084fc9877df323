"""Lowering a thread's priority changes that thread's nice value only, never the process's."""

import os
import sys
import threading

import pytest

from mastermind.core.priority import lower_thread_priority


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's")
def test_only_the_calling_thread_is_lowered():
    before = os.getpriority(os.PRIO_PROCESS, 0)
    seen: list[tuple[bool, int]] = []

    def background():
        done = lower_thread_priority(3)
        seen.append((done, os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))

    thread = threading.Thread(target=background)
    thread.start()
    thread.join()
    assert seen == [(True, min(19, before + 3))]
    assert os.getpriority(os.PRIO_PROCESS, 0) == before  # (this thread's, the process's)


def test_no_niceness_changes_nothing():
    assert lower_thread_priority(0) is False
