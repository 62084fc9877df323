"""The duty cycle: background work rests so that it works its share of the wall time, never
rests below a burst or at a full share, and a cancel ends a rest."""

import itertools

import pytest

from mastermind.core.cancel import CancelToken
from mastermind.core.duty import BURST, DutyCycle
from mastermind.core.errors import MastermindError


def _clock(times):
    return iter(times).__next__


@pytest.mark.parametrize("share", [0.1, 0.25, 0.5, 0.9])
def test_rests_leave_the_work_its_share_of_the_wall_time(share):
    rests: list[float] = []
    now = [0.0]
    duty = DutyCycle(
        share, clock=lambda: now[0], rest=lambda s: (rests.append(s), now.__setitem__(0, now[0] + s))
    )
    worked = 0.0
    for step in itertools.islice(itertools.cycle([0.01, 0.07, 0.2]), 60):
        now[0] += step
        worked += step
        duty.tick()
    assert duty.rested == pytest.approx(sum(rests))
    wall = now[0]
    # the work done since the last rest is less than a burst: the share holds up to that
    assert worked / wall == pytest.approx(share, abs=BURST / wall + 1e-9)


def test_a_full_share_or_work_shorter_than_a_burst_never_rests():
    rests: list[float] = []
    DutyCycle(1.0, clock=_clock([0.0, 100.0]), rest=rests.append).tick()
    DutyCycle(0.5, clock=_clock([0.0, BURST / 2]), rest=rests.append).tick()
    assert rests == []


@pytest.mark.parametrize("share", [0, -0.5, 1.5, float("nan")])
def test_a_share_outside_zero_to_one_is_refused(share):
    with pytest.raises(MastermindError, match="share"):
        DutyCycle(share)


def test_a_cancel_ends_a_rest():
    token = CancelToken()
    token.cancel()
    duty = DutyCycle(1e-6, token, clock=_clock([0.0, 1.0, 1.0]))
    duty.tick()  # a rest of about 11 days, unless the cancel ends it
    assert duty.rested > 1e5
