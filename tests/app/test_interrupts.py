"""The command line's Ctrl-C: it cancels the token of the running command only, and each
command starts with a token of its own (nothing to reset)."""

import signal
import subprocess
import sys
import time

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


def test_ctrl_c_before_any_work_unwinds_if_the_work_does_not_begin(patient_watchdog):
    from mastermind.app.interrupts import command_token, interrupt_handling

    with interrupt_handling():
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)  # (nothing runs: the command goes on a moment)
            assert command_token().cancelled
            time.sleep(60)  # still not at its work after START_GRACE: unwound
        assert command_token().cancelled


def test_ctrl_c_before_the_work_lets_the_work_stop_and_report(patient_watchdog):
    """Ctrl-C in a command's start-up (imports, the table) unwound it with "interrupted"
    alone, no JSON (a new user's trial): its work now begins, sees the cancel at once, and
    reports; nothing unwinds it meanwhile or after."""
    from mastermind.app.interrupts import START_GRACE, command_token, interrupt_handling, interrupted

    with interrupt_handling():
        signal.raise_signal(signal.SIGINT)
        assert interrupted()
        token = command_token()  # (asked for after Ctrl-C: cancelled at once)
        assert token.cancelled
        with token.running():  # the work: stopped by itself, reporting
            time.sleep(3 * START_GRACE)
        time.sleep(3 * START_GRACE)  # the report printed


def test_ctrl_c_between_blocks_of_work_unwinds_at_once(patient_watchdog, monkeypatch):
    """Past its start-up (a block of work has run), a command between blocks (a table
    between rows) is unwound at once to report: deferred, it went on with the next row until
    the watchdog's signal and had too little of its second left to print its JSON."""
    from mastermind.app import interrupts

    monkeypatch.setattr(interrupts, "START_GRACE", 600.0)  # (deferred, it would not unwind here)
    with interrupts.interrupt_handling():
        with interrupts.command_token().running():  # (the first row)
            pass
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
            time.sleep(30)  # (the next row: never reached)
        assert interrupts.command_token().cancelled


def test_outside_a_command_each_token_is_new_and_never_cancelled():
    from mastermind.app.interrupts import command_token, interrupted

    assert command_token() is not command_token()
    assert not command_token().cancelled and not interrupted()


CTRL_C_AFTER_THE_ANSWER = """
import signal, sys
import mastermind.app.cli as cli

def answered():
    print("the whole answer", flush=True)
    return 0

exit = sys.exit

def exit_interrupted(code):  # Ctrl-C as the interpreter shuts down, after the answer
    signal.raise_signal(signal.SIGINT)
    exit(code)

cli.main = answered
sys.exit = exit_interrupted
cli.run()
"""


def test_ctrl_c_after_the_whole_answer_keeps_its_exit_code():
    """The answer printed, a Ctrl-C in the shutdown (0.2-0.4 s) gave exit 130 after a report
    that said nothing had stopped: it now leaves with the command's code."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_AFTER_THE_ANSWER], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "the whole answer\n", "")


def test_a_first_ctrl_c_after_the_whole_answer_changes_nothing(patient_watchdog):
    """Printed in full (its one JSON object), a command's answer stands: a Ctrl-C then gave
    "interrupted" and exit 130 after a report that said nothing had stopped. A second one
    still unwinds."""
    from mastermind.app.interrupts import answered, command_token, interrupt_handling, interrupted

    with interrupt_handling():
        answered()
        signal.raise_signal(signal.SIGINT)
        assert not interrupted() and not command_token().cancelled
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    with interrupt_handling():  # the next command is not answered yet
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
            time.sleep(60)  # (unwound once it has not reached its work in START_GRACE)


def test_ctrl_c_while_a_line_is_awaited_unwinds_at_once(patient_watchdog):
    """An interactive session waiting for a line: nothing would stop by itself, and the
    person wants out now (a Ctrl-C before, deferred, unwinds as the wait begins)."""
    from mastermind.app.interrupts import interrupt_handling, reading_input

    with interrupt_handling():
        with pytest.raises(KeyboardInterrupt), reading_input():
            signal.raise_signal(signal.SIGINT)
    with interrupt_handling():
        signal.raise_signal(signal.SIGINT)  # (in the start-up: deferred)
        with pytest.raises(KeyboardInterrupt), reading_input():
            pass


def test_a_ctrl_c_while_the_command_line_is_imported_gives_one_line_and_130():
    """A Ctrl-C in the first tenth of a second, while Python imports the command line, gave a
    traceback and a death by SIGINT (a new user's trial). The import here raises it at once."""
    child = (
        "import sys\n"
        "class Ctrl:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'mastermind.app.cli':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Ctrl())\n"
        "from mastermind.__main__ import main\n"
        "main()\n"
    )
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "interrupted\n")


