"""The read-reply loop: piped input, end of input, Ctrl-C."""

import io

from mastermind.app.interactive.assistant import Assistant
from mastermind.app.interactive.terminal import run_session

from .conftest import FirstCandidate


def run(session, text):
    out, err = io.StringIO(), io.StringIO()
    code = run_session(session, io.StringIO(text), out, err)
    return code, out.getvalue(), err.getvalue()


def test_piped_input_is_echoed_after_each_prompt(table46):
    code, out, err = run(Assistant(FirstCandidate(table46)), "\n4B0W\n")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[1] == "Turn 1 - 1296 candidates - suggested guess: 1111"
    assert lines[2:4] == ["guess [1111]> ", "feedback for 1111> 4B0W"]
    assert lines[4] == "Solved: the secret is 1111, found in 1 guess."


def test_end_of_input_ends_cleanly(table46):
    code, out, err = run(Assistant(FirstCandidate(table46)), "\n0B0W\n")
    assert code == 0 and err == ""
    assert out.splitlines()[-3:] == [
        "Stopped after 1 guess, 625 candidates left.",
        "turn  guess  feedback  left",
        "   1  1111   0B0W       625",
    ]


class Interrupting(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


def test_ctrl_c_ends_cleanly(table46):
    out, err = io.StringIO(), io.StringIO()
    code = run_session(Assistant(FirstCandidate(table46)), Interrupting(), out, err)
    assert code == 130 and err.getvalue() == "\ninterrupted\n"
    # the game so far, as at the end of input (it was "interrupted" alone)
    assert out.getvalue().rstrip().endswith("Stopped after 0 guesses, 1296 candidates left.")
    assert "Traceback" not in out.getvalue()
