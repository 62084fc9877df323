"""Progress reporting that library code can call without knowing about terminals.

Library functions take an optional ``progress`` object (anything with ``start(total,
description)`` and ``advance(n)``); the CLI passes a rich bar on a terminal and nothing
otherwise, so piped and ``--json`` output stays clean.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TextIO


class Progress(Protocol):
    def start(self, total: int | None, description: str = "") -> None: ...

    def advance(self, n: int = 1) -> None: ...


class NoProgress:
    """Reports nothing."""

    def start(self, total: int | None, description: str = "") -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


class RichProgress:
    """A rich progress line on standard error: done / total with a bar and the time left when
    the total is known, a spinner and a count when it is not; searches add their bounds."""

    def __init__(self, bar: Any) -> None:
        self._bar = bar
        self._task = None
        self._description = ""

    def start(self, total: int | None, description: str = "") -> None:
        """A new line; or, for the same description, the same work with a new total (a
        search that plans more units each round): its count goes on."""
        if self._task is not None and description == self._description:
            self._bar.update(self._task, total=total)
            return
        if self._task is not None:
            self._bar.remove_task(self._task)
        self._description = description
        self._task = self._bar.add_task(description or "working", total=total, bounds="")

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._bar.advance(self._task, n)

    def report(self, fields: dict[str, Any]) -> None:
        """Count one step and show a search's proven lower bound and best upper bound."""
        if self._task is None:
            return
        if not self._count(fields):
            self._bar.advance(self._task, 1)
        self._show_bounds(fields)

    def finish(self, fields: dict[str, Any]) -> None:
        """The bounds the search ended with (its last unit may have changed them)."""
        if self._task is not None:
            self._count(fields)
            self._show_bounds(fields)

    def _count(self, fields: dict[str, Any]) -> bool:
        """The search's own count of what is done, if it gives one: what its report says
        (and of its steps: a proven search no longer plans the units it dropped)."""
        done, steps = fields.get("done"), fields.get("steps")
        if isinstance(done, int) and isinstance(steps, int):
            self._bar.update(self._task, completed=done, total=steps)
        elif isinstance(done, int):
            self._bar.update(self._task, completed=done)
        return isinstance(done, int)

    def _show_bounds(self, fields: dict[str, Any]) -> None:
        lower, upper = fields.get("lower_bound"), fields.get("upper_bound")
        parts = []
        if lower is not None:
            parts.append(f"lower {lower}")
        if upper is not None:
            parts.append(f"best {upper}")
        self._bar.update(self._task, bounds="  ".join(parts))


class JsonProgress:
    """One JSON line per event on standard error (``--progress json``): for scripts and
    cluster logs; ``done`` of ``steps`` (null: not known), never ``total``, which the
    commands' JSON keeps for the guesses a strategy takes. ``start`` and ``report`` each
    print a line; plain ``advance`` calls print a line too, for commands that count steps
    without reporting them."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = sys.stderr if stream is None else stream
        self._done = 0
        self._total: int | None = None
        self._description = ""
        self.ended = False  # (the last line given: see end)

    def _emit(self, data: dict[str, Any]) -> None:
        import json

        print(json.dumps(data, separators=(",", ":")), file=self._stream, flush=True)

    def start(self, total: int | None, description: str = "") -> None:
        self._done, self._total, self._description, self.ended = 0, total, description, False
        self._emit({"event": "start", "description": description, "steps": total})

    def advance(self, n: int = 1) -> None:
        self._done += n
        self._emit(
            {"event": "advance", "description": self._description, "done": self._done, "steps": self._total}
        )

    def report(self, fields: dict[str, Any]) -> None:
        self._done += 1
        self._emit({"event": "unit", "description": self._description, **fields})

    def finish(self, fields: dict[str, Any]) -> None:
        """The last line: the bounds the search ended with, and whether they meet."""
        self.ended = True
        self._emit({"event": "end", "description": self._description, **fields})

    def end(self) -> None:
        """The last line of work that has no bounds to give, unless :meth:`finish` gave it."""
        if not self.ended:
            self.finish({"done": self._done, "steps": self._total})


PROGRESS_MODES = ("auto", "bar", "json", "none")


def wants_progress(json_output: bool = False, stream: TextIO | None = None) -> bool:
    """A bar only for a person watching: on a terminal and not for machine-readable output."""
    stream = sys.stderr if stream is None else stream
    return not json_output and hasattr(stream, "isatty") and stream.isatty()


def progress_mode(mode: str, json_output: bool = False) -> str:
    """``auto`` resolved: a bar on a terminal (not with --json), else nothing."""
    if mode not in PROGRESS_MODES:
        from mastermind.core.errors import MastermindError

        raise MastermindError(f"progress mode must be one of {', '.join(PROGRESS_MODES)}, got {mode!r}")
    if mode == "auto":
        return "bar" if wants_progress(json_output) else "none"
    return mode


@contextmanager
def progress_bar(enabled: bool | str) -> Iterator[Progress]:
    """Yield a rich bar when ``enabled`` (True or "bar"), JSON lines for "json", else a
    silent stand-in."""
    if enabled == "json":
        lines = JsonProgress()
        yield lines
        lines.end()  # (every command's last line, as the searches' own is: not after an error)
        return
    if not enabled or enabled == "none":
        yield NoProgress()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        ProgressColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar
    from rich.text import Text

    class Count(ProgressColumn):
        def render(self, task: Any) -> Text:
            done = int(task.completed)
            return Text(f"{done}/{int(task.total)}" if task.total is not None else f"{done}")

    class Remaining(TimeRemainingColumn):
        def render(self, task: Any) -> Text:
            return Text("") if task.total is None else Text("ETA ") + super().render(task)

    class BarOrNothing(BarColumn):
        def render(self, task: Any) -> Any:  # a bar, or nothing when the total is unknown
            return Text("") if task.total is None else super().render(task)

    with Bar(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarOrNothing(),
        Count(),
        TextColumn("{task.fields[bounds]}"),
        TimeElapsedColumn(),
        Remaining(),
        # forced: "auto" asks for a bar only on a terminal, so a bar elsewhere was asked for
        # by name (--progress bar into a log showed a blank line and no bar)
        console=Console(stderr=True, force_terminal=True),
        transient=True,
    ) as bar:
        yield RichProgress(bar)


def say_answered(mode: str, description: str) -> None:
    """An answer that took no work (the result cache): in "json" mode, its start and end
    lines, as every command's progress ends with an end line."""
    if mode == "json":
        with progress_bar("json") as lines:
            lines.start(None, description)
