"""Progress reporting that library code can call without knowing about terminals.

Library functions take an optional ``progress`` object (anything with ``start(total,
description)`` and ``advance(n)``); the CLI passes a rich bar on a terminal and nothing
otherwise, so piped and ``--json`` output stays clean.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Any, Iterator, Protocol, TextIO


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
    """A rich progress bar on standard error: done / total and elapsed time."""

    def __init__(self, bar: Any) -> None:
        self._bar = bar
        self._task = None

    def start(self, total: int | None, description: str = "") -> None:
        if self._task is not None:
            self._bar.remove_task(self._task)
        self._task = self._bar.add_task(description or "working", total=total)

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._bar.advance(self._task, n)


def wants_progress(json_output: bool = False, stream: TextIO | None = None) -> bool:
    """A bar only for a person watching: on a terminal and not for machine-readable output."""
    stream = sys.stderr if stream is None else stream
    return not json_output and hasattr(stream, "isatty") and stream.isatty()


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Progress]:
    """Yield a rich bar when ``enabled``, else a silent stand-in."""
    if not enabled:
        yield NoProgress()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

    with Bar(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    ) as bar:
        yield RichProgress(bar)
