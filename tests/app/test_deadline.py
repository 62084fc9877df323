"""``--time-limit`` counts the whole command: from the moment the shared command wrapper
starts it, before the imports and checks of the command's body."""

import pytest
import typer
from typer.testing import CliRunner

from mastermind.app import deadline as deadline_module
from mastermind.app.deadline import Deadline, command_clock


class FakeClock:
    """The deadlines' clock moved by hand: no test here depends on how fast the machine is."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_command_deadline_counts_from_the_command_start(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(deadline_module, "_now", clock)
    with command_clock():
        clock.now += 3.0  # (the body's imports)
        whole = Deadline.of_command(10.0)
        part = Deadline(10.0)  # a part of the command (a row): from now
        assert whole.left() == 7.0 and whole.elapsed() == 3.0
        assert part.left() == 10.0
        clock.now += 7.0
        assert whole.passed() and not part.passed()
    assert Deadline.of_command(None).left() is None


def test_outside_a_command_the_deadline_counts_from_now(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(deadline_module, "_now", clock)
    with command_clock():
        clock.now += 5.0
    assert Deadline.of_command(10.0).left() == 10.0  # (the mark went with its command)


def test_the_shared_command_wrapper_starts_the_clock(monkeypatch):
    from mastermind.app.commands.common import command

    clock = FakeClock()
    monkeypatch.setattr(deadline_module, "_now", clock)
    app = typer.Typer()
    seen: list[float | None] = []

    @command(app, "work", help="Work for a while.")
    def work(seconds: float = 10.0) -> None:
        clock.now += 2.5  # (what the command does before it reads its limit)
        seen.append(Deadline.of_command(seconds).left())

    @command(app, "other", help="Nothing.")
    def other() -> None:
        pass

    result = CliRunner().invoke(app, ["work", "--seconds", "4"])
    assert result.exit_code == 0, result.output
    assert seen == [1.5]


def test_the_stop_note_says_the_limit_counts_the_whole_command(monkeypatch):
    from mastermind.app.deadline import limit_note, stopped_text

    clock = FakeClock()
    monkeypatch.setattr(deadline_module, "_now", clock)
    assert limit_note("time limit") == ""  # (outside any command)
    with command_clock():
        assert limit_note("time limit") == ""  # (a command without a time limit)
    with command_clock(4.0):
        clock.now += 0.5
        Deadline.of_command(3.0)  # (a part given less: the note quotes the command's limit)
        clock.now += 4.25
        note = " (--time-limit 4 s counts the whole command: 4.75 s so far)"
        assert limit_note("time limit") == note
        assert stopped_text("time limit") == "stopped (time limit)" + note
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
