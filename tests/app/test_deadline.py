"""``--time-limit`` counts the whole command: from the moment the shared command wrapper
starts it, before the imports and checks of the command's body."""

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
