"""``--time-limit`` counts the whole command: from the moment the shared command wrapper
starts it, before the imports and checks of the command's body. The time limit is kept by
the token of the command's work (:func:`~mastermind.app.interrupts.command_work`), nowhere
else."""

import time
from types import SimpleNamespace

import pytest
import typer
from typer.testing import CliRunner

from mastermind.app import interrupts
from mastermind.app.interrupts import command_clock, command_work


class FakeClock:
    """The command clock moved by hand (the interrupts module's alone): no test here
    depends on how fast the machine is."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(interrupts, "time", SimpleNamespace(monotonic=fake))
    return fake


def test_the_work_of_a_command_has_its_deadline_from_the_command_start(clock):
    with command_clock(10.0):
        began = clock.now
        clock.now += 3.0  # (the body's imports)
        with command_work(10.0) as whole, whole.child(4.0) as part:
            assert whole.deadline == began + 10.0  # (the command's: from its start)
            assert part.deadline is not None and part.deadline <= whole.deadline
        with command_work(None) as free:
            assert free.deadline is None and free.remaining() is None


def test_outside_a_command_the_time_limit_counts_from_now(clock):
    with command_clock():
        clock.now += 5.0
    before = time.monotonic()
    with command_work(10.0) as token:  # (the mark went with its command)
        assert token.deadline is not None and token.deadline >= before + 10.0


def test_ctrl_c_reaches_the_work_of_the_command():
    with command_clock(60.0), command_work(60.0) as work:
        interrupts.command_token().cancel()
        assert work.cancelled and work.interrupted


def test_the_shared_command_wrapper_starts_the_clock(clock):
    from mastermind.app.commands.common import command

    app = typer.Typer()
    seen: list[float | None] = []
    began = clock.now

    @command(app, "work", help="Work for a while.")
    def work(seconds: float = 10.0) -> None:
        clock.now += 2.5  # (what the command does before it reads its limit)
        with command_work(seconds) as token:
            seen.append(token.deadline)

    @command(app, "other", help="Nothing.")
    def other() -> None:
        pass

    result = CliRunner().invoke(app, ["work", "--seconds", "4"])
    assert result.exit_code == 0, result.output
    assert seen == [began + 4.0]


def test_the_stop_note_says_the_limit_counts_the_whole_command(clock):
    from mastermind.app.interrupts import limit_note, stopped_text
    from mastermind.core.cancel import StopReason

    assert limit_note("time limit") == ""  # (outside any command)
    with command_clock():
        assert limit_note("time limit") == ""  # (a command without a time limit)
    with command_clock(4.0):
        clock.now += 0.5
        command_work(3.0).close()  # (a part given less: the note quotes the command's limit)
        clock.now += 4.25
        note = " (--time-limit 4 s counts the whole command: 4.75 s so far)"
        assert limit_note("time limit") == note == limit_note(StopReason.TIME_LIMIT)
        # (the note inside the reason's brackets: "(time limit) (--time-limit ...)" read as two asides)
        assert stopped_text(StopReason.TIME_LIMIT) == f"stopped (time limit; {note[2:-1]})"
        assert limit_note("interrupted") == "" and stopped_text("interrupted") == "stopped (interrupted)"
    assert limit_note("time limit") == ""


@pytest.mark.parametrize(
    "args",
    [
        ["table", "--games", "p4c7"],
        ["bounds", "-r", "p5c6", "--levels", "2"],
        ["simulate", "-r", "p5c6", "-s", "entropy"],
        ["game-value", "-r", "p3c3"],
    ],
)
def test_every_stop_by_the_time_limit_says_what_the_limit_counts(capsys, args):
    """Each command's own seconds under a time limit read as a limit not kept (``optimal``
    and, before this, ``table``, ``compare``, ...): every line saying that work stopped at the
    time limit says that the limit counts the whole command (start-up, tables, compiling), and
    how long it has run."""
    from mastermind.app.cli import main

    code = main([*args, "--time-limit", "0.001"])  # (the start-up alone takes longer)
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [x for x in (out + err).splitlines() if "time limit" in x]
    assert lines and all("--time-limit 0.001 s counts the whole command" in x for x in lines), lines
