"""The cancel token: a flag compiled code polls, a deadline, a reason, tokens made from it."""

import threading
import time

import pytest

import mastermind.core.cancel as cancel_module
from mastermind.core.cancel import INTERRUPTED, TIME_LIMIT, CancelToken, Stopped
from mastermind.core.errors import MastermindError


def wait_until(predicate, seconds: float = 30.0) -> bool:
    """Poll ``predicate`` until it holds (a timer thread's work: not a question of speed)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_a_new_token_is_not_cancelled_and_its_flag_is_the_kernels_array():
    token = CancelToken()
    assert not token.cancelled and token.reason is None and token.deadline is None
    assert token.flag.dtype.name == "uint8" and token.flag.shape == (1,) and token.flag[0] == 0
    token.check()  # nothing raised
    assert token.remaining() is None


def test_cancel_sets_the_flag_and_keeps_the_first_reason():
    token = CancelToken()
    token.cancel("stop now")
    token.cancel(TIME_LIMIT)
    assert token.cancelled and token.flag[0] == 1 and token.reason == "stop now"
    with pytest.raises(Stopped):
        token.check()


def test_a_flag_set_directly_reads_as_interrupted():
    token = CancelToken()
    token.flag[0] = 1  # as compiled code or another process's stand-in may
    assert token.cancelled and token.reason == INTERRUPTED


def test_children_are_cancelled_with_their_parent_not_the_other_way():
    parent = CancelToken()
    with parent.child() as child, child.child() as grandchild:
        child_alone = parent.child()
        child_alone.cancel("alone")
        assert not parent.cancelled and not child.cancelled
        parent.cancel()
        assert child.cancelled and grandchild.cancelled and grandchild.reason == INTERRUPTED
        assert child_alone.reason == "alone"
    late = parent.child()
    assert late.cancelled and late.reason == INTERRUPTED  # made after the cancel: cancelled at once


def test_two_tokens_share_nothing():
    a, b = CancelToken(), CancelToken()
    a.cancel()
    assert not b.cancelled
    with a.running():
        assert a.busy and not b.busy


def test_a_time_limit_cancels_the_token_with_its_reason():
    with CancelToken(time_limit=0.01) as token:
        assert wait_until(lambda: token.flag[0] == 1)  # set by the timer: compiled code sees it
        assert token.reason == TIME_LIMIT
    assert token.remaining() == 0.0


def test_a_child_has_the_earlier_deadline_and_its_own_time_limit_stops_it_alone():
    with CancelToken(time_limit=3600) as parent, parent.child(time_limit=0.01) as child:
        assert child.deadline < parent.deadline
        assert wait_until(lambda: child.flag[0] == 1) and child.reason == TIME_LIMIT
        assert not parent.cancelled
        with parent.child() as inherits:
            assert inherits.deadline == parent.deadline


def test_a_passed_deadline_is_seen_before_the_timer_fires(monkeypatch):
    token = CancelToken(time_limit=3600)
    later = time.monotonic() + 7200
    monkeypatch.setattr(cancel_module.time, "monotonic", lambda: later)
    assert token.cancelled and token.reason == TIME_LIMIT
    token.close()


def test_closing_stops_the_timer_and_leaves_the_token_as_it_is():
    """(Only the flag was looked at, after a sleep that a loaded machine could outlast.) The
    timer's thread ends without firing, whatever the time it is given; a token closed keeps
    its state, cancelled or not, and a child closed is no longer one of its parent's."""
    token = CancelToken(time_limit=0.05)
    timer = token._timer
    assert timer is not None and timer.is_alive()
    token.close()
    timer.join(60)  # (had it not been stopped, it would fire 0.05 s in and end)
    assert not timer.is_alive() and token._timer is None
    # nothing set the flag or a reason: the timer never fired (asking `cancelled` would set
    # them, as the deadline passes all the same)
    assert token.flag[0] == 0 and token._reason is None
    assert token.remaining() is not None and token.deadline is not None
    cancelled = CancelToken(time_limit=3600)
    cancelled.cancel()
    cancelled.close()
    assert cancelled.cancelled and cancelled.reason == INTERRUPTED
    parent = CancelToken()
    child = parent.child()
    child.close()
    parent.cancel()
    assert parent.cancelled and not child.cancelled  # (its work was done when it was closed)


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), float("inf")])
def test_bad_time_limits_are_refused(seconds):
    with pytest.raises(MastermindError, match="positive number of seconds"):
        CancelToken(time_limit=seconds)


def test_running_work_says_it_is_busy_and_what_it_did():
    token = CancelToken()
    child = token.child()
    assert not token.busy
    with child.running(lambda: "3 of 7 done"):
        assert token.busy and token.status_lines() == ["3 of 7 done"]
        assert not token.winding_down
        child.wind_down()
        assert token.winding_down
    assert not token.busy and token.status_lines() == []


def test_the_module_keeps_no_process_wide_state():
    """Engines read no global cancel state: there is none left to read."""
    kinds = (threading.Event, list, dict, set, CancelToken)
    shared = [
        name
        for name, value in vars(cancel_module).items()
        if isinstance(value, kinds) and not name.startswith("__")
    ]
    assert shared == []


def test_a_token_made_after_its_parents_deadline_is_born_cancelled():
    """Its parent's timer may not have fired yet (a loaded machine): the deadline decides."""
    import time

    with CancelToken(3600) as parent:
        parent.deadline = time.monotonic() - 1  # (as if the hour had passed, the timer late)
        with parent.child() as child:
            assert child.cancelled and child.flag[0] == 1 and child.reason == "time limit"
