"""The ``mastermind`` command as the Ctrl-C tests run it: a child process that says on standard
error where its work is, so that a test sends Ctrl-C at a point of the work, not after a number
of seconds (which a faster or a busier machine spends elsewhere).

- Every progress report is one JSON line on standard error, as ``optimal --progress json``
  prints them (the other commands show their progress only on a terminal, never with --json).
- ``--announce MODULE:NAME`` (before the command) prints ``{"event":"call","function":
  "MODULE:NAME"}`` each time that function is entered: for work that reports no progress
  (CP-SAT, the levels of the bounds). NAME may be ``Class.method``.

Nothing else changes: the command's own output and exit code are the test's to check.

    python tests/app/announcing.py [--announce MODULE:NAME]... COMMAND [ARGS]...
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def say(data: dict[str, Any]) -> None:
    print(json.dumps(data, separators=(",", ":")), file=sys.stderr, flush=True)


def announce(target: str) -> None:
    """Wrap ``MODULE:NAME`` so that each call says so first."""
    module, _, path = target.partition(":")
    owner: Any = importlib.import_module(module)
    *parents, name = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    function = getattr(owner, name)

    @functools.wraps(function)
    def announced(*args: Any, **kwargs: Any) -> Any:
        say({"event": "call", "function": target})
        return function(*args, **kwargs)

    setattr(owner, name, announced)


def progress_as_json_lines() -> None:
    """Every command's progress as JSON lines (the commands import ``progress_bar`` when they
    run, after this)."""
    from mastermind.core import progress

    @contextmanager
    def json_lines(enabled: object) -> Iterator[progress.JsonProgress]:
        yield progress.JsonProgress()

    progress.progress_bar = json_lines  # type: ignore[assignment]


def main(argv: list[str]) -> None:
    while argv[:1] == ["--announce"]:
        announce(argv[1])
        argv = argv[2:]
    progress_as_json_lines()
    sys.argv = ["mastermind", *argv]
    from mastermind.app.cli import run

    run()


if __name__ == "__main__":  # (not in the worker processes that multiprocessing spawns from here)
    main(sys.argv[1:])