def test_the_watchdog_keeps_its_own_bookkeeping_of_the_work_under_the_command_token():
    """What the watchdog needs (whether work that stops by itself runs, how many blocks
    began, their status lines, whether the work is winding down) is the command's, told by
    the token's hook: the token itself keeps none of it."""
    from mastermind.app import interrupts
    from mastermind.core.cancel import CancelToken

    with interrupts.interrupt_handling():
        command = interrupts._commands[-1]
        token = interrupts.command_token()
        assert token.watcher is command.watch and not command.busy and command.began == 0
        with token.child() as search, search.running(lambda: "3 of 7 done"):
            assert command.busy and command.began == 1 and command.status_lines() == ["3 of 7 done"]
            assert not command.winding_down
            search.wind_down()
            assert command.winding_down
        assert not command.busy and command.began == 1 and command.status_lines() == []
    assert CancelToken().watcher is None  # (a token of no command: nobody to tell)
    assert not hasattr(CancelToken(), "busy") and not hasattr(CancelToken(), "status_lines")


def test_a_command_outside_the_ctrl_c_handling_has_a_token_and_clock_of_its_own():
    """A command run where Ctrl-C is not handled (another thread, a test): the clock still
    marks its start and its token is one for the block."""
    from mastermind.app import interrupts

    assert not interrupts._commands
    with interrupts.command_clock(30.0):
        token = interrupts.command_token()
        assert interrupts.command_token() is token and not interrupts.interrupted()
        with interrupts.command_work(30.0) as work:
            token.cancel()
            assert work.interrupted and interrupts.command_token().cancelled
    assert interrupts.command_token() is not token


def _child_outcome(body: str) -> tuple[int, str, str]:
    """Run ``body`` (indented under a command's Ctrl-C handling) in a fresh Python, where
    the watchdog may end the process."""
    child = (
        "import signal, time\n"
        "from mastermind.app import interrupts\n"
        "with interrupts.interrupt_handling():\n"
        "    token = interrupts.command_token()\n" + body
    )
    proc = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


WAITS = {
    # kernels loading: a start-up that cannot look at the token, marked with ``starting``
    "start-up": (
        "    with token.starting():\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        "        time.sleep({pause})\n"
    ),
    # the score table's build stopped, the work that reports to follow (work_follows): its
    # set-up in between (imports, kernels) gave "interrupted" alone when it outlasted GRACE
    "work follows": (
        "    with token.child() as build, build.running():\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        "    interrupts.work_follows()\n"
        "    time.sleep({pause})\n"
    ),
}


@pytest.mark.parametrize("wait", sorted(WAITS))
def test_a_ctrl_c_in_a_start_up_that_cannot_look_at_the_token_waits_for_it(wait):
    """Ctrl-C while the work is on its way (kernels loading; a stopped build's work to follow)
    longer than GRACE and START_GRACE: the watchdog neither unwinds nor ends the command,
    whose work then sees the cancel at once and reports (under load the export of the optimum
    unwound here with "interrupted" alone, no JSON)."""
    from mastermind.app.interrupts import GRACE, START_GRACE

    body = WAITS[wait].format(pause=3 * max(GRACE, START_GRACE)) + (
        "    with token.child() as work, work.running():\n"
        "        print('reported', work.cancelled, work.reason)\n"
    )
    code, out, err = _child_outcome(body)
    assert (code, out, err) == (0, "reported True interrupted\n", "")


def test_a_start_up_that_hangs_after_a_ctrl_c_is_ended_all_the_same():
    """The wait for a start-up is bounded (WIND_DOWN): one that hangs is ended with 130."""
    body = (
        "    interrupts.WIND_DOWN = 1.0\n"
        "    with token.starting():\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        "        time.sleep(100)\n"
        "    print('not reached')\n"
    )
    code, out, err = _child_outcome(body)
    assert (code, out, err) == (130, "", "interrupted\n")


def test_work_running_inside_a_start_up_has_the_usual_grace():
    """A start-up that holds the whole of a search's set-up (the exact solve marks itself from
    its entry) waits past START_GRACE for the search; once the search runs, one that does not
    stop is ended after GRACE, not after the start-up's WIND_DOWN (set to a minute here)."""
    from mastermind.app.interrupts import GRACE, START_GRACE

    pause = 3 * max(GRACE, START_GRACE)
    body = (
        "    interrupts.WIND_DOWN = 60.0\n"
        "    with token.starting():\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        f"        time.sleep({pause})\n"
        "        print('still starting', flush=True)\n"
        "        with token.child() as work, work.running(lambda: 'searched a little'):\n"
        "            time.sleep(100)\n"
    )
    start = time.monotonic()
    code, out, err = _child_outcome(body)
    assert (code, out, err) == (130, "still starting\n", "searched a little\ninterrupted\n")
    assert time.monotonic() - start < 40  # (WIND_DOWN would have kept it 60 s)
