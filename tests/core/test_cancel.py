"""The cancel token: a flag compiled code polls, a deadline, a reason, tokens made from it."""

import threading
import time

import pytest

import mastermind.core.cancel as cancel_module
from mastermind.core.cancel import INTERRUPTED, TIME_LIMIT, CancelToken, Stopped, StopReason
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


class Tally:
    """A watcher that counts the work running under a token (as the Ctrl-C watchdog does)."""

    def __init__(self) -> None:
        self.running, self.lines, self.winding_down = 0, [], False

    def begin(self, status):
        self.running += 1
        self.lines.append(status)

    def end(self, status):
        self.running -= 1
        self.lines.remove(status)

    def wind_down(self):
        self.winding_down = True


def test_two_tokens_share_nothing():
    seen_a, seen_b = Tally(), Tally()
    a, b = CancelToken(watcher=seen_a), CancelToken(watcher=seen_b)
    a.cancel()
    assert not b.cancelled
    with a.running():
        assert seen_a.running == 1 and seen_b.running == 0


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


def test_running_work_tells_the_watcher_of_the_family_what_it_did():
    seen = Tally()
    token = CancelToken(watcher=seen)
    child = token.child()
    with child.running(lambda: "3 of 7 done"):
        assert seen.running == 1 and [line() for line in seen.lines] == ["3 of 7 done"]
        assert not seen.winding_down
        child.wind_down()
        assert seen.winding_down
    assert seen.running == 0 and seen.lines == []


def test_without_a_watcher_running_work_tells_nobody():
    token = CancelToken()
    with token.running(lambda: "nothing") as same:
        token.wind_down()
        assert same is token and token.watcher is None


def test_the_stop_reason_is_an_enum_that_reads_as_its_text():
    import json

    with CancelToken(time_limit=3600) as token:
        token.cancel("time limit")  # (given as its text: kept as the enum)
        assert token.reason is StopReason.TIME_LIMIT and token.reason == "time limit"
        assert not token.interrupted
    assert json.dumps({"stopped": token.reason}) == '{"stopped": "time limit"}'
    assert f"stopped ({StopReason.INTERRUPTED})" == "stopped (interrupted)"
    other = CancelToken()
    other.cancel("the search ended")  # (any other reason stays as given)
    assert other.reason == "the search ended" and not other.interrupted


def test_a_time_limit_counts_from_its_start():
    import time

    start = time.monotonic() - 10.0
    with CancelToken(time_limit=3600, start=start) as token:
        assert token.deadline == start + 3600 and not token.cancelled
    with CancelToken(time_limit=5, start=start) as late:  # (its time was up when it was made)
        assert late.cancelled and late.reason is StopReason.TIME_LIMIT
        assert late.remaining() == 0.0 and late.remaining(1e-3) == 1e-3


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
