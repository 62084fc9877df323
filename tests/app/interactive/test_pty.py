"""Once through a real terminal (a pseudo-terminal via pexpect): prompts, Ctrl-D, Ctrl-C."""

import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect (extra: test) is not installed")

pytestmark = pytest.mark.integration


def spawn(*args):
    # generous timeout: a fresh process may compile numba kernels on a loaded machine
    return pexpect.spawn(
        sys.executable,
        ["-m", "mastermind.app.cli", *args],
        encoding="utf-8",
        timeout=180,
        dimensions=(40, 120),
    )


def expect(child, text):
    try:
        child.expect_exact(text)
    except pexpect.TIMEOUT:  # pragma: no cover - diagnostics only
        pytest.fail(f"no {text!r} on the terminal; last output: {child.before[-500:]!r}")


def ended(child):
    """The exit code, and what the terminal showed after the last text expected (its lines
    stripped: a terminal ends lines with CR LF)."""
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    return child.exitstatus, [line.strip() for line in child.before.splitlines() if line.strip()]


def test_assist_in_a_terminal_then_ctrl_d():
    child = spawn("assist")
    expect(child, "Turn 1 - 1296 candidates - suggested guess: 1122")
    expect(child, "guess [1122]> ")
    child.sendline("")
    expect(child, "feedback for 1122> ")
    child.sendline("3B1W")
    expect(child, "impossible feedback 3B1W")
    expect(child, "feedback for 1122> ")
    child.sendline("1B0W")
    expect(child, "Turn 2 - 256 candidates - suggested guess: 1344")
    expect(child, "guess [1344]> ")
    child.sendeof()
    expect(child, "Stopped after 1 guess, 256 candidates left.")
    # (only the exit code was checked) Ctrl-D ends the session there, with the table of the
    # turns played, and nothing else: no prompt again, no "interrupted"
    code, rest = ended(child)
    assert code == 0
    assert [line.split() for line in rest] == [
        ["turn", "guess", "feedback", "left"],
        ["1", "1122", "1B0W", "256"],
    ]


def test_play_in_a_terminal_then_ctrl_c():
    child = spawn("play", "--seed", "3")
    expect(child, "guess 1> ")
    child.sendline("1234")
    child.expect(r"\dB\dW")
    expect(child, "guess 2> ")
    time.sleep(0.2)  # let it settle in the line editor
    child.sendintr()
    expect(child, "interrupted")
    assert ended(child) == (130, [])  # (nothing after: no prompt again, no report of a game)
