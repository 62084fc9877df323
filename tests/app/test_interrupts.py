"""The command line's Ctrl-C: it cancels the token of the running command only, and each
command starts with a token of its own (nothing to reset)."""

import signal

import pytest

from mastermind.core.cancel import INTERRUPTED


@pytest.fixture
def patient_watchdog(monkeypatch):
    """The watchdog ends a command that has not stopped within GRACE seconds: these blocks end
    by themselves, however loaded the machine."""
    from mastermind.app import interrupts

    monkeypatch.setattr(interrupts, "GRACE", 600.0)


def test_ctrl_c_cancels_the_command_token_and_running_work_stops_by_itself(patient_watchdog):
    from mastermind.app.interrupts import command_token, interrupt_handling, interrupted

    with interrupt_handling():
        token = command_token()
        assert command_token() is token and not interrupted()
        with token.child() as search, search.running():
            signal.raise_signal(signal.SIGINT)  # no KeyboardInterrupt: the search stops itself
            assert search.cancelled and search.reason == INTERRUPTED
        assert interrupted()
    with interrupt_handling():  # the next command starts afresh: nothing to reset
        assert not interrupted() and not command_token().cancelled
        assert command_token() is not token


def test_ctrl_c_with_nothing_running_unwinds_at_once(patient_watchdog):
    from mastermind.app.interrupts import command_token, interrupt_handling

    with interrupt_handling():
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        assert command_token().cancelled


def test_outside_a_command_each_token_is_new_and_never_cancelled():
    from mastermind.app.interrupts import command_token, interrupted

    assert command_token() is not command_token()
    assert not command_token().cancelled and not interrupted()
